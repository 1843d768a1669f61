"""The season chart (/saison) and the year-in-review picture (/jahresrueckblick) through the App on
SQLite, in all five languages, for a club with Cyrillic and Swedish names: real PNGs of the expected
size whose titles, legends and recap card are drawn in the chat's language, letter for letter — each
checked against the same words drawn alone in the pictures' font, whose glyphs are real (not the
missing-glyph box)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.texts.i18n import Catalogs
from core import pictures
from core.club.chart import BACKGROUND, CARD, LEGEND_W, PLOT_TOP, TITLE_BAND, TITLE_SIZE, TITLE_Y, Y_CAPTION
from core.messages import Response, Text
from tests.app.conftest import Clock
from tests.app.harness import Table, texts
from tests.club.test_season import at, game

NAMES = ("Клаус", "Борис", "Åsa")
LANGS = ("en", "de", "ru", "bg", "sv")
WIDTH = 720


def picture(r: Response) -> Image.Image:
    (data,) = [m.image for m in r.messages if m.image]
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    return img.convert("RGB")


def drawn_alone(text: str, size: tuple[int, int], xy: tuple[int, int], bg: tuple[int, int, int],
                font_size: int, bold: bool, width: float) -> bytes:
    img = Image.new("RGB", size, bg)
    ImageDraw.Draw(img).text(xy, pictures.fit(text, width, font_size, bold), fill=(60, 60, 60),
                             font=pictures.font(font_size, bold))
    return img.tobytes()


def has_title(img: Image.Image, y: int, title: str) -> bool:
    """The panel starting at `y` carries `title` (and nothing else) in its title band."""
    assert pictures.missing(title, TITLE_SIZE, bold=True) == "", title  # every letter a real glyph
    band = img.crop((0, y, WIDTH, y + TITLE_BAND)).tobytes()
    return band == drawn_alone(title, (WIDTH, TITLE_BAND), (12, TITLE_Y), BACKGROUND, TITLE_SIZE, True, WIDTH - 24)


def legend_names(img: Image.Image, top: int, n: int) -> set[str]:
    """The names drawn in the first `n` legend rows of the line panel whose plot starts at `top`."""
    found = set()
    for k in range(n):  # rows 2–15 of each 18-pixel legend row (the ring of an Å below reaches up)
        box = (WIDTH - LEGEND_W + 30, top + 18 * k + 2, WIDTH, top + 18 * k + 16)
        crop = img.crop(box).tobytes()
        found |= {name for name in NAMES if crop == drawn_alone(
            name, (box[2] - box[0], 14), (0, -2), BACKGROUND, 12, False, LEGEND_W - 34)}
    return found


async def club_season(t: Table, clock: Clock) -> None:
    clock.now = at(2026, 2, 10)
    await game(t, "high", {"Клаус": (7, 2), "Борис": (3, 3), "Åsa": (8, 1)})
    clock.now = at(2026, 6, 15)
    await game(t, "high", {"Клаус": (6, 6), "Борис": (9, 0), "Åsa": (5, 5)})
    clock.now = at(2026, 11, 20)
    await game(t, "low", {"Клаус": (1, 2), "Борис": (0, 4), "Åsa": (3, 3)})
    clock.now += 1800
    await game(t, "high", {"Клаус": (9, 8), "Борис": (2, 0), "Åsa": (9, 7)})
    clock.now = at(2026, 12, 18)


async def test_season_chart_and_review_picture_in_every_language(table: Table, clock: Clock) -> None:
    await club_season(table, clock)
    cats = Catalogs()
    for lang in LANGS:
        def say(key: str, lang: str = lang, **params: object) -> str:
            return cats.render(Text(key, params), lang)

        await table.say("alice", f"/lang {lang}")
        season = picture(await table.say("alice", "/saison"))
        assert season.size == (WIDTH, 400 + 220)
        assert has_title(season, 0, say("kegeln.chart.lines")), lang
        assert has_title(season, 400, say("kegeln.chart.wins")), lang
        assert legend_names(season, PLOT_TOP + Y_CAPTION, 3) == set(NAMES), lang

        r = await table.say("alice", "/jahresrueckblick")
        review = picture(r)
        card_h = review.height - 400 - 220 - 240
        assert review.width == WIDTH and card_h > 100, (lang, review.size)
        assert has_title(review, card_h, say("kegeln.chart.lines")), lang
        assert has_title(review, card_h + 400, say("kegeln.chart.wins")), lang
        assert has_title(review, card_h + 620, say("kegeln.chart.halves")), lang
        assert legend_names(review, card_h + PLOT_TOP + Y_CAPTION, 3) == set(NAMES), lang
        # the card's heading: the text's first line, without its emoji (🎄), in bold
        heading = texts(r).split("\n")[0]
        assert heading.startswith("🎄 ") and pictures.missing(pictures.drawable(heading)) == ""
        first = pictures.wrap(heading, WIDTH - 40, 17, bold=True)[0]
        got = review.crop((20, 20, WIDTH - 20, 44)).tobytes()
        assert got == drawn_alone(first, (WIDTH - 40, 24), (0, 0), CARD, 17, True, WIDTH - 40), lang


async def test_the_rating_chart_has_its_title_in_the_chats_language(table: Table, clock: Clock) -> None:
    await club_season(table, clock)
    cats = Catalogs()
    for lang in LANGS:
        await table.say("alice", f"/lang {lang}")
        img = picture(await table.say("alice", "/rating kegeln Клаус"))
        assert img.size == (WIDTH, 400)
        title = cats.render(Text("stats.chart_title", {"game": Text("game.kegeln")}), lang)
        assert has_title(img, 0, title), (lang, title)
        assert legend_names(img, PLOT_TOP, 1) == {"Клаус"}, lang
