"""The Logik board as a PNG picture (Pillow): a pure function of the state.

Two boards side by side, white's on the left, black's on the right. Each board shows its
player's rows top down: the row number, five pegs in colour with their number on them (so
the colours are told apart without colour vision), and the feedback pegs, black first.
Above the rows sits the code this player is cracking, covered until the game is over.
No words, so the picture needs no translation; names are drawn in the font of core/pictures.py
(Latin, Latin-extended, Cyrillic; what it cannot draw, such as emoji, is left out).
"""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from core import pictures
from core.games.base import Player
from core.games.challenge import Phase, other
from core.games.logik.rules import State, by_side
from core.pegs import BY_NUMBER, PEGS

BOARD_W = 320
HEADER_H = 40
SECRET_H = 48
ROW_H = 40
BOTTOM = 12
PEG_R = 14
PEG_STEP = 36
PEG_X0 = 56  # centre of the first peg, from the board's left edge
KEY_R = 6
KEY_STEP = 16
KEY_X0 = PEG_X0 + 4 * PEG_STEP + PEG_R + 18

BACKGROUND = (196, 164, 120)
DIVIDER = (90, 62, 38)
HOLE = (120, 88, 58)
COVER = (60, 42, 28)
KEY_BLACK = (0, 0, 0)
KEY_WHITE = (255, 255, 255)
INK = (30, 20, 10)


def size(state: State) -> tuple[int, int]:
    return 2 * BOARD_W, HEADER_H + SECRET_H + state.rows_max * ROW_H + BOTTOM


def peg_centre(board: int, row: int | None, col: int) -> tuple[int, int]:
    """Where peg `col` (0–4) of `row` (1-based; None: the secret row) of board 0 (white) or 1 sits."""
    x = board * BOARD_W + PEG_X0 + col * PEG_STEP
    y = HEADER_H + SECRET_H // 2 if row is None else HEADER_H + SECRET_H + (row - 1) * ROW_H + ROW_H // 2
    return x, y


def key_centre(board: int, row: int, k: int) -> tuple[int, int]:
    """Where feedback peg `k` (0–4) of `row` of a board sits."""
    _, y = peg_centre(board, row, 0)
    return board * BOARD_W + KEY_X0 + k * KEY_STEP, y


def _ink_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = rgb
    return (0, 0, 0) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (255, 255, 255)


def _circle(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, fill: tuple[int, int, int],
            outline: tuple[int, int, int] | None = None) -> None:
    x, y = centre
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline)


SPRITE_R = PEG_R + 2  # a peg's or a row number's square, around its centre, on the board's background


@cache
def _sprite(digit: str, peg: bool) -> Image.Image:
    """A peg with its digit (or a row number alone), drawn once on the background and pasted: drawing
    text in a TrueType font is the costly part of a board, and it is the same few stamps every time."""
    side = 2 * SPRITE_R + 1
    tile = Image.new("RGB", (side, side), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    centre = (SPRITE_R, SPRITE_R)
    ink = INK
    if peg:
        colour = BY_NUMBER[int(digit)].rgb
        _circle(draw, centre, PEG_R, colour, outline=INK)
        ink = _ink_on(colour)
    draw.text(centre, digit, fill=ink, font=pictures.font(14), anchor="mm")
    return tile


def _stamp(image: Image.Image, centre: tuple[int, int], digit: str, peg: bool) -> None:
    x, y = centre
    image.paste(_sprite(digit, peg), (x - SPRITE_R, y - SPRITE_R))


def _peg(image: Image.Image, centre: tuple[int, int], digit: str) -> None:
    _stamp(image, centre, digit, True)


def _board(image: Image.Image, state: State, index: int, p: Player) -> None:
    draw = ImageDraw.Draw(image)
    x0 = index * BOARD_W
    # header: the side's disc and the player's name
    disc = KEY_WHITE if p.user_id == state.white else KEY_BLACK
    _circle(draw, (x0 + 20, HEADER_H // 2), 10, disc, outline=INK)
    draw.text((x0 + 38, HEADER_H // 2), pictures.fit(p.name, BOARD_W - 48, 18), fill=INK,
              font=pictures.font(18), anchor="lm")
    # the code this player cracks: covered until the end
    target = state.secrets.get(other(state, p.user_id).user_id) if state.opponent else None
    if state.phase is Phase.FINISHED and target:
        for col, digit in enumerate(target):
            _peg(image, peg_centre(index, None, col), digit)
    else:
        left, y = peg_centre(index, None, 0)
        right, _ = peg_centre(index, None, PEGS - 1)
        draw.rectangle((left - PEG_R - 4, y - PEG_R - 4, right + PEG_R + 4, y + PEG_R + 4), fill=COVER)
    draw.line((x0 + 8, HEADER_H + SECRET_H - 2, x0 + BOARD_W - 8, HEADER_H + SECRET_H - 2), fill=DIVIDER, width=2)
    rows = state.rows.get(p.user_id, [])
    for r in range(1, state.rows_max + 1):
        _, y = peg_centre(index, r, 0)
        _stamp(image, (x0 + 18, y), str(r), False)
        row = rows[r - 1] if r <= len(rows) else None
        for col in range(PEGS):
            centre = peg_centre(index, r, col)
            if row is None:
                _circle(draw, centre, 5, HOLE)
            else:
                _peg(image, centre, row.code[col])
        keys = [KEY_BLACK] * row.black + [KEY_WHITE] * row.white if row else []
        for k in range(PEGS):
            if k < len(keys):
                _circle(draw, key_centre(index, r, k), KEY_R, keys[k], outline=INK)
            else:
                _circle(draw, key_centre(index, r, k), 3, HOLE)


def render(state: State) -> bytes:
    """Both boards as PNG bytes: same state, same bytes."""
    image = Image.new("RGB", size(state), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.line((BOARD_W, 0, BOARD_W, image.height), fill=DIVIDER, width=3)
    for index, p in enumerate(by_side(state)):
        _board(image, state, index, p)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
