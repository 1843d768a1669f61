"""The suite-wide leak guard (tests/leakscan.py) must be able to fail: planted leaks are found."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from core.games.duel import presenter as duel_presenter
from core.games.duel import rules as duel
from core.games.duel.game import Duel
from core.games.logik import presenter as logik_presenter
from core.messages import Actor, Button, Chat, Message, Text
from tests import leakscan
from tests.app.conftest import app, clock, db, table  # noqa: F401
from tests.app.harness import Table
from tests.app.test_duel_flow import start_duel, target
from tests.leakscan import Ledger

GROUP = Chat("test", "g", private=False)
PRIVATE = Chat("test", "dm", private=True)
ALICE = Actor("test", "alice", "Alice")


class Held:
    """A state with secrets, as the games keep them."""

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)


def found(ledger: Ledger) -> list[str]:
    leaks, ledger.leaks = ledger.leaks, []  # taken, so the test itself is not failed for them
    return leaks


def test_a_live_secret_in_a_group_message_is_a_leak_until_revealed() -> None:
    ledger = Ledger()
    ledger.learn(Held(secrets={"alice": "0246", "bob": "1357"}))
    shown = Message(GROUP, Text("duel.some", {"who": "Alice", "code": "0246"}))
    ledger.scan_messages([shown], "test")
    assert found(ledger) == ["secret '0246' shown in group g (test): duel.some"]
    ledger.scan_messages([Message(PRIVATE, shown.text), Message(ALICE, shown.text)], "test")
    assert found(ledger) == []  # privately: fine
    ledger.scan_messages([Message(GROUP, Text("duel.some", {"code": "02467"}))], "test")
    assert found(ledger) == []  # another code that merely contains it
    ledger.reveal({"0246"})
    ledger.scan_messages([shown], "test")
    assert found(ledger) == []


def test_buttons_fallbacks_nested_texts_and_logik_pegs_are_searched() -> None:
    ledger = Ledger()
    ledger.learn(Held(secret="crane"))
    ledger.learn(Held(secrets={"alice": "31758"}))
    button = Button(Text("button.x", {"w": "CRANE"}), "g:1:x")
    fallback = Message(GROUP, Text("words.a", {"inner": Text("words.b", {"w": ["crane"]})}))
    ledger.scan_messages([Message(GROUP, Text("words.c"), buttons=((button,),)),
                          Message(ALICE, Text("words.d"), fallback=fallback),
                          Message(GROUP, Text("logik.row", {"pegs": logik_presenter.pegs("31758")}))], "test")
    assert len(found(ledger)) == 3


def test_secrets_and_tokens_in_log_records_are_leaks() -> None:
    ledger = Ledger()
    ledger.learn(Held(secret="crane"))
    ledger.tokens.add("123456:ABCDEFGH-secret")
    for text in ("move by alice: crane", "GET /bot123456:ABCDEFGH-secret/getMe", "game 7 handled in 1.2 ms"):
        ledger.records.append(logging.LogRecord("bot.x", logging.INFO, __file__, 1, text, None, None))
    ledger.scan_logs()
    assert len(found(ledger)) == 2


async def test_the_guard_catches_a_game_that_shows_a_secret_in_the_group(
    table: Table, monkeypatch: pytest.MonkeyPatch, _no_leaks: Ledger,  # noqa: F811
    _no_raw_texts: list[logging.LogRecord],
) -> None:
    """A planted bug — the duel announces a secret in the group — is reported by the guard the
    whole suite runs under (the real App, real SQLite)."""
    real_present = duel_presenter.present

    def careless(game_id: int, state: duel.State, events: list[Any], chat: Chat) -> list[Message]:
        messages = real_present(game_id, state, events, chat)
        if any(e.type == "started" for e in events):
            messages.append(Message(chat, Text("duel.oops", {"codes": sorted(state.secrets.values())})))
        return messages

    monkeypatch.setattr(Duel, "present", staticmethod(careless))  # the presenter the game's class binds
    _gid, first, _second = await start_duel(table, "0246", "1357")
    assert found(_no_leaks) == ["secret '0246' shown in group group-1 (answer to a message): duel.oops",
                                "secret '1357' shown in group group-1 (answer to a message): duel.oops"]
    await table.say(first, target(first, "0246", "1357")[first])  # cracked: from now on public
    assert found(_no_leaks) == []
    # the planted text has no catalog entry: the raw-text guard (tests/textguard.py) saw it too
    assert {r.getMessage() for r in _no_raw_texts} == {"no catalog text for duel.oops"}
    _no_raw_texts.clear()


def test_a_bot_process_log_is_scanned_for_its_private_inputs_and_tokens(_no_leaks: Ledger) -> None:
    script = "alice: /duel bob\nbob: /accept\nalice> 0246\nbob> random\nbob> кошка\n"
    leakscan.bot_process("INFO bot.app.app: console chat=g user=alice text -> setsecret:1 (0.4 ms)\n", script=script,
                         tokens=["123456:ABCDEFGH-secret"])
    assert set(_no_leaks.secrets) == {"0246", "кошка"}  # `random` is a choice, not a secret
    leakscan.bot_process("DEBUG x: got 0246 from alice\nDEBUG x: GET /bot123456:ABCDEFGH-secret/getMe\n")
    _no_leaks.scan_logs()
    _no_leaks.records.clear()  # planted: not to be found again at teardown
    assert len(found(_no_leaks)) == 2


def test_a_log_line_time_is_not_a_code(_no_leaks: Ledger) -> None:
    """`19:10:15,012` in front of a bot process's log line is its time, not the private code 012; the
    same code in the message itself still is a leak."""
    leakscan.bot_process("2026-11-30 19:10:15,012 INFO bot.app.app: console chat=g user=alice text -> ok\n",
                         script="alice> 012\n")
    _no_leaks.scan_logs()
    assert found(_no_leaks) == []
    leakscan.bot_process("2026-11-30 19:10:16,500 DEBUG x: got 012 from alice\n")
    _no_leaks.scan_logs()
    _no_leaks.records.clear()
    assert len(found(_no_leaks)) == 1
