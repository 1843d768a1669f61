"""/rating through the real `python -m bot` console process: the chart is written to a file (like
/kegelstats) and its path printed, beside the rating line; /stats shows the rating."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.console.test_console_process import play


def test_console_rating_chart_is_a_file(tmp_path: Path) -> None:
    script = "\n".join(["alice: /kegeln high 2 Anna Ben", "alice: /wurf 7 T", "alice: /wurf 3 T", "alice: /wurf 0",
                        "alice: /wurf 5", "bob: /rating kegeln anna", "bob: /top kegeln"]) + "\n"
    out = play(tmp_path / "db.sqlite3", script, "--admin", "alice")  # a chat admin's game: a club game
    assert "🏆 Winner: Anna" in out
    line = next(x for x in out.splitlines() if "📈 Anna — Hausnummern:" in x)
    assert "(1 game" not in line and ", 1 game · ↑" in line, out
    path = Path(out.split(line)[1].splitlines()[1].strip())
    assert path.suffix == ".png" and path.is_file(), out
    assert Image.open(path).size == (720, 400)
    assert "1. Anna —" in out and "2. Ben —" in out
