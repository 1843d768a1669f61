"""End to end for the newer games through the real discord.py client on the stand-in Discord,
with the real App on a real SQLite file: a Logik duel (closed DMs → button → modal, rows typed
in the channel as digits and colour initials, the simultaneous reveal, the board picture as an
attachment) and one round of the word game.

Assertions are on structure: who got what, where, which secrets are absent from the channel,
that the picture is a PNG attachment. Secrets are fixed, the App is seeded.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app.app import App
from bot.solver import dictionary
from core import pegs, serial
from core.games.challenge import Phase
from core.games.logik import rules as logik
from core.games.words import state as words

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call
from .standin import StandIn

ALICE_ROW = "31758"  # Alice hides it, Bob cracks it
BOB_ROW = "62417"  # Bob hides it, Alice cracks it
WORD = "crane"
PNG = b"\x89PNG\r\n\x1a\n"


def row_pattern(code: str) -> re.Pattern[str]:
    """A Logik row as the bot shows it — each peg's colour symbol and digit, in order, whatever
    decoration (an initial, spaces) follows each peg, so a format change does not blind the test."""
    return re.compile(r"\S*\s*".join(re.escape(f"{pegs.BY_NUMBER[int(d)].symbol}{d}") for d in code))


def shows(text: str, code: str) -> bool:
    return row_pattern(code).search(text) is not None


async def load(app: App, game: int, module: Any) -> Any:
    row = await app.store.get_game(game)
    assert row is not None
    return serial.load(module.State, row.state)


def game_id_of(call: Call, verb: str) -> int:
    for cid in call.custom_ids():
        m = re.fullmatch(rf"~?g:(\d+):{verb}", cid)
        if m:
            return int(m.group(1))
    raise AssertionError(f"no {verb} button in {call.custom_ids()}")


def has_button(verb: str) -> Any:
    return lambda c: c.status < 300 and any(re.fullmatch(rf"~?g:\d+:{verb}", cid) for cid in c.custom_ids())


def rows_hidden(calls: list[Call], *codes: str) -> None:
    """None of `codes` is visible in these calls, neither as digits nor as pegs."""
    for call in calls:
        for code in codes:
            assert code not in call.text(), (call.method, call.path, call.content)
            assert not shows(call.text(), code), (call.method, call.path, call.content)


def said(c: Call) -> bool:
    """Any message the bot posted or edited (channel, DM or interaction reply), not an ack alone."""
    return c.status < 300 and c.method in ("POST", "PATCH") and bool(c.content or c.files or c.components)


async def act(standin: StandIn, do: Any, until: Any = said) -> list[Call]:
    """Do something as a user; wait for the bot's answer (`until`), then until it has gone
    quiet; the bot's calls since. Waiting for the answer first keeps a slow step (the first
    dictionary load, a busy machine) from being mistaken for silence."""
    mark = len(standin.calls)
    await do
    await standin.wait_for(until, after=mark, timeout=10.0)
    await standin.settle()
    return standin.calls[mark:]


def in_channel(standin: StandIn, calls: list[Call]) -> list[Call]:
    visible = standin.channel_calls()
    return [c for c in calls if c in visible and c.status < 300]


async def test_logik_duel_with_modal_secret_reveal_and_board_attachment(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", dms_closed=True)
    await make_adapter(app.handle, app.command_menu())

    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "logik", {"opponent": bob}),
                      has_button("accept"))
    (challenge,) = [c for c in in_channel(standin, calls) if has_button("accept")(c)]
    game = game_id_of(challenge, "accept")
    assert (await load(app, game, logik)).opponent.user_id == str(bob.id)

    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:accept")
    calls = await act(standin, standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept"),
                      has_button("secret"))
    assert (await load(app, game, logik)).phase is Phase.SECRETS
    # Alice: a DM with the 🎲 button. Bob (DMs closed): a channel button that opens a modal.
    assert any(f"g:{game}:random" in c.custom_ids() for c in standin.dms_to(alice))
    assert any(f"~g:{game}:secret" in c.custom_ids() for c in in_channel(standin, calls))

    # Alice's secret by DM as digits: confirmed in the DM only.
    calls = await act(standin, standin.say(None, alice, ALICE_ROW),
                      lambda c: said(c) and shows(c.content, ALICE_ROW))
    assert any(shows(c.content, ALICE_ROW) for c in standin.dms_to(alice))
    rows_hidden(in_channel(standin, calls), ALICE_ROW)

    # Bob's by the modal, as colour initials (P G Y R W = 62417), answered ephemerally.
    fb_mid, cid = standin.message_with_button(lambda c: c == f"~g:{game}:secret")
    token = await standin.press(CHANNEL_ID, bob, fb_mid, cid)
    modal = (await standin.answered(token))["modal"]
    assert modal and modal["custom_id"] == f"~g:{game}:secret"
    calls = await act(standin, standin.submit_modal(CHANNEL_ID, bob, modal, "PGYRW", message_id=fb_mid),
                      lambda c: said(c) and shows(c.content, BOB_ROW))
    mine = [c for c in calls if shows(c.content, BOB_ROW)]
    assert mine and all(c.ephemeral for c in mine)
    state = await load(app, game, logik)
    assert state.phase is Phase.PLAYING
    assert state.secrets == {str(alice.id): ALICE_ROW, str(bob.id): BOB_ROW}

    # Round 1: Alice's row (digits) is confirmed without anything revealed …
    calls = await act(standin, standin.say(CHANNEL_ID, alice, "12345"))
    replies = in_channel(standin, calls)
    assert replies and all(not shows(c.content, "12345") for c in replies)
    assert (await load(app, game, logik)).pending == {str(alice.id): "12345"}
    # … until Bob's row (initials r g b y k = 12348) is in: both results in one message.
    calls = await act(standin, standin.say(CHANNEL_ID, bob, "r g b y k"),
                      lambda c: said(c) and shows(c.content, "12345"))
    (reveal,) = [c for c in in_channel(standin, calls) if shows(c.content, "12345")]
    assert shows(reveal.content, "12348")
    state = await load(app, game, logik)
    assert not state.pending and [len(v) for v in state.rows.values()] == [1, 1]

    # /board: the text and the picture as a PNG attachment.
    calls = await act(standin, standin.slash(CHANNEL_ID, bob, "board"), lambda c: said(c) and bool(c.files))
    boards = [c for c in in_channel(standin, calls) if c.files]
    assert len(boards) == 1
    (name, data), = boards[0].files
    assert name == "board.png" and data.startswith(PNG)
    assert f"#{game}" in boards[0].content

    # Round 2: Alice cracks Bob's row — shown only when Bob's row is in too.
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "guess", {"code": BOB_ROW}))
    state = await load(app, game, logik)
    assert state.phase is Phase.PLAYING and state.pending == {str(alice.id): BOB_ROW}
    end_mark = len(standin.calls)
    rows_hidden(standin.channel_calls(), ALICE_ROW, BOB_ROW)  # nothing secret in the channel so far

    calls = await act(standin, standin.say(CHANNEL_ID, bob, "kkkkk"), has_button("rematch"))
    state = await load(app, game, logik)
    assert state.phase is Phase.FINISHED and state.winner == str(alice.id)
    final = [c for c in in_channel(standin, calls) if shows(c.content, ALICE_ROW)]
    assert final and shows(final[-1].content, BOB_ROW), "both secrets at the end"
    assert any(name == "board.png" and data.startswith(PNG)
               for c in in_channel(standin, calls) for name, data in c.files), "the end with the picture"
    assert any(has_button("rematch")(c) for c in in_channel(standin, calls))
    # Neither secret was in the channel before the end; the check sees them afterwards.
    before_end = [c for c in standin.calls[:end_mark] if c in standin.channel_calls()]
    rows_hidden(before_end, ALICE_ROW, BOB_ROW)
    with pytest.raises(AssertionError):
        rows_hidden(in_channel(standin, calls), ALICE_ROW)


async def test_word_game_one_round(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    dictionary.lexicon("en")  # built once per process (cached): not inside the first reply's 10 s wait on a busy CI
    users = [standin.add_user(n) for n in ("Alice", "Bob", "Dave")]
    alice, bob, dave = users
    await make_adapter(app.handle, app.command_menu())

    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "words", {"options": "length 5"}),
                      has_button("join"))
    (lobby,) = [c for c in in_channel(standin, calls) if has_button("join")(c)]
    game = game_id_of(lobby, "join")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:join")
    await act(standin, standin.press(CHANNEL_ID, bob, mid, f"g:{game}:join"))
    await act(standin, standin.slash(CHANNEL_ID, dave, "join"))
    state = await load(app, game, words)
    assert {p.user_id for p in state.players} == {str(u.id) for u in users}

    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "begin"), has_button("random"))
    state = await load(app, game, words)
    assert state.phase is words.Phase.SETTING
    by_id = {str(u.id): u for u in users}
    setter = by_id[state.setter]
    assert any(has_button("random")(c) for c in standin.dms_to(setter))
    assert not [c for u in users if u is not setter for c in standin.dms_to(u)]

    calls = await act(standin, standin.say(None, setter, WORD), lambda c: said(c) and WORD in c.content)
    assert any(WORD in c.content for c in standin.dms_to(setter))
    state = await load(app, game, words)
    assert state.secret == WORD
    first = by_id[state.turn]
    second = next(u for u in users if u is not setter and u is not first)

    calls = await act(standin, standin.say(CHANNEL_ID, first, "qqqqq"))  # not a word: refused
    assert in_channel(standin, calls) or any(c.ephemeral for c in calls)
    state = await load(app, game, words)
    assert state.turn == str(first.id) and not state.tries
    calls = await act(standin, standin.say(CHANNEL_ID, first, "slate"),
                      lambda c: said(c) and "slate" in c.content)
    assert any("slate" in c.content for c in in_channel(standin, calls))
    assert (await load(app, game, words)).turn == str(second.id)
    before = list(standin.channel_calls())

    calls = await act(standin, standin.slash(CHANNEL_ID, second, "guess", {"code": WORD}),
                      lambda c: said(c) and WORD in c.content)
    assert any(WORD in c.content for c in in_channel(standin, calls))
    state = await load(app, game, words)
    assert state.points.get(str(second.id)) == 1 and state.setter == str(second.id)
    assert state.phase is words.Phase.SETTING and len(state.rounds) == 1
    for call in before:
        assert WORD not in call.text().lower(), (call.method, call.path, call.content)
