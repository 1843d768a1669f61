"""The console never overwrites a picture of an earlier run: after a restart (a new adapter over the
same folder, its numbering of buttons starting again) new pictures get new file names. The real App
over a real SQLite file, through the console adapter."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console import ConsoleAdapter
from bot.app.app import App


async def run(db: Path, boards: Path, lines: list[str]) -> str:
    app = await App.open(str(db), seed=1)
    out = io.StringIO()
    try:
        console = ConsoleAdapter(app.handle, out=out, image_dir=boards, admins=("alice",))  # a club game
        for line in lines:
            await console.feed(line)
    finally:
        await app.close()
    return out.getvalue()


def pictures(out: str) -> list[Path]:
    return [Path(line.strip()) for line in out.splitlines() if line.strip().endswith(".png")]


async def test_pictures_after_a_restart_get_new_names(tmp_path: Path) -> None:
    db, boards = tmp_path / "db.sqlite3", tmp_path / "boards"
    await run(db, boards, ["alice: /kegeln high 2 Anna Ben", "alice: /wurf 7 10", "alice: /wurf 3 10",
                           "alice: /wurf 2 1", "alice: /wurf 5 1"])
    first = pictures(await run(db, boards, ["bob: /kegelstats"]))  # each run's first picture: b… numbering anew
    assert len(first) == 1 and first[0].is_file()
    kept = first[0].read_bytes()
    second = pictures(await run(db, boards, ["bob: /kegelstats Anna"]))
    assert len(second) == 1 and second != first, (first, second)
    assert first[0].read_bytes() == kept  # the earlier run's picture is still there, unchanged
    assert second[0].read_bytes() != kept and len(list(boards.glob("board-*.png"))) == 2
