"""The board picture: a real PNG of the right size whose pixels show the pegs, keys and secrets."""

from __future__ import annotations

import io

from PIL import Image

from core import pegs
from core.games.actions import Accept, Guess, SetSecret
from core.games.logik import picture as logik_picture
from core.games.logik import rules as logik
from core.games.logik.picture import COVER, HOLE, KEY_BLACK, KEY_WHITE, key_centre, peg_centre, render
from tests.games.logik.common import LETTERS, A, B, ctx, playing, round_


def image(s: logik.State) -> Image.Image:
    data = render(s)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def peg_colour(img: Image.Image, board: int, row: int | None, col: int) -> tuple[int, int, int]:
    x, y = peg_centre(board, row, col)
    pixel = img.getpixel((x, y - 10))  # above the number printed on the peg
    assert isinstance(pixel, tuple) and len(pixel) == 3
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))


def colour(n: str) -> tuple[int, int, int]:
    return pegs.BY_NUMBER[int(n)].rgb


def test_empty_board() -> None:
    s, _ = logik.new(A, B, 12, LETTERS, ctx())
    s, _ = logik.apply(s, Accept("Bob"), "b", ctx())
    img = image(s)
    assert img.size == logik_picture.size(s) == (640, 40 + 48 + 12 * 40 + 12)
    for board in (0, 1):
        assert img.getpixel(peg_centre(board, None, 2)) == COVER  # secrets covered
        assert img.getpixel(peg_centre(board, 1, 0)) == HOLE and img.getpixel(peg_centre(board, 12, 4)) == HOLE
        assert img.getpixel(key_centre(board, 1, 0)) == HOLE


def test_mid_game_board_shows_rows_and_keys_but_no_secret_and_no_pending_row() -> None:
    s = playing("12345", "67812")
    s, _ = round_(s, "11223", "44556")
    s, _ = logik.apply(s, Guess("77888"), "a", ctx())  # pending: not drawn
    img = image(s)
    assert img.size == (640, 40 + 48 + 10 * 40 + 12)
    for col, n in enumerate("11223"):
        assert peg_colour(img, 0, 1, col) == colour(n)
    for col, n in enumerate("44556"):
        assert peg_colour(img, 1, 1, col) == colour(n)
    # Alice's 11223 against 67812: 0 black, 2 white; Bob's 44556 against 12345: 0 black, 2 white (one 4, one 5)
    assert [img.getpixel(key_centre(0, 1, k)) for k in range(3)] == [KEY_WHITE, KEY_WHITE, HOLE]
    assert [img.getpixel(key_centre(1, 1, k)) for k in range(3)] == [KEY_WHITE] * 2 + [HOLE]
    assert img.getpixel(peg_centre(0, 2, 0)) == HOLE  # the pending row stays hidden
    assert img.getpixel(peg_centre(0, None, 0)) == COVER and img.getpixel(peg_centre(1, None, 4)) == COVER


def test_finished_board_reveals_both_secrets_and_black_keys_come_first() -> None:
    s = playing("12345", "67812")
    s, _ = round_(s, "77888", "12345")  # Alice: 2 black; Bob cracks
    img = image(s)
    for col, n in enumerate("67812"):  # white's board: the code Alice cracked, Bob's secret
        assert peg_colour(img, 0, None, col) == colour(n)
    for col, n in enumerate("12345"):
        assert peg_colour(img, 1, None, col) == colour(n)
    assert [img.getpixel(key_centre(0, 1, k)) for k in range(3)] == [KEY_BLACK, KEY_BLACK, HOLE]
    assert [img.getpixel(key_centre(1, 1, k)) for k in range(5)] == [KEY_BLACK] * 5


def test_rematch_puts_the_new_white_on_the_left_and_rendering_is_pure() -> None:
    s = playing("12345", "67812")
    s, _ = round_(s, "77888", "12345")
    r, _ = logik.rematch(s, "a", ctx())
    r, _ = logik.apply(r, Accept("Bob"), "b", ctx())
    r, _ = logik.apply(r, SetSecret("11111"), "a", ctx())
    r, _ = logik.apply(r, SetSecret("22222"), "b", ctx())
    r, _ = round_(r, "33333", "44444")  # Alice 33333 → board of Alice is now on the right
    img = image(r)
    assert peg_colour(img, 1, 1, 0) == colour("3") and peg_colour(img, 0, 1, 0) == colour("4")
    assert render(r) == render(r)
