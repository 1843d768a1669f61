"""The pictures' words: names in every script the clubs write (Cyrillic, åäö, Žž) are drawn as
letters, not as the missing-glyph box of Pillow's bundled font (issue 17)."""

from __future__ import annotations

import io

from PIL import Image

from core import pictures
from core.club.chart import Words, club_chart, line_chart, review_chart
from core.games.actions import Accept
from core.games.logik import picture as logik_picture
from core.games.logik import rules as logik
from core.ratings_chart import rating_chart
from tests.games.logik.common import LETTERS, A, B, ctx

# pairs of different letters of one script: drawn as letters, the two pictures differ; drawn as the
# missing-glyph box (the same box for both), they are the same picture
PAIRS = (("Щ", "Ш"), ("Клаус", "Борис"), ("Åsa", "Äsa"), ("Žižek", "Źiźek"), ("Ђорђе", "Љорђе"))


def png_pixels(png: bytes) -> bytes:
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    return img.convert("RGB").tobytes()


def test_legend_names_are_letters_in_every_script() -> None:
    for one, other in PAIRS:
        a = line_chart([(one, [3.0, 4.0])], ["1", "2"])
        b = line_chart([(other, [3.0, 4.0])], ["1", "2"])
        assert png_pixels(a) != png_pixels(b), (one, other)


def test_club_and_rating_charts_draw_cyrillic_names() -> None:
    for one, other in PAIRS:
        a = club_chart([(one, [3.0])], ["1"], [(1, 0)])
        b = club_chart([(other, [3.0])], ["1"], [(1, 0)])
        assert png_pixels(a) != png_pixels(b), (one, other)
        assert png_pixels(rating_chart(one, [20.0], ["1"])) != png_pixels(rating_chart(other, [20.0], ["1"]))


def test_logik_boards_draw_cyrillic_names() -> None:
    from core.games.base import Player

    def board(name: str) -> bytes:
        s, _ = logik.new(Player(A.user_id, name), B, 12, LETTERS, ctx())
        s, _ = logik.apply(s, Accept("Bob"), "b", ctx())
        return png_pixels(logik_picture.render(s))

    for one, other in PAIRS:
        assert board(one) != board(other), (one, other)


def test_the_font_covers_the_clubs_scripts_and_leaves_out_what_it_cannot_draw() -> None:
    assert pictures.missing("Клаус Борис Åsa Žižek Ђорђе Ñoño ő — № ½") == ""
    assert pictures.missing("Anna 🎳 李 →") == "🎳李→"
    assert pictures.drawable("🎳 Anna 🏆") == "Anna"
    assert pictures.drawable("🎳🏆") == "?" and pictures.drawable("李小龍") == "?"
    assert pictures.fit("Клаус-Александр Шварценеггер", 60).endswith("…")


def test_a_name_of_emoji_or_cjk_is_drawn_without_a_box_and_without_a_crash() -> None:
    plain = png_pixels(line_chart([("Anna", [3.0])], ["1"]))
    assert png_pixels(line_chart([("Anna 🎳", [3.0])], ["1"])) == plain  # the emoji is left out, not a box
    assert png_pixels(line_chart([("李", [3.0])], ["1"])) == png_pixels(line_chart([("?", [3.0])], ["1"]))


def test_the_reviews_third_panel_without_bars_says_why_or_is_left_out() -> None:
    series, wins = [("Клаус", [3.0, 4.0])], [(1, 0)]
    why = Words(halves="First half and second half", halves_none="Shown from 4 games on.")
    with_bars = Image.open(io.BytesIO(review_chart(series, ["1", "2"], wins, [("Клаус", 3.0, 4.0)], words=why)))
    said = Image.open(io.BytesIO(review_chart(series, ["1", "2"], wins, [], words=why)))
    left_out = Image.open(io.BytesIO(review_chart(series, ["1", "2"], wins, [])))
    assert with_bars.height == 400 + 220 + 240 and said.height == 400 + 220 + 80 and left_out.height == 400 + 220
    note = said.convert("RGB").crop((0, 620, 720, 700))
    assert len(note.getcolors(maxcolors=1 << 16) or []) > 2  # the title and the reason are drawn


def test_the_recap_card_sits_on_top_in_the_pictures_font() -> None:
    series, wins = [("Клаус", [3.0, 4.0])], [(1, 0)]
    plain = Image.open(io.BytesIO(review_chart(series, ["1", "2"], wins, [])))
    card = ["🎄 Итоги года, сезон 2026", "🏆 Чемпион клуба: Клаус — 3 победы", "💨 Король Pumpen: Åsa — 3 Pumpen"]
    carded = Image.open(io.BytesIO(review_chart(series, ["1", "2"], wins, [], card=card)))
    extra = carded.height - plain.height
    assert extra > 80
    assert carded.convert("RGB").crop((0, extra, 720, carded.height)).tobytes() == plain.convert("RGB").tobytes()
    other = [card[0], "🏆 Чемпион клуба: Борис — 3 победы", card[2]]
    assert png_pixels(review_chart(series, ["1", "2"], wins, [], card=card)) != \
        png_pixels(review_chart(series, ["1", "2"], wins, [], card=other))  # Клаус and Борис: letters, not boxes
