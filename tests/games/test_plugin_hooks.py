"""The traits and hooks through which the shared code reaches a game (issue 38: no game named outside its own
folders and the registry): each found on the registered plugins, and a game without them changes nothing."""

from __future__ import annotations

from typing import Any

from bot.games.plugin import GamePlugin, morning_poster, wins_game
from bot.games.registry import PLUGINS


class _Quiet(GamePlugin[Any]):
    """A game that declares none of the traits (a new game, by default)."""


def test_the_morning_post_is_the_daily_puzzle_s() -> None:
    assert morning_poster() == "daily" == PLUGINS["daily"].kind
    assert [k for k, p in PLUGINS.items() if p.posts_morning] == ["daily"]  # one game at most
    assert morning_poster({}) is None
    assert morning_poster({"quiet": _Quiet()}) is None


def test_the_wins_table_is_the_duel_s() -> None:
    assert wins_game() == "duel" == PLUGINS["duel"].kind
    assert [k for k, p in PLUGINS.items() if p.wins_table] == ["duel"]
    assert wins_game({"quiet": _Quiet()}) is None


async def test_a_game_without_bests_shows_none_in_stats() -> None:
    """/stats shows the bests every registered game reports (practice's, through its hook); a game without the hook
    reports none (the default reads nothing: it is handed no services here)."""
    assert await _Quiet().bests(None, "test", "ann") == []  # type: ignore[arg-type]
    assert [k for k, p in PLUGINS.items() if type(p).bests is not GamePlugin.bests] == ["practice"]


def test_the_solver_sees_each_game_through_its_plugin() -> None:
    """/analyse replays the games whose solver view analyses; the computer plays where its view is a ComputerView."""
    from core.solver.games import ComputerView

    assert [k for k, p in PLUGINS.items() if p.analysable] == ["practice", "duel", "logik"]
    assert [k for k, p in PLUGINS.items() if isinstance(p.solver, ComputerView)] == ["duel", "logik"]
    assert [k for k, p in PLUGINS.items() if p.computer_plays] == ["duel", "logik"]
    assert not _Quiet().analysable and _Quiet().solver is None
