"""Who a Telegram group message is from and whether the bot gets it (issue 22, items 2–4): anonymous
admins and posts as a channel, privacy mode, a group upgraded to a supergroup. The real App on a real
SQLite file behind the real PTB Application, polling the stand-in (tests/telegram/standin_identity.py
models what the Bot API documents).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.texts.i18n import Catalogs
from core import serial
from core.games.words import state as words
from core.messages import Text
from tests.telegram import standin_identity as identity
from tests.telegram.conftest import MakeAdapter
from tests.telegram.fakeapp import FakeApp
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import (
    ALICE,
    BOB,
    GROUP,
    SECRETS,
    Club,
    Deed,
    challenge_and_accept,
    sent,
    set_secret_privately,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

DAVE = User(id=4404, first_name="Dave", username="dave_k", language_code="en")
CHANNEL = Chat(id=-1009001, type="channel", title="Club News")
OTHER = Chat(id=-1009002, type="supergroup", title="Other Club")
OTHER_BOT = User(id=9990, first_name="Other", username="OtherGameBot", is_bot=True)
EN = Catalogs()


def said(key: str, **params: Any) -> str:
    return EN.render(Text(key, params), "en")


class ClockedClub(Club):
    """The deployed bot with a clock the test moves (a word turn's time running out)."""

    def __init__(self, standin: StandIn, db_path: Path) -> None:
        super().__init__(standin, db_path, lambda: self.now)
        self.now = 1_000_000.0


async def running(standin: StandIn, tmp_path: Path, privacy: bool) -> ClockedClub:
    standin.privacy = privacy
    standin.admins[GROUP.id] = [ALICE]
    club = ClockedClub(standin, tmp_path / "identity.sqlite")
    await club.start()
    return club


@pytest.fixture
async def club(standin: StandIn, tmp_path: Path) -> AsyncIterator[ClockedClub]:
    """The bot with privacy mode off (it gets every group message)."""
    club = await running(standin, tmp_path, privacy=False)
    yield club
    await club.stop()


@pytest.fixture
async def quiet(standin: StandIn, tmp_path: Path) -> AsyncIterator[ClockedClub]:
    """The bot with privacy mode on (BotFather's default), not an admin of the group."""
    club = await running(standin, tmp_path, privacy=True)
    yield club
    await club.stop()


def post(club: Club, chat: Chat, user: User, text: str, **how: Any) -> Deed:
    return Deed(chat, user, lambda: club.standin.user_message(chat, user, text, **how))


def texts(calls: list[Call], chat_id: int) -> str:
    return "\n".join(c.text for c in sent(calls, chat_id))


# ------------------------------------------------------------------ anonymous admins and channels


async def test_an_anonymous_admin_scores_kegeln_and_is_told_what_needs_a_personal_account(club: ClockedClub) -> None:
    calls = await club.act(post(club, GROUP, ALICE, "/kegeln high 2 Birgit Klaus", as_chat=GROUP))
    assert "Birgit" in texts(calls, GROUP.id), "the anonymous admin's game starts"
    assert club.app is not None
    (game,) = await club.app.store.chat_games("telegram", str(GROUP.id))
    assert game.kind == "kegeln"
    calls = await club.act(post(club, GROUP, ALICE, "/wurf 9 E", as_chat=GROUP))
    assert "_9" in texts(calls, GROUP.id), "and scores it"

    for command in ("duel", "practice", "words"):
        calls = await club.act(post(club, GROUP, ALICE, f"/{command}", as_chat=GROUP))
        assert said("error.personal_account", command=command) in texts(calls, GROUP.id), command
    assert len(await club.app.store.chat_games("telegram", str(GROUP.id))) == 1, "no seat for the group"
    # nor is the group's anonymous identity someone to challenge by its name (the group's title)
    calls = await club.act(post(club, GROUP, BOB, f"/duel {GROUP.title}"))
    assert said("error.unknown_player", name=GROUP.title) in texts(calls, GROUP.id)
    # the same admin, as themself, may play
    calls = await club.act(post(club, GROUP, ALICE, "/practice"))
    assert said("error.personal_account", command="practice") not in texts(calls, GROUP.id)
    assert len(await club.app.store.chat_games("telegram", str(GROUP.id))) == 2


async def test_a_post_as_a_channel_gains_no_admin_rights_and_takes_no_seat(club: ClockedClub) -> None:
    assert club.app is not None
    calls = await club.act(post(club, GROUP, BOB, "/timezone Europe/Berlin", as_chat=CHANNEL))
    assert said("error.timezone.admins_only") in texts(calls, GROUP.id)
    calls = await club.act(post(club, GROUP, BOB, "/kegeln high 2 Birgit Klaus", as_chat=CHANNEL))
    assert said("error.personal_account", command="kegeln") in texts(calls, GROUP.id)
    assert not await club.app.store.chat_games("telegram", str(GROUP.id))

    # another chat named as the sender (forged: only the group itself makes an admin here)
    forged = {"message": {
        "message_id": 900, "date": 0, "chat": GROUP.to_dict(), "from": dict(identity.GROUP_ANONYMOUS_BOT),
        "sender_chat": OTHER.to_dict(), "text": "/timezone Europe/Berlin",
        "entities": [{"type": "bot_command", "offset": 0, "length": 9}]}}
    calls = await club.act(Deed(GROUP, BOB, lambda: club.standin.push_raw(forged)))
    assert said("error.timezone.admins_only") in texts(calls, GROUP.id)
    # the group's own anonymous admin may
    calls = await club.act(post(club, GROUP, ALICE, "/timezone Europe/Berlin", as_chat=GROUP))
    assert "Europe/Berlin" in texts(calls, GROUP.id)
    assert said("error.timezone.admins_only") not in texts(calls, GROUP.id)


async def test_a_linked_channels_automatic_forward_is_not_answered(club: ClockedClub) -> None:
    def forward() -> None:
        standin = club.standin
        message = {"message_id": 901, "date": 0, "chat": GROUP.to_dict(), "text": "/duel",
                   "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
                   **identity.posted_as(standin, GROUP, BOB, CHANNEL, automatic=True)}
        standin._push({"message": message})
    calls = await club.act(Deed(GROUP, BOB, forward))
    assert not sent(calls, GROUP.id)


# ------------------------------------------------------------------ privacy mode


async def test_privacy_mode_delivers_only_what_addresses_the_bot(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    standin.privacy = True
    app = FakeApp()
    await make_adapter(app.handle)
    me = await standin.wait_for(lambda c: c.method == "getMe")
    assert me[0].result["can_read_all_group_messages"] is False

    async def heard(text: str, **how: Any) -> bool:
        before, mark = len(app.inbounds), standin.mark()
        standin.user_message(GROUP, ALICE, text, **how)
        standin.user_message(GROUP, ALICE, "/echo@ClubGameBot sync")
        await standin.wait_sent(GROUP.id, "echo: sync", after=mark)
        return len(app.inbounds) - before == 2

    assert not await heard("1234")
    assert await heard("/echo a")
    assert not await heard("/echo@OtherGameBot b")
    bot_said = standin.sent(GROUP.id)[-1].result["message_id"]
    assert await heard("5678", reply_to=bot_said)
    assert await heard("@ClubGameBot 4321")
    assert [i.reads_all for i in app.inbounds] == [False] * len(app.inbounds)
    identity.other_bot_posts(standin, GROUP, OTHER_BOT)
    assert not await heard("/echo c"), "a bare command goes to the bot that spoke last"
    assert [m["text"] for m in standin.unheard] == ["1234", "/echo@OtherGameBot b", "/echo c"]

    assert len(standin.of("getChatAdministrators")) == 1, "one look-up for the group, kept"

    identity.promote_bot(standin, GROUP, ALICE)  # an admin bot gets everything
    assert await heard("9876")
    assert app.inbounds[-2].text == "9876" and app.inbounds[-2].reads_all is True
    assert app.inbounds[-1].reads_all is True
    assert len(standin.of("getChatAdministrators")) == 2, "asked again once the bot's rights changed"


async def test_under_privacy_mode_help_and_prompts_say_guess_or_reply(quiet: ClockedClub) -> None:
    club = quiet
    standin = club.standin

    async def helped(text: str) -> str:
        """Bob asks for help; the bot's answer."""
        mark = standin.mark()
        standin.user_message(GROUP, BOB, text)
        (answer,) = await standin.wait_for(
            lambda c: c.ok and c.method == "sendMessage" and c.chat_id == GROUP.id, after=mark)
        return answer.text

    help_text = await helped("/help")
    assert said("help.guess_commands") in help_text and said("help.guess_typed") not in help_text
    assert said("help.cmd.guess_commands") in await helped("/help guess")

    calls = await club.act(post(club, GROUP, BOB, "/practice"))
    (started,) = sent(calls, GROUP.id)
    assert "/guess 1234" in started.text and "reply" in started.text
    calls = await club.act(post(club, GROUP, BOB, "1234"))  # never reaches the bot
    assert not sent(calls, GROUP.id) and standin.unheard[-1]["text"] == "1234"
    calls = await club.act(post(club, GROUP, BOB, "5678", reply_to=started.result["message_id"]))
    assert "5678" in texts(calls, GROUP.id), "a reply to the bot is a guess"
    calls = await club.act(post(club, GROUP, BOB, "/guess 9012"))
    assert "9012" in texts(calls, GROUP.id)

    identity.promote_bot(standin, GROUP, ALICE)  # now every message arrives: "just type it" again
    assert said("help.guess_typed") in await helped("/help")
    calls = await club.act(post(club, GROUP, BOB, "3456"))
    assert "3456" in texts(calls, GROUP.id)


async def test_a_word_round_under_privacy_mode_reminds_a_silent_guesser_instead_of_skipping(
    quiet: ClockedClub
) -> None:
    club = quiet
    assert club.app is not None
    await club.act(post(club, GROUP, BOB, "/words length 5 time 30"))
    await club.act(post(club, GROUP, ALICE, "/join"))
    await club.act(post(club, GROUP, DAVE, "/join"))
    await club.act(post(club, GROUP, BOB, "/begin"))
    (row,) = await club.app.store.chat_games("telegram", str(GROUP.id))
    state = serial.load(words.State, row.state)
    setter = next(u for u in (ALICE, BOB, DAVE) if str(u.id) == state.setter)
    calls = await club.act(post(club, Chat.private(setter), setter, "crane"))
    prompt = texts(calls, GROUP.id)
    assert "/guess" in prompt and "reply" in prompt and "Just type" not in prompt
    state = serial.load(words.State, (await club.app.store.get_game(row.id)).state)  # type: ignore[union-attr]
    first = next(u for u in (ALICE, BOB, DAVE) if str(u.id) == state.turn)
    second = next(u for u in (ALICE, BOB, DAVE) if u not in (setter, first))

    await club.act(post(club, GROUP, first, "slate"))  # typed plainly: privacy mode keeps it from the bot
    assert club.standin.unheard[-1]["text"] == "slate"
    club.now += 31
    calls = await club.act(post(club, GROUP, second, "/guess plant"))
    group = texts(calls, GROUP.id)
    assert said("words.reminded", name=first.first_name, seconds=30) in group
    assert said("words.skipped", name=first.first_name, next=second.first_name, seconds=30) not in group
    state = serial.load(words.State, (await club.app.store.get_game(row.id)).state)  # type: ignore[union-attr]
    assert state.turn == str(first.id) and not state.tries, "the silent guesser keeps the turn"
    calls = await club.act(post(club, GROUP, first, "/guess slate"))
    state = serial.load(words.State, (await club.app.store.get_game(row.id)).state)  # type: ignore[union-attr]
    assert [t.word for t in state.tries] == ["slate"] and state.turn == str(second.id)


# ------------------------------------------------------------------ a group upgraded to a supergroup


async def test_a_send_to_an_upgraded_group_goes_to_the_supergroup_and_the_games_move(club: ClockedClub) -> None:
    """The bot missed both service messages: the first sign of the upgrade is Telegram refusing a send
    with `migrate_to_chat_id` (PTB's ChatMigrated). The message is sent there, and the duel moves."""
    standin = club.standin
    game, _calls = await challenge_and_accept(club)
    await set_secret_privately(club, ALICE, game)
    supergroup = standin.migrate(GROUP, ALICE, -1004242, announce=False)
    calls = await set_secret_privately(club, BOB, game)  # the bot announces the start in the group
    refused = [c for c in calls if c.chat_id == GROUP.id and c.method == "sendMessage"]
    assert refused and all(c.status == 400 for c in refused)
    started = sent(calls, supergroup.id)
    assert started and "guess" in started[-1].text.lower(), "the start reaches the supergroup"
    state = await club.duel_state(game)
    starter = ALICE if state.turn == str(ALICE.id) else BOB
    other = BOB if starter is ALICE else ALICE
    guess = "0123" if SECRETS[other.id] != "0123" else "4567"
    calls = await club.act(Deed(supergroup, starter, lambda: standin.user_message(
        supergroup, starter, f"/guess {guess}")))
    assert guess in texts(calls, supergroup.id), "the game is found in the supergroup"
    assert club.app is not None
    assert not await club.app.store.chat_games("telegram", str(GROUP.id))
    assert [r.id for r in await club.app.store.chat_games("telegram", str(supergroup.id))] == [game]


async def test_the_supergroups_service_message_alone_moves_the_games(club: ClockedClub) -> None:
    """Only the new supergroup's `migrate_from_chat_id` arrives (the old group's message was missed)."""
    assert club.app is not None
    await club.act(post(club, GROUP, ALICE, "/kegeln high 2 Birgit Klaus"))
    standin = club.standin
    supergroup = standin.migrate(GROUP, ALICE, -1004343, announce=False)
    standin._push({"message": {"message_id": 1, "date": 0, "chat": supergroup.to_dict(),
                               "from": ALICE.to_dict(), "migrate_from_chat_id": GROUP.id}})
    calls = await club.act(Deed(supergroup, ALICE, lambda: standin.user_message(supergroup, ALICE, "/wurf 9 E")))
    assert "_9" in texts(calls, supergroup.id)
    assert len(await club.app.store.chat_games("telegram", str(supergroup.id))) == 1
