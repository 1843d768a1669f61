"""The TV at the end of a game, in a real browser (Playwright + Debian's Chromium), checked by geometry:
the winner large, the whole ranking on screen — every line's box inside the window, visible (the browser
finds the line at its own centre, nothing clips or covers it) and no two overlapping — for 2, 4, 6, 12 and
20 members, a six-member tie (while it waits and once decided) and a team duel, at 1920×1080 and 1280×720,
with the evening's standings beside it. And a page that never connected never says "connection lost"."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web.test_browser import WAIT, Evening, chromium, chromium_installed, evening  # noqa: F401
from tests.web.tvkit import LINK

SIZES = ((1920, 1080), (1280, 720))
# every line of the end screen, the evening's included; each as [text, left, top, right, bottom, hit]
LINES = """() => Array.from(document.querySelectorAll(
    '.end .winner, .end .tie, .end .head, .end .waiting, ol.result li, .evening h2, .evening li'))
  .map(e => { const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return [e.textContent, r.left, r.top, r.right, r.bottom, !!hit && (hit === e || e.contains(hit))]; })"""


def overlap(a: list[Any], b: list[Any]) -> float:
    w = min(a[3], b[3]) - max(a[1], b[1])
    h = min(a[4], b[4]) - max(a[2], b[2])
    return float(max(0.0, w) * max(0.0, h))


async def check_fits(page: Any, entries: int, first: str) -> None:
    """At both sizes: `entries` result lines, `first` on the first, and every line on screen by geometry."""
    from playwright.async_api import expect

    await expect(page.locator("#moment")).to_have_count(0, timeout=WAIT)  # an alle Neune is celebrated first
    for width, height in SIZES:
        await page.set_viewport_size({"width": width, "height": height})
        await expect(page.locator("ol.result > li")).to_have_count(entries, timeout=WAIT)
        await page.wait_for_timeout(150)  # the page fits its type to the new size
        lines = await page.evaluate(LINES)
        if os.environ.get("TV_SHOTS"):  # a directory: look at what was measured
            await page.screenshot(path=f"{os.environ['TV_SHOTS']}/end-{entries}-{first[:6]}-{width}.png")
        assert lines, "no lines"
        result = [ln for ln in lines if ln[0] and ln[0][0].isdigit()]
        assert result[0][0].startswith(first), (result[0][0], first)
        for text, left, top, right, bottom, hit in lines:
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, \
                f"{text!r} off the {width}x{height} window: {left, top, right, bottom}"
            assert bottom - top >= 8, f"{text!r} too small to read: {bottom - top} px"
            assert hit, f"{text!r} is clipped or covered at {width}x{height}"
        for i, a in enumerate(lines):
            for b in lines[i + 1:]:
                assert overlap(a, b) < 1, f"{a[0]!r} overlaps {b[0]!r} at {width}x{height}"
        sizes = await page.evaluate("""() => ['.end .winner, .end .tie', 'ol.result > li'].map(
            s => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))""")
        assert sizes[0] > sizes[1] and sizes[0] >= height / 20, f"the winner is not large: {sizes}"


def spread(i: int, r: int) -> int:
    """Member i's pins in round r: all numbers differ (no tie), the last throw is no Pumpe and no 9."""
    return (i * 7) % 10 if r == 0 else 1 + i // 10


async def play(e: Evening, names: list[str], pins: Any = spread, teams: bool = False, tv: bool = False) -> str:
    """A whole game of 2 places; member i (in throwing order) throws pins(i, round). `tv`: the scorer asks
    for the TV link after the start (only a chat admin or the scorer gets it); the console's output."""
    members = len(names)
    setup = " ".join(names) if not teams else " ".join(names[: members // 2]) + " / " + " ".join(names[members // 2:])
    said = await e.type(f"alice: /kegeln high 2 {'teams ' if teams else ''}{setup}", *(["alice: /tv"] if tv else []))
    order = names if not teams else [x for pair in zip(names[: members // 2], names[members // 2:], strict=True)
                                     for x in pair]
    lines = [f"alice: /wurf {pins(i, r)} {10 if r == 0 else 1}" for r in range(2) for i in range(len(order))]
    return said + await e.type(*lines)


@pytest.mark.parametrize("members", [2, 4, 6, 12, 20])
async def test_the_end_of_a_game_fits(evening: Evening, chromium: Any, members: int) -> None:  # noqa: F811
    from playwright.async_api import expect

    names = ["Maximilian-Alexander", *(f"Member{i}" for i in range(2, members + 1))]
    await evening.appoint("alice")  # the club's scorer: club games, shown on the TV (docs/club.md)
    found = LINK.search(await play(evening, names, tv=True))
    assert found
    page = await chromium.new_page(viewport={"width": 1920, "height": 1080})
    await page.goto(found.group(0))
    await expect(page.locator(".end .winner")).to_contain_text("wins", timeout=WAIT)
    top = max(range(members), key=lambda i: spread(i, 0) * 10 + spread(i, 1))
    await check_fits(page, members, f"1. {names[top]} ")
    columns = await page.evaluate("getComputedStyle(document.querySelector('ol.result')).gridTemplateColumns")
    assert len(columns.split()) == (2 if members > 10 else 1), columns
    await page.close()


async def test_a_tie_and_teams_fit(evening: Evening, chromium: Any) -> None:  # noqa: F811
    from playwright.async_api import expect

    await evening.appoint("alice")  # the club's scorer: club games, shown on the TV (docs/club.md)
    found = LINK.search(await play(evening, ["Gina", "Hugo"], tv=True))
    assert found
    page = await chromium.new_page(viewport={"width": 1920, "height": 1080})
    await page.goto(found.group(0))
    await expect(page.locator(".page")).to_have_count(1, timeout=WAIT)
    for n in (12, 20):  # an evening of earlier games: its standings stay on screen beside the result
        await play(evening, [f"G{n}x{i}" for i in range(n)])
    tied = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Frida"]
    await play(evening, tied, pins=lambda i, r: 9)  # six-way tie: the game waits for the scorer
    await expect(page.locator(".end .tie")).to_contain_text("Tie for first place", timeout=WAIT)
    await check_fits(page, 6, "1. Anna 99")
    await evening.type("alice: /winner Dora")
    await expect(page.locator(".end .winner")).to_have_text("🏆 Dora wins!", timeout=WAIT)
    await check_fits(page, 6, "1. Dora 99")
    assert (await page.locator("ol.result > li").all_inner_texts())[1].startswith("2. ")

    team = ["Birgit", "Klaus", "Sven", "Hanne", "Ute", "Otto", "Maximilian-Alexander", "Paula"]
    await play(evening, team, teams=True)
    await expect(page.locator(".end .winner")).to_contain_text("Team", timeout=WAIT)
    await check_fits(page, 2, "1. Team ")
    members = await page.locator("ol.result > li .members").all_inner_texts()
    assert len(members) == 2 and all(len(m.split(",")) == 4 for m in members), members
    await page.close()


async def test_never_connected_is_not_connection_lost(evening: Evening, chromium: Any) -> None:  # noqa: F811
    """Before the page ever connected it says it is connecting, never that the connection was lost."""
    from playwright.async_api import expect

    await evening.appoint("alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    said = await evening.type("alice: /kegeln high 2 Anna Ben", "alice: /tv")
    found = LINK.search(said)
    assert found
    page = await chromium.new_page(viewport={"width": 1280, "height": 720})
    await page.route("**/events", lambda route: route.abort())
    await page.goto(found.group(0))
    await page.wait_for_timeout(2500)  # the stream failed, the browser gave up and the page checked its link
    body = await page.inner_text("body")
    assert "Connection lost" not in body and "Connecting" in body, body
    await page.unroute("**/events")
    await expect(page.locator(".turn .who")).to_have_text("Anna", timeout=WAIT)
    assert "Connection lost" not in await page.inner_text("body")
    await page.close()
