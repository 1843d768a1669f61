"""End to end for the newer games: Logik, the word game and Hausnummern, each through the real
PTB Application polling the stand-in Bot API, with the real App on a real SQLite file.

Assertions are on structure — who got what, in which chat, by which Bot API method, which
secrets are absent from group-bound calls, that a picture is a PNG — not on whole sentences.
Secrets are fixed (typed by the players) and the App is seeded, so every run is the same.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

import pytest

from adapters.telegram.deeplink import DeepLinks, key_for
from bot.solver import dictionary
from core import pegs, serial
from core.games.base import is_over
from core.games.challenge import Phase
from core.games.kegeln import state as kegeln_state
from core.games.logik import rules as logik
from core.games.words import state as words
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, Club, answers, game_of, sent, with_button

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

DAVE = User(id=4404, first_name="Dave", username="dave_k", language_code="en")
# Logik secrets: Alice hides ALICE_ROW (Bob cracks it), Bob hides BOB_ROW (Alice cracks it).
ALICE_ROW = "31758"
BOB_ROW = "62417"
ROWS = {ALICE.id: ALICE_ROW, BOB.id: BOB_ROW}
WORD = "crane"
PNG = b"\x89PNG\r\n\x1a\n"


def row_pattern(code: str) -> re.Pattern[str]:
    """A Logik row as the bot shows it — each peg's colour symbol and digit, in order, whatever
    decoration (an initial, spaces) follows each peg, so a format change does not blind the test."""
    return re.compile(r"\S*\s*".join(re.escape(f"{pegs.BY_NUMBER[int(d)].symbol}{d}") for d in code))


def shows(text: str, code: str) -> bool:
    return row_pattern(code).search(text) is not None


async def load(club: Club, game: int, module: ModuleType) -> Any:
    """The game's stored state, read as the game module's `State`."""
    assert club.app is not None
    row = await club.app.store.get_game(game)
    assert row is not None
    return serial.load(module.State, row.state)


def group_calls(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.chat_id == GROUP.id]


def visible(call: Call) -> str:
    """What a group member could read in a call: text/caption and button labels and data."""
    return call.text + "\n" + "\n".join(f"{b.get('text')} {b.get('callback_data', '')} {b.get('url', '')}"
                                        for b in call.buttons)


def assert_rows_hidden(calls: list[Call], *codes: str) -> None:
    """No group-bound call shows any of `codes`, neither as digits nor as pegs."""
    for call in group_calls(calls):
        for code in codes:
            assert code not in visible(call), (call.method, call.text)
            assert not shows(call.everything(), code), (call.method, call.text)


async def row_in_group(club: Club, who: User, text: str) -> list[Call]:
    return sent(await club.act(club.say(GROUP, who, text)), GROUP.id)


# ------------------------------------------------------------------------------ Logik


async def test_logik_duel_with_deep_link_simultaneous_reveal_and_board_picture(
    standin: StandIn, club: Club
) -> None:
    await club.act(club.say(Chat.private(ALICE), ALICE, "/start"))
    standin.blocked.add(BOB.id)  # Bob never started the bot: his secret goes by deep link
    await club.act(club.say(GROUP, BOB, "hi all"))  # the bot has seen @bob_k

    calls = await club.act(club.say(GROUP, ALICE, "/logik @bob_k"))
    challenge = with_button(sent(calls, GROUP.id), ":accept")
    game = game_of(challenge, ":accept")
    state = await load(club, game, logik)
    assert state.opponent is not None and state.opponent.user_id == str(BOB.id)

    # Alice cannot accept her own challenge; Bob accepts by button.
    calls = await club.act(club.press(ALICE, challenge, f"g:{game}:accept"))
    (refused,) = answers(calls)
    assert refused.get("show_alert") is True
    calls = await club.act(club.press(BOB, challenge, f"g:{game}:accept"))
    (ok,) = answers(calls)
    assert "text" not in ok
    assert (await load(club, game, logik)).phase is Phase.SECRETS

    # Alice: the private prompt with the 🎲 button. Bob: 403, the group gets a deep link.
    assert with_button(sent(calls, ALICE.id), f"g:{game}:random")
    assert [c.status for c in calls if c.chat_id == BOB.id] == [403]
    (fallback,) = [c for c in sent(calls, GROUP.id) if any("url" in b for b in c.buttons)]
    (link,) = [b["url"] for b in fallback.buttons if "url" in b]
    token = link.split("start=", 1)[1]
    assert DeepLinks(key_for(club.standin.token)).decode(token) == f"g:{game}:secret"

    # Alice's secret as digits, privately: the confirmation shows it in her chat only.
    calls = await club.act(club.say(Chat.private(ALICE), ALICE, ALICE_ROW))
    assert any(shows(c.text, ALICE_ROW) for c in sent(calls, ALICE.id))
    assert sent(calls, GROUP.id), "the group hears that Alice is ready"
    assert_rows_hidden(calls, ALICE_ROW)

    # Bob follows the deep link and sends his secret as colour initials (6 2 4 1 7 = P G Y R W).
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    assert [c.status for c in calls if c.chat_id == BOB.id] == [200]
    calls = await club.act(club.say(Chat.private(BOB), BOB, "p g y r w"))
    assert any(shows(c.text, BOB_ROW) for c in sent(calls, BOB.id))
    state = await load(club, game, logik)
    assert state.phase is Phase.PLAYING
    assert state.secrets == {str(ALICE.id): ALICE_ROW, str(BOB.id): BOB_ROW}
    assert sent(calls, GROUP.id), "the start message in the group"

    # Round 1. Alice's row (digits): confirmed in one message, nothing revealed yet.
    replies = await row_in_group(club, ALICE, "12345")
    assert len(replies) == 1 and not shows(replies[0].text, "12345")
    state = await load(club, game, logik)
    assert state.pending == {str(ALICE.id): "12345"} and state.rows[str(ALICE.id)] == []
    # A second row in the same round is refused and changes nothing.
    await row_in_group(club, ALICE, "88888")
    assert (await load(club, game, logik)).pending == {str(ALICE.id): "12345"}
    # Bob's row as colour initials (r g b y k = 12348): now both rows are shown together.
    replies = await row_in_group(club, BOB, "r g b y k")
    (reveal,) = [c for c in replies if shows(c.text, "12345")]
    assert shows(reveal.text, "12348")
    state = await load(club, game, logik)
    assert not state.pending and [len(v) for v in state.rows.values()] == [1, 1]
    assert state.rows[str(BOB.id)][0].code == "12348"

    # /board: a sendPhoto with a PNG (the text board as caption), no secret on it.
    calls = await club.act(club.say(GROUP, BOB, "/board"))
    (photo,) = [c for c in sent(calls, GROUP.id) if c.method == "sendPhoto"]
    _, data = photo.files["photo"]
    assert data.startswith(PNG) and len(data) > 1000
    assert photo.text, "the text board rides along as the caption"

    # Round 2: Alice cracks Bob's row first — the result must wait for Bob's row.
    replies = await row_in_group(club, ALICE, BOB_ROW)
    assert len(replies) == 1
    state = await load(club, game, logik)
    assert state.phase is Phase.PLAYING and state.pending == {str(ALICE.id): BOB_ROW}
    end_mark = standin.mark()
    assert_rows_hidden(standin.calls, ALICE_ROW, BOB_ROW)  # nothing secret in the group so far

    replies = await row_in_group(club, BOB, "KKKKK")  # 88888: a miss
    state = await load(club, game, logik)
    assert state.phase is Phase.FINISHED and state.winner == str(ALICE.id)
    assert state.rows[str(BOB.id)][1].code == "88888"
    after = standin.calls[end_mark:]
    final = [c for c in group_calls(after) if c.ok and shows(c.text, ALICE_ROW)]
    assert final and shows(final[0].text, BOB_ROW), "both secrets at the end"
    pictures = [c for c in group_calls(after) if c.ok and c.method == "sendPhoto"]
    assert pictures and pictures[-1].files["photo"][1].startswith(PNG), "the end comes with the picture"
    assert with_button(group_calls(after), ":rematch")
    # Neither secret ever reached the group before the end (nor the other player's chat) —
    # and the check does see them once they are public, so it is not blind to the format.
    assert_rows_hidden(standin.calls[:end_mark], ALICE_ROW, BOB_ROW)
    with pytest.raises(AssertionError):
        assert_rows_hidden(after, ALICE_ROW)
    for owner, code in ROWS.items():
        other = BOB.id if owner == ALICE.id else ALICE.id
        assert not [c for c in standin.calls[:end_mark] if c.chat_id == other and shows(c.text, code)]


# ------------------------------------------------------------------------------ words


async def test_word_game_three_players_one_round(standin: StandIn, club: Club) -> None:
    dictionary.lexicon("en")  # built once per process (cached): not inside the first reply's 10 s wait on a busy CI
    await club.act(club.say(GROUP, BOB, "hi"))
    calls = await club.act(club.say(GROUP, ALICE, "/words length 5"))
    lobby = with_button(sent(calls, GROUP.id), ":join")
    game = game_of(lobby, ":join")
    calls = await club.act(club.press(BOB, lobby, f"g:{game}:join"))
    assert sent(calls, GROUP.id) and "text" not in answers(calls)[0]
    calls = await club.act(club.say(GROUP, DAVE, "/join"))
    assert sent(calls, GROUP.id)
    state = await load(club, game, words)
    assert {p.user_id for p in state.players} == {str(ALICE.id), str(BOB.id), str(DAVE.id)}

    calls = await club.act(club.say(GROUP, ALICE, "/begin"))
    state = await load(club, game, words)
    assert state.phase is words.Phase.SETTING, state.phase
    setter = next(u for u in (ALICE, BOB, DAVE) if str(u.id) == state.setter)
    assert sent(calls, GROUP.id), "the lot in the group"
    # Only the setter is asked privately (with the 🎲 button); nobody else gets a private message.
    assert with_button(sent(calls, setter.id), ":random")
    assert not [c for u in (ALICE, BOB, DAVE) if u is not setter for c in sent(calls, u.id)]

    # The setter's word, privately: confirmed there, never in the group.
    calls = await club.act(club.say(Chat.private(setter), setter, WORD))
    assert any(WORD in c.text for c in sent(calls, setter.id))
    state = await load(club, game, words)
    assert state.secret == WORD and state.turn is not None
    first = next(u for u in (ALICE, BOB, DAVE) if str(u.id) == state.turn)
    second = next(u for u in (ALICE, BOB, DAVE) if u is not setter and u is not first)

    # Out of turn: refused, turn kept. A non-word: refused, turn kept.
    replies = await row_in_group(club, second, "slate")
    assert len(replies) == 1
    replies = await row_in_group(club, first, "qqqqq")
    assert len(replies) == 1 and "qqqqq" in replies[0].text
    state = await load(club, game, words)
    assert state.turn == str(first.id) and not state.tries
    # A real guess: one answer, the turn passes on.
    replies = await row_in_group(club, first, "slate")
    assert len(replies) == 1 and "slate" in replies[0].text
    state = await load(club, game, words)
    assert state.turn == str(second.id) and len(state.tries) == 1
    secret_free_until = standin.mark()

    # The second guesser finds the word with /guess: a point, the word revealed, they set next.
    calls = await club.act(club.say(GROUP, second, f"/guess {WORD}"))
    assert any(WORD in c.text for c in sent(calls, GROUP.id))
    state = await load(club, game, words)
    assert state.points.get(str(second.id)) == 1 and state.setter == str(second.id)
    assert state.phase is words.Phase.SETTING and len(state.rounds) == 1
    assert with_button(sent(calls, second.id), ":random"), "the solver is asked for the next word"
    for call in group_calls(standin.calls[:secret_free_until]):
        assert WORD not in visible(call).lower(), (call.method, call.text)
    assert any(WORD in visible(c).lower() for c in group_calls(standin.calls[secret_free_until:]))


# ------------------------------------------------------------------------------ Hausnummern


async def test_kegeln_short_game_standings_edited_in_place(standin: StandIn, club: Club) -> None:
    standin.admins[GROUP.id] = [ALICE]  # the chat's admin: a club game (docs/club.md)
    calls = await club.act(club.say(GROUP, ALICE, "/kegeln high 2 Birgit Klaus"))
    intro, first = sent(calls, GROUP.id)  # the game's header, then the standings message
    assert first.method == "sendMessage" and "Birgit" in first.text
    assert [b["callback_data"] for b in first.buttons][-1].endswith(":n9")  # the pin pad (test_e2e_pinpad.py)
    message_id = first.result["message_id"]
    assert club.app is not None
    (row,) = await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))
    game = row.id

    # /wurf 7: the standings message, edited in place, now offers the free places and ↩️ Undo.
    calls = await club.act(club.say(GROUP, ALICE, "/wurf 7"))
    standings = with_button(sent(calls, GROUP.id), ":p1")
    assert standings.method == "editMessageText" and standings.params["message_id"] == message_id
    assert {b["callback_data"] for b in standings.buttons} == {f"g:{game}:p1", f"g:{game}:p0", f"g:{game}:undo"}

    # The tens button: the same message is edited in place.
    calls = await club.act(club.press(ALICE, standings, f"g:{game}:p1"))
    assert "text" not in answers(calls)[0]
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and edit.params["message_id"] == message_id
    assert "7_" in edit.text

    # One step with a German place letter (E = Einer): edited again.
    calls = await club.act(club.say(GROUP, ALICE, "/wurf 9 E"))
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and edit.params["message_id"] == message_id
    assert "_9" in edit.text

    # Round 2: one free place each, the throws go there at once.
    calls = await club.act(club.say(GROUP, ALICE, "/wurf 5"))
    (edit,) = sent(calls, GROUP.id)
    assert edit.method == "editMessageText" and "75" in edit.text
    calls = await club.act(club.say(GROUP, ALICE, "/wurf 3"))
    state = await load(club, game, kegeln_state)
    assert is_over(state)
    results = [c for c in sent(calls, GROUP.id) if c.method == "sendMessage"]
    assert results, "the result table is a message of its own"
    table = [c.text for c in results if not c.text.startswith("🎖")][-1]  # achievements may follow it
    assert any("Alle Neune" in c.text for c in results)  # Klaus's nine, announced once
    assert table.index("Birgit") < table.index("Klaus") and "75" in table and "39" in table
    assert not await club.app.store.seated_games("telegram", str(ALICE.id), str(GROUP.id))
    assert intro.result["message_id"] != message_id  # the header stays as it was
