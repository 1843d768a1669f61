"""The font of every picture the bot draws (Kegel charts, the rating chart, Logik boards).

Roboto (the `font-roboto` package, Apache License 2.0) covers Latin, Latin-extended (åäö, Žž, ő),
Greek and Cyrillic, so a club's names ("Клаус", "Åsa", "Žižek") are drawn as letters — Pillow's
bundled default font (`ImageFont.load_default()`) has ASCII only and draws every other letter as a
box. The only I/O here is reading the font file, once per size.

What Roboto cannot draw (emoji, CJK, arrows such as → or ▲) is left out of the text by `drawable`
instead of being drawn as a box; a name with nothing drawable left is drawn as "?". Pictures draw
symbols they need (the ▲/▼ of the wins panel) as shapes, and their captions avoid such characters.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import ImageFont

FONTS = resources.files("font_roboto") / "files"
REGULAR = "Roboto-Regular.ttf"
BOLD = "Roboto-Bold.ttf"
_NOT_A_CHARACTER = "\U0010fffd"  # a private-use code point no font has: its mask is the missing glyph's


@cache
def font(size: int = 13, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto (regular or bold) at `size` pixels."""
    return ImageFont.truetype(io.BytesIO((FONTS / (BOLD if bold else REGULAR)).read_bytes()), size)


@cache
def _missing_glyph(size: int, bold: bool) -> bytes:
    return bytes(font(size, bold).getmask(_NOT_A_CHARACTER))


@cache
def has_glyph(ch: str, size: int = 13, bold: bool = False) -> bool:
    """Whether the font draws `ch` as itself (not the missing-glyph box). Spacing counts as drawn."""
    if ch.isspace():
        return True
    return bytes(font(size, bold).getmask(ch)) != _missing_glyph(size, bold)


def missing(text: str, size: int = 13, bold: bool = False) -> str:
    """The characters of `text` the font cannot draw, in order, each once."""
    return "".join(dict.fromkeys(ch for ch in text if not has_glyph(ch, size, bold)))


def drawable(text: str, size: int = 13, bold: bool = False) -> str:
    """`text` without the characters the font cannot draw (emoji, CJK, …), spaces tidied up; "?"
    when nothing drawable is left (a name of emoji only)."""
    kept = "".join(ch if has_glyph(ch, size, bold) else " " for ch in text)
    return " ".join(kept.split()) or ("?" if text.strip() else "")


def fit(text: str, width: float, size: int = 13, bold: bool = False) -> str:
    """`drawable(text)` cut with "…" to at most `width` pixels."""
    text = drawable(text, size, bold)
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, width: float, size: int = 13, bold: bool = False) -> list[str]:
    """`drawable(text)` broken at spaces into lines of at most `width` pixels (a longer word is cut)."""
    f = font(size, bold)
    lines: list[str] = []
    line = ""
    for word in drawable(text, size, bold).split(" "):
        candidate = f"{line} {word}" if line else word
        if f.getlength(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line or not lines:
        lines.append(line)
    return [fit(ln, width, size, bold) for ln in lines]
