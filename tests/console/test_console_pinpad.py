"""The scorer's pin pad on the console (the emulator): the standings show the pins 0–9 as buttons, then the
places; a throw is two clicks (`alice clicks b…`), typing stays possible, and another member's click changes
nothing."""

from __future__ import annotations

import io
import re
from pathlib import Path

from adapters.console.adapter import ConsoleAdapter
from bot.app.app import App

BUTTON = re.compile(r"\((b\d+)\) (\S+)")


def last_buttons(printed: str) -> dict[str, str]:
    """The last shown button line(s) of the standings: label -> button number."""
    lines = [ln for ln in printed.splitlines() if BUTTON.search(ln)]
    block: dict[str, str] = {}
    for line in lines[-3:]:
        block.update({label: number for number, label in BUTTON.findall(line)})
    return block


async def test_two_clicks_per_throw_on_the_console(tmp_path: Path) -> None:
    app = await App.open(str(tmp_path / "db.sqlite3"), seed=3)
    out = io.StringIO()
    console = ConsoleAdapter(app.handle, out=out)
    try:
        await console.feed("alice: /kegeln high 6 Anna Ben")
        pad = last_buttons(out.getvalue())
        assert [str(n) for n in range(10)] == [k for k in pad if k.isdigit()], pad
        await console.feed(f"alice clicks {pad['7']}")
        places = last_buttons(out.getvalue())
        assert "ones" in places and "tens" in places, places
        lines = [ln for ln in out.getvalue().splitlines() if BUTTON.search(ln)][-3:]
        assert [len(BUTTON.findall(ln)) for ln in lines] == [3, 3, 1]  # six places: two rows, then Undo
        mark = len(out.getvalue())
        await console.feed(f"alice clicks {places['ones']}")
        assert "Anna: 7 pins → ones." in out.getvalue()[mark:]
        assert "Anna _____7" in out.getvalue()[mark:]
        await console.feed("alice: /wurf 9 1")  # typing stays possible
        assert "Ben  _____9" in out.getvalue()
        pad = last_buttons(out.getvalue())
        mark = len(out.getvalue())
        await console.feed(f"bob clicks {pad['5']}")  # not the scorer
        assert "[@bob] Only the scorer alice" in out.getvalue()[mark:]  # told privately, nothing changed
        (row,) = [r for r in await app.store.chat_games("console", "#table") if r.kind == "kegeln"]
        assert row.state["pending"] is None and len(row.state["throws"]) == 2
    finally:
        await app.close()
