"""Benchmark: drawing the pictures — a Logik board (after every Logik round) and the Kegel club chart
(/kegelstats, /saison), in milliseconds per PNG, with the share the PNG encoding takes.

    python -m bench.pictures [--n 50]

Measured on 2026-11-30 (2-core machine), a Logik board of 8 rows a side / the Kegel club chart:
Pillow's bitmap font 10.8 / 13.0 ms; Roboto (so that Cyrillic and åäö names are drawn) 21.6 / 18.5
ms, most of it the 80 digits drawn in that font; each peg drawn once and pasted (the same pixels)
9.9 / 17.9 ms, of which the PNG encoding is 8.4 / 9.2 ms.
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable

from PIL import Image

from core.club.chart import club_chart
from core.games.actions import Accept
from core.games.base import Ctx, Player
from core.games.logik import picture
from core.games.logik import rules as logik
from core.games.logik.rules import Row

WHITE, BLACK = Player("w", "Alice"), Player("b", "Борис")


def board(rows: int) -> logik.State:
    """A Logik game with `rows` revealed rows a side."""
    rnd = random.Random(rows)
    ctx = Ctx(0.0, random.Random(1))
    state, _ = logik.new(WHITE, BLACK, 12, {}, ctx)
    state, _ = logik.apply(state, Accept(BLACK.name), BLACK.user_id, ctx)
    for p in (WHITE, BLACK):
        state.rows[p.user_id] = [Row("".join(rnd.choice("12345678") for _ in range(5)), 1, 2) for _ in range(rows)]
    return state


def timed(draw: Callable[[], bytes], n: int) -> tuple[float, float, int]:
    """(ms per picture, ms of it for the PNG encoding, bytes)."""
    png = draw()
    start = time.perf_counter()
    for _ in range(n):
        png = draw()
    total = (time.perf_counter() - start) / n * 1000
    image = Image.open(io.BytesIO(png))
    image.load()
    start = time.perf_counter()
    for _ in range(n):
        image.save(io.BytesIO(), format="PNG", optimize=False)
    return total, (time.perf_counter() - start) / n * 1000, len(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50, help="pictures drawn per line")
    n = parser.parse_args().n
    series = [(f"Member {i}", [float((i + d) % 9) for d in range(12)]) for i in range(8)]
    cases: list[tuple[str, Callable[[], bytes]]] = [
        ("Logik board, no rows", lambda: picture.render(board(0))),
        ("Logik board, 8 rows a side", lambda: picture.render(board(8))),
        ("Logik board, 12 rows a side", lambda: picture.render(board(12))),
        ("Kegel club chart, 8 members x 12 evenings",
         lambda: club_chart(series, [f"{d}.1." for d in range(1, 13)], [(i, i % 3) for i in range(8)])),
    ]
    print(f"{'picture':44} {'ms':>7} {'PNG ms':>7} {'KiB':>6}")
    for name, draw in cases:
        ms, png_ms, size = timed(draw, n)
        print(f"{name:44} {ms:7.2f} {png_ms:7.2f} {size / 1024:6.1f}")


if __name__ == "__main__":
    main()
