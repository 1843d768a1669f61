"""End to end: the real App on a real SQLite file, behind the real PTB Application,
polling the stand-in Bot API. Users speak to the stand-in; we assert on what the bot
sent where — structure and codes rather than exact wording.
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adapters.editmap import JsonEditMap
from adapters.telegram import TelegramAdapter
from adapters.telegram.deeplink import DeepLinks, key_for
from adapters.telegram.render import SETTLES_MARK
from bot.app.app import App
from bot.games.registry import link_prefixes
from core import serial
from core.games.challenge import Phase
from core.games.duel import rules as duel
from core.games.practice import rules as practice
from tests.telegram.conftest import relaxed_limiter
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User

# PTB itself warns about RetryAfter.retry_after's future type when it builds the error.
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

GROUP = Chat(id=-100500, type="group", title="Kegelclub")
ALICE = User(id=4101, first_name="Alice", username="alice_k", language_code="en")
BOB = User(id=4202, first_name="Bob", username="bob_k", language_code="en")
CAROL = User(id=4303, first_name="Carol", language_code="en")  # only used to sync
SECRETS = {ALICE.id: "3907", BOB.id: "5186"}  # each player's own secret code


@dataclass(frozen=True)
class Deed:
    """Something a user does in a chat (the chat is where `Club.act` waits for it to be handled)."""

    chat: Chat
    user: User
    do: Callable[[], Any]


def is_help(text: str) -> bool:
    """The /help answer, in any language (it lists the commands by their canonical names)."""
    return "/practice" in text and "/duel" in text and "/logik" in text


class Club:
    """The bot as deployed: one App on a SQLite file and one Telegram adapter, which keeps which message
    shows which board in a file next to the database (bot/__main__.py); restartable. A test that moves
    time gives the App its clock (the adapter's own time stays real)."""

    def __init__(self, standin: StandIn, db_path: Path, clock: Callable[[], float] = time.time) -> None:
        self.standin = standin
        self.db_path = db_path
        self.clock = clock
        self.app: App | None = None
        self.adapter: TelegramAdapter | None = None

    async def start(self) -> None:
        self.app = await App.open(db_path=str(self.db_path), seed=1234, clock=self.clock)
        self.adapter = TelegramAdapter(
            self.standin.token, self.app.handle, self.app.command_menu(),
            base_url=self.standin.base_url, rate_limiter=relaxed_limiter(),
            edit_map=JsonEditMap(self.db_path.with_suffix(".telegram-edits.json")), link_prefixes=link_prefixes(),
        )
        await self.adapter.start()

    async def stop(self) -> None:
        if self.adapter is not None:
            await self.adapter.stop()
            self.adapter = None
        if self.app is not None:
            await self.app.close()
            self.app = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    async def act(self, deed: Deed, timeout: float = 10.0) -> list[Call]:
        """Do something as a user, wait until the bot has handled it, return the bot's calls in
        reaction. A chat's updates are handled in order, so once a /help sent right after in the
        same chat is answered, everything the deed caused (in any chat) is done."""
        mark = self.standin.mark()
        deed.do()
        syncer = deed.user if deed.chat.type == "private" else CAROL
        self.standin.user_message(deed.chat, syncer, "/help")
        answer = await self.standin.wait_for(
            lambda c: c.ok and c.method == "sendMessage" and c.chat_id == deed.chat.id and is_help(c.text),
            timeout=timeout, after=mark)
        end = self.standin.calls.index(answer[0])
        return self.standin.calls[mark:end]

    def say(self, chat: Chat, user: User, text: str) -> Deed:
        return Deed(chat, user, lambda: self.standin.user_message(chat, user, text))

    def press(self, user: User, call: Call, action: str) -> Deed:
        """`user` presses the button of `call` for `action`: Telegram sends back the callback data
        the keyboard holds (the adapter's `SETTLES_MARK` included, if the button has it)."""
        data = next((str(b["callback_data"]) for b in call.buttons
                     if b.get("callback_data") in (action, SETTLES_MARK + action)), action)
        return Deed(GROUP, user, lambda: self.standin.press(GROUP, user, call.result["message_id"], data))

    async def duel_state(self, game: int) -> duel.State:
        assert self.app is not None
        row = await self.app.store.get_game(game)
        assert row is not None
        state: duel.State = serial.load(duel.State, row.state)
        return state


def sent(calls: list[Call], chat_id: int) -> list[Call]:
    return [c for c in calls if c.ok and c.method in ("sendMessage", "sendPhoto",
                                                      "editMessageText") and c.chat_id == chat_id]


def with_button(calls: list[Call], suffix: str) -> Call:
    """The one sent message carrying a callback button whose action ends with `suffix`."""
    found = [c for c in calls if c.ok and any(
        str(b.get("callback_data", "")).endswith(suffix) for b in c.buttons)]
    assert len(found) == 1, [(c.method, c.text) for c in calls]
    return found[0]


def game_of(call: Call, suffix: str) -> int:
    data = next(b["callback_data"] for b in call.buttons
                if str(b.get("callback_data", "")).endswith(suffix))
    return int(data.split(":")[1])


def answers(calls: list[Call]) -> list[dict[str, Any]]:
    return [c.params for c in calls if c.method == "answerCallbackQuery"]


def user(uid: str) -> User:
    return ALICE if uid == str(ALICE.id) else BOB


def wrong(code: str, shift: int) -> str:
    """A valid code (distinct digits) that is not `code`."""
    rotated = code[shift:] + code[:shift]
    return rotated if rotated != code else code[::-1]


async def start_private(club: Club, who: User) -> None:
    calls = await club.act(club.say(Chat.private(who), who, "/start"))
    assert sent(calls, who.id), "the welcome message"


async def challenge_and_accept(
    club: Club, burst: int = 0, duel_command: str = "/duel"
) -> tuple[int, list[Call]]:
    """Alice challenges @bob_k in the group; Bob accepts by button (with `burst` 429s
    answered first). Returns the game id and the bot's calls in reaction to the acceptance."""
    await club.act(club.say(GROUP, BOB, "hello everyone"))  # the bot has seen Bob
    calls = await club.act(club.say(GROUP, ALICE, f"{duel_command} @bob_k 4"))
    challenge = with_button(sent(calls, GROUP.id), ":accept")
    game = game_of(challenge, ":accept")
    state = await club.duel_state(game)
    assert state.opponent is not None and state.opponent.user_id == str(BOB.id)

    # Every press is re-validated: Alice cannot accept her own challenge.
    calls = await club.act(club.press(ALICE, challenge, f"g:{game}:accept"))
    (refused,) = answers(calls)
    assert refused.get("show_alert") is True and refused.get("text")
    assert (await club.duel_state(game)).phase is Phase.CHALLENGE

    if burst:
        club.standin.fail_next(burst, retry_after=1)
    calls = await club.act(club.press(BOB, challenge, f"g:{game}:accept"))
    (ok,) = answers(calls)
    assert "text" not in ok
    assert (await club.duel_state(game)).phase is Phase.SECRETS
    return game, calls


async def set_secret_privately(club: Club, who: User, game: int) -> list[Call]:
    calls = await club.act(club.say(Chat.private(who), who, SECRETS[who.id]))
    (locked,) = [c for c in sent(calls, who.id) if SECRETS[who.id] in c.text]
    assert str(game) in locked.text
    return calls


async def guess(club: Club, who: User, code: str, command: bool = False) -> list[Call]:
    calls = await club.act(club.say(GROUP, who, f"/guess {code}" if command else code))
    return sent(calls, GROUP.id)


def assert_secrets_kept(standin: StandIn, public_from: dict[int, int]) -> None:
    """No group-bound call holds a secret before `public_from[owner]` (the call index where
    it became public: the cracking guess or the reveal), nor any other player's private chat."""
    for owner, secret in SECRETS.items():
        for index, call in enumerate(standin.calls):
            if call.chat_id == owner or index >= public_from[owner]:
                continue
            assert secret not in call.everything(), (owner, call.method, call.chat_id, call.text)


async def test_complete_duel_with_deep_link_last_chance_reveal_and_rematch(
    standin: StandIn, club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    # Everything at DEBUG, except aiosqlite (it logs SQL parameters, game states included),
    # which the entry point keeps at WARNING as well (bot.__main__.setup_logging).
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.WARNING, logger="aiosqlite")
    await start_private(club, ALICE)
    standin.blocked.add(BOB.id)  # Bob has never started the bot

    # A 429 burst while the acceptance fans out: delayed, never lost.
    game, calls = await challenge_and_accept(club, burst=3)
    assert [c.status for c in calls].count(429) == 3
    assert sent(calls, GROUP.id), "the acceptance in the group"
    alice_prompt = with_button(sent(calls, ALICE.id), ":random")
    assert str(game) in alice_prompt.text
    assert [c.status for c in calls if c.chat_id == BOB.id] == [403]
    (fallback,) = [c for c in sent(calls, GROUP.id) if any("url" in b for b in c.buttons)]
    (link,) = [b["url"] for b in fallback.buttons if "url" in b]
    assert link.startswith(f"https://t.me/{standin.bot['username']}?start=")
    token = link.split("start=", 1)[1]
    assert club.adapter is not None and club.adapter.links.decode(token) == f"g:{game}:secret"

    # Bob types his code in the group: deleted (the bot is an admin with "Delete messages"), never
    # echoed; told to go private.
    club.standin.promote_bot(GROUP)
    calls = await club.act(club.say(GROUP, BOB, SECRETS[BOB.id]))
    (delete,) = [c for c in calls if c.method == "deleteMessage"]
    assert delete.ok and delete.params["chat_id"] == GROUP.id
    assert sent(calls, GROUP.id) and all(SECRETS[BOB.id] not in c.everything() for c in calls)

    calls = await set_secret_privately(club, ALICE, game)
    assert all(SECRETS[ALICE.id] not in c.everything() for c in sent(calls, GROUP.id))

    # Bob follows the deep link: /start <token> in the private chat, then his code.
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert [c.status for c in calls if c.chat_id == BOB.id] == [200]
    calls = await set_secret_privately(club, BOB, game)
    assert sent(calls, GROUP.id), "the duel starts in the group"

    state = await club.duel_state(game)
    assert state.phase is Phase.PLAYING
    starter = user(state.turn or "")
    second = BOB if starter is ALICE else ALICE
    target = {starter.id: SECRETS[second.id], second.id: SECRETS[starter.id]}

    # A rejected guess (repeated digits) changes nothing, then one short reply per guess.
    replies = await guess(club, starter, "1123")
    assert len(replies) == 1
    state = await club.duel_state(game)
    assert state.turn == str(starter.id) and not state.attempts.get(str(starter.id))
    assert len(await guess(club, starter, wrong(target[starter.id], 1))) == 1
    assert len(await guess(club, second, wrong(target[second.id], 1), command=True)) == 1
    # Out of turn: refused, nothing recorded.
    await guess(club, second, wrong(target[second.id], 2))
    assert len((await club.duel_state(game)).attempts[str(second.id)]) == 1

    # The starter cracks: the second player gets one last chance, and misses.
    public_from = {second.id: standin.mark()}
    replies = await guess(club, starter, target[starter.id])
    assert (await club.duel_state(game)).last_chance
    assert any(target[starter.id] in c.text for c in replies)
    public_from[starter.id] = standin.mark()
    replies = await guess(club, second, wrong(target[second.id], 3))
    state = await club.duel_state(game)
    assert state.phase is Phase.FINISHED and state.winner == str(starter.id)
    reveal = with_button(replies, ":rematch")
    assert SECRETS[ALICE.id] in reveal.text and SECRETS[BOB.id] in reveal.text
    assert_secrets_kept(standin, public_from)

    # Rematch: same players, the other starts; Bob is reachable privately now.
    calls = await club.act(club.press(second, reveal, f"g:{game}:rematch"))
    offer = with_button(sent(calls, GROUP.id), ":accept")
    new_game = game_of(offer, ":accept")
    assert new_game != game
    calls = await club.act(club.press(starter, offer, f"g:{new_game}:accept"))
    assert not [c for c in calls if c.status != 200]
    for who in (ALICE, BOB):
        assert with_button(sent(calls, who.id), ":random")
    assert not [c for c in sent(calls, GROUP.id) if any("url" in b for b in c.buttons)]
    rematch = await club.duel_state(new_game)
    assert rematch.starter == str(second.id)

    # Nothing secret or token-like in the logs.
    assert standin.token not in caplog.text
    for secret in SECRETS.values():
        assert secret not in caplog.text


async def test_practice_game_and_stats(standin: StandIn, club: Club) -> None:
    calls = await club.act(club.say(GROUP, ALICE, "/practice 3"))
    assert len(sent(calls, GROUP.id)) == 1
    assert club.app is not None
    (row,) = await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))
    code = serial.load(practice.State, row.state).secret
    assert len(code) == 3
    replies = await guess(club, ALICE, wrong(code, 1))
    assert len(replies) == 1 and code not in replies[0].text
    replies = await guess(club, ALICE, code)
    assert any(code in c.text for c in replies)
    assert not await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))

    calls = await club.act(club.say(GROUP, ALICE, "/stats"))
    (stats,) = sent(calls, GROUP.id)
    assert "practice" in stats.text and "Alice" in stats.text


async def test_bot_restart_mid_duel_continues_the_game(standin: StandIn, club: Club) -> None:
    for who in (ALICE, BOB):
        await start_private(club, who)
    game, calls = await challenge_and_accept(club, duel_command="/duel@ClubGameBot")
    assert not [c for c in calls if c.status != 200]
    await set_secret_privately(club, ALICE, game)
    await set_secret_privately(club, BOB, game)
    state = await club.duel_state(game)
    starter = user(state.turn or "")
    second = BOB if starter is ALICE else ALICE
    target = {starter.id: SECRETS[second.id], second.id: SECRETS[starter.id]}
    assert len(await guess(club, starter, wrong(target[starter.id], 1))) == 1

    await club.restart()  # new App and new adapter on the same SQLite file

    assert len(await guess(club, second, wrong(target[second.id], 1))) == 1
    calls = await club.act(club.say(GROUP, starter, "/board"))
    (board,) = sent(calls, GROUP.id)
    assert wrong(target[starter.id], 1) in board.text
    await guess(club, starter, target[starter.id])
    replies = await guess(club, second, target[second.id])  # cracks on the last chance
    state = await club.duel_state(game)
    assert state.phase is Phase.FINISHED and state.outcome == "draw"
    reveal = with_button(replies, ":rematch")
    assert SECRETS[ALICE.id] in reveal.text and SECRETS[BOB.id] in reveal.text


async def test_command_menus_are_published_in_every_language(
    standin: StandIn, club: Club
) -> None:
    assert club.app is not None
    menu = club.app.command_menu()
    calls = standin.of("setMyCommands")
    languages = {c.params.get("language_code") for c in calls}
    assert None in languages and "en" in languages
    assert {lang.split("-")[0] for lang in menu} <= languages
    default = next(c for c in calls if c.params.get("language_code") is None)
    names = {cmd["command"] for cmd in default.params["commands"]}
    assert {"duel", "practice", "guess", "stats"} <= names and "start" not in names


async def test_group_upgraded_to_supergroup_keeps_its_games_and_stats(
    standin: StandIn, club: Club
) -> None:
    calls = await club.act(club.say(GROUP, ALICE, "/practice 3"))
    assert len(sent(calls, GROUP.id)) == 1
    assert club.app is not None
    (row,) = await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))
    code = serial.load(practice.State, row.state).secret
    assert len(await guess(club, ALICE, wrong(code, 1))) == 1

    supergroup = Chat(id=-1009000, type="supergroup", title=GROUP.title)  # the old group takes no messages now
    await club.act(Deed(supergroup, ALICE, lambda: standin.migrate(GROUP, ALICE, supergroup.id)))
    calls = await club.act(club.say(supergroup, ALICE, code))
    (cracked,) = sent(calls, supergroup.id)[:1]
    assert code in cracked.text
    assert not sent(calls, GROUP.id)
    calls = await club.act(club.say(supergroup, ALICE, "/stats"))
    (stats,) = sent(calls, supergroup.id)
    assert "practice" in stats.text


DAVE = User(id=4404, first_name="Dave", username="dave_k", language_code="en")  # never in the group


def unsigned(action: str) -> str:
    """The old, unsigned payload form (`a_` + urlsafe base64): anyone could write one."""
    return "a_" + base64.urlsafe_b64encode(action.encode()).decode().rstrip("=")


async def test_forged_deep_links_and_a_link_of_another_user_do_nothing(
    standin: StandIn, club: Club
) -> None:
    await start_private(club, ALICE)
    await start_private(club, DAVE)
    standin.blocked.add(BOB.id)  # Bob gets his secret prompt as a deep link in the group
    await club.act(club.say(GROUP, BOB, "hello everyone"))
    calls = await club.act(club.say(GROUP, ALICE, "/duel @bob_k 4"))
    challenge = with_button(sent(calls, GROUP.id), ":accept")
    game = game_of(challenge, ":accept")

    # A stranger and the challenged player himself write payloads that name other actions:
    # none of them is a deep link of ours, so each is a plain /start (the welcome).
    valid = club.adapter.links.encode(f"g:{game}:secret") if club.adapter else None
    assert valid is not None
    forged = [unsigned(f"g:{game}:accept"), f"s_{game}_AAAAAAAAAAAAAAAA",
              valid[:-1] + ("A" if valid[-1] != "A" else "B"),
              DeepLinks(key_for("999:another-bot")).encode(f"g:{game}:secret") or ""]
    for who in (DAVE, BOB):
        standin.blocked.discard(BOB.id)
        for payload in forged:
            calls = await club.act(club.say(Chat.private(who), who, f"/start {payload}"))
            (welcome,) = sent(calls, who.id)
            assert "/duel" in welcome.text or "/help" in welcome.text, welcome.text
            assert not answers(calls)
            assert (await club.duel_state(game)).phase is Phase.CHALLENGE
    standin.blocked.add(BOB.id)

    calls = await club.act(club.press(BOB, challenge, f"g:{game}:accept"))
    assert (await club.duel_state(game)).phase is Phase.SECRETS
    (fallback,) = [c for c in sent(calls, GROUP.id) if any("url" in b for b in c.buttons)]
    (link,) = [b["url"] for b in fallback.buttons if "url" in b]
    token = link.split("start=", 1)[1]

    # Bob's valid link, followed by Dave (not seated): refused with a reason, nothing changes,
    # and a code Dave types afterwards goes to no game.
    before = await club.duel_state(game)
    calls = await club.act(club.say(Chat.private(DAVE), DAVE, f"/start {token}"))
    (refusal,) = sent(calls, DAVE.id)
    assert "another chat" in refusal.text
    calls = await club.act(club.say(Chat.private(DAVE), DAVE, "1234"))
    assert await club.duel_state(game) == before
    # Bob himself follows it and sets his secret.
    standin.blocked.discard(BOB.id)
    await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    await set_secret_privately(club, BOB, game)
    assert str(BOB.id) in (await club.duel_state(game)).secrets


async def test_a_group_admin_may_enter_a_kegeln_throw_a_member_may_not(
    standin: StandIn, club: Club
) -> None:
    """`Actor.is_admin` from getChatAdministrators: an admin acts like the scorer (README)."""
    standin.admins[GROUP.id] = [CAROL, DAVE]  # Carol created the group, Dave is an administrator
    calls = await club.act(club.say(GROUP, ALICE, "/kegeln high 2 Anna Ben"))
    assert any("Hausnummern #" in c.text for c in sent(calls, GROUP.id))
    assert club.app is not None
    (row,) = await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))

    calls = await club.act(club.say(GROUP, BOB, "/wurf 5 T"))
    assert any("Only the scorer Alice" in c.text for c in sent(calls, GROUP.id) + sent(calls, BOB.id))
    assert (await club.app.store.get_game(row.id)).state["throws"] == []  # type: ignore[union-attr]

    calls = await club.act(club.say(GROUP, DAVE, "/wurf 5 T"))
    assert any("Anna: 5 pins → tens." in c.text for c in sent(calls, GROUP.id)), [c.text for c in calls]
    assert len((await club.app.store.get_game(row.id)).state["throws"]) == 1  # type: ignore[union-attr]
    asked = [c for c in standin.of("getChatAdministrators") if c.ok]
    assert len(asked) == 1 and asked[0].chat_id == GROUP.id  # asked once, then cached

    # Carol takes Dave's rights: the chat_member update drops the cached list at once
    await club.act(Deed(GROUP, CAROL, lambda: standin.demote(GROUP, CAROL, DAVE)))
    calls = await club.act(club.say(GROUP, DAVE, "/wurf 3 E"))
    assert any("Only the scorer Alice" in c.text for c in sent(calls, GROUP.id) + sent(calls, DAVE.id))
    assert len((await club.app.store.get_game(row.id)).state["throws"]) == 1  # type: ignore[union-attr]
    assert len([c for c in standin.of("getChatAdministrators") if c.ok]) == 2


async def test_localised_command_names_in_the_menus_and_typed(standin: StandIn, club: Club) -> None:
    """A command's localised names (bot/app/turn.py `Command.aliases`): each language's menu shows
    its own (the stand-in refuses names Telegram refuses, so the Cyrillic ones stay out), the
    canonical name is not listed twice, and a typed alias of any language works in any chat."""
    calls = standin.of("setMyCommands")
    assert calls and all(c.ok for c in calls)
    menus = {c.params.get("language_code"): {cmd["command"] for cmd in c.params["commands"]} for c in calls}
    expected = {None: "yearreview", "en": "yearreview", "de": "jahresrueckblick", "sv": "arsrevy",
                "ru": "itogi_goda", "bg": "godishen_pregled"}
    for lang, name in expected.items():
        review = menus[lang] & set(expected.values())
        assert review == {name}, (lang, review)
        assert "saison" in menus[lang] and "kegelmerge" in menus[lang]
    for typed in ("/itogi_goda", "/yearreview 2025", "/jahresrueckblick"):
        replies = sent(await club.act(club.say(GROUP, ALICE, typed)), GROUP.id)
        assert len(replies) == 1 and "No Kegeln game finished in season" in replies[0].text, typed
