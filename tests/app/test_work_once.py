"""Work done once (issue 38), counted through the real App on a real SQLite file: what a plain message in a
group asks of the games, what a guess computes of the secret prompts, and what a refused move costs."""

from __future__ import annotations

from typing import Any

import pytest

import bot.app.routing
import core.codes
import core.games.base
from bot.games.plugin import GAMES
from tests.app.harness import Table, texts
from tests.app.test_duel_flow import start_duel


def counting(monkeypatch: pytest.MonkeyPatch, kind: str, name: str) -> list[Any]:
    """Every call of the game's method `name` (its arguments); the method (or what the tests' conftest has
    wrapped it in) still does its work."""
    game = GAMES[kind]
    real = getattr(game, name)
    calls: list[Any] = []

    def counted(*args: Any) -> Any:
        calls.append(args)
        return real(*args)
    monkeypatch.setattr(game, name, counted)
    return calls


async def test_a_plain_group_message_is_read_once_not_once_per_game(table: Table,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    real = core.codes.looks_like_code
    calls: list[str] = []

    def counted(text: str) -> bool:
        calls.append(text)
        return real(text)
    for module in (core.codes, core.games.base, bot.app.routing):  # wherever it is called from
        monkeypatch.setattr(module, "looks_like_code", counted, raising=False)
    assert len(GAMES) >= 6
    r = await table.say("alice", "hello there")
    assert not r.messages and calls == ["hello there"]  # it was once per registered game


async def test_a_guess_computes_the_secret_prompt_once(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    _gid, first, second = await start_duel(table)
    calls = counting(monkeypatch, "duel", "secret_prompt")
    r = await table.say(first, "9012")
    assert "9012" in texts(r)
    assert [user for _game, _state, user in calls] == [first]  # it was 3: the guesser's and both players' again
    # a secret still asks privately, and only there is the prompt looked at again
    calls.clear()
    await table.say(second, "9013")
    assert len(calls) == 1


async def test_a_refused_move_is_judged_once(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    _gid, first, second = await start_duel(table)
    applied = counting(monkeypatch, "duel", "apply")
    reads: list[int] = []
    real_get = table.app.store.get_game

    async def get_game(game_id: int) -> Any:
        reads.append(game_id)
        return await real_get(game_id)
    monkeypatch.setattr(table.app.store, "get_game", get_game)
    r = await table.say(second, "9012")  # not their turn: the rules refuse it
    assert f"It is {first.capitalize()}'s turn" in texts(r)
    assert len(applied) == 1  # it was applied twice, the second time to the same state read again
    assert len(reads) == 1  # the one read that tells a stale row (another move got in) from a current one


def test_the_command_line_lists_the_languages_without_parsing_the_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up parses each catalog file once (the five shared ones and each game's and the club's five), for the
    App (it parsed them a first time for `--lang`'s help)."""
    import bot.__main__
    import bot.texts.i18n

    loads: list[Any] = []
    parser = vars(bot.texts.i18n)["tomllib"]  # tomllib, or the tests' once-per-file parser (tests/conftest.py)
    real = parser.load

    def load(f: Any) -> Any:
        loads.append(f)
        return real(f)
    monkeypatch.setattr(parser, "load", load)
    bot.__main__.parse_args(["--console"])
    assert loads == []
    assert bot.texts.i18n.languages() == bot.texts.i18n.Catalogs().languages == ["bg", "de", "en", "ru", "sv"]
    assert len(loads) == len({f.name for f in loads}) == 5 * (1 + len(bot.texts.i18n.shipped_owners()))
