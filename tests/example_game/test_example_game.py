"""A new game is one package plus one registry entry: higher or lower (tests/example_game/), which
exists only here, is registered at run time (its texts found beside its plugin, tests/example_game/texts/),
and played through the console adapter against the real App and a real SQLite file or PostgreSQL
database — with no edit to the App, the stores or an adapter. Its best games go into a table of its own, made by its own
migrations (tests/example_game/storage.py) and written in the move's transaction."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from adapters.console.adapter import GROUP, ConsoleAdapter
from bot.app.app import App
from bot.games import registry as plugins
from tests import leakscan
from tests.example_game import plugin, rules, storage

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def hilo_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one registry entry (undone after the test): the plugin, which carries its game; and the leak
    guard's watch on its moves."""
    monkeypatch.setitem(plugins.PLUGINS, plugin.PLUGIN.kind, plugin.PLUGIN)
    monkeypatch.setattr(rules.GAME, "apply", leakscan._watch_apply(rules.GAME))


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file, or a fresh PostgreSQL database (skipped without a server)."""
    return str(tmp_path / "bot.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


async def test_higher_or_lower_is_played_through_the_console(tmp_path: Path, db: str, hilo_registered: None) -> None:
    app = await App.open(db, seed=7)  # its texts come from tests/example_game/texts/, found through the registry
    out = io.StringIO()
    console = ConsoleAdapter(app.handle, out=out, image_dir=tmp_path / "boards")
    try:
        def said() -> str:
            text = out.getvalue()
            out.seek(0)
            out.truncate()
            return text

        await console.feed("ann: /hilo")
        assert "ann: I think of a number from 1 to 100. Guess!" in said()
        await console.feed("ann: 500")  # the game's own coded error, in the catalog it brought
        assert "Guess a whole number from 1 to 100." in said()
        low, high, tries = 1, 100, 0
        while True:
            guess = (low + high) // 2
            await console.feed(f"ann: {guess}")
            tries += 1
            reply = said()
            if "found" in reply:
                assert f"ann found {guess} in {tries} tries!" in reply
                break
            if "higher" in reply:
                low = guess + 1
            else:
                assert "lower" in reply, reply
                high = guess - 1
            assert tries < 8  # a binary search over 100 numbers
        await console.feed("ann: /stats")  # the result went into the statistics like any game's
        assert "hilo: 1 · 1/0/0" in said()
        row = await app.store.last_game(GROUP.platform, GROUP.chat_id, "ann")
        assert row is not None and row.kind == "hilo" and row.over
        # its own table, written with the winning move
        assert await storage.best(app.store, GROUP.platform, GROUP.chat_id, "ann") == storage.Best(tries, row.id)
    finally:
        await app.close()


def test_its_table_needs_no_edit_to_the_store() -> None:
    """The store, its migrations and its queries name neither the game nor its table."""
    for path in sorted((ROOT / "bot" / "storage").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "hilo" not in text, path


def test_its_game_is_found_through_its_plugin(hilo_registered: None) -> None:
    assert plugins.GAMES["hilo"] is rules.GAME and plugin.PLUGIN.kind == rules.GAME.kind == "hilo"


async def test_its_command_is_unknown_without_the_registry_line(tmp_path: Path) -> None:
    app = await App.open(str(tmp_path / "bot.db"), seed=7)
    out = io.StringIO()
    try:
        await ConsoleAdapter(app.handle, out=out).feed("ann: /hilo")
        assert "/hilo" in out.getvalue() and "I think of a number" not in out.getvalue()
    finally:
        await app.close()
