"""Two lanes at once on the club's TV, in a real browser (Playwright + Debian's Chromium), by geometry: the
page splits the screen between the running club games, each under its lane label, every row on screen at
1920×1080 and 1280×720; a member's casual game (as the one predicate `bot.web.view.shows_on_tv` says)
never takes the club's screen."""

from __future__ import annotations

import os
from typing import Any

from tests.web.test_browser import WAIT, Evening, chromium, chromium_installed, evening  # noqa: F401
from tests.web.test_endscreen import SIZES, overlap
from tests.web.tvkit import LINK

LINES = """() => Array.from(document.querySelectorAll(
    '.lane .lane-label, .lane .head, .lane .who, .lane table.members tr, .lane .last'))
  .map(e => { const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return [e.textContent, r.left, r.top, r.right, r.bottom, !!hit && (hit === e || e.contains(hit)),
            e.closest('.lane') ? Array.from(document.querySelectorAll('.lane')).indexOf(e.closest('.lane')) : -1]; })"""


async def lanes_fit(page: Any, rows: int) -> None:
    for width, height in SIZES:
        await page.set_viewport_size({"width": width, "height": height})
        await page.wait_for_timeout(150)
        lines = await page.evaluate(LINES)
        if os.environ.get("TV_SHOTS"):  # a directory: look at what was measured
            await page.screenshot(path=f"{os.environ['TV_SHOTS']}/lanes-{width}.png")
        assert sum(1 for ln in lines if ln[0].strip() and ln[6] >= 0 and "members" not in ln[0]) >= rows
        assert len([ln for ln in lines if ln[0].startswith("Lane ")]) == 2, [ln[0] for ln in lines]
        for text, left, top, right, bottom, hit, _lane in lines:
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, \
                f"{text!r} off the {width}x{height} window: {left, top, right, bottom}"
            assert hit, f"{text!r} is clipped or covered at {width}x{height}"
        for i, a in enumerate(lines):
            for b in lines[i + 1:]:
                assert overlap(a, b) < 1, f"{a[0]!r} overlaps {b[0]!r} at {width}x{height}"
        boxes = await page.evaluate("""() => Array.from(document.querySelectorAll('.lane')).map(e => {
            const r = e.getBoundingClientRect(); return ['', r.left, r.top, r.right, r.bottom]; })""")
        assert len(boxes) == 2 and overlap(boxes[0], boxes[1]) < 1, boxes


async def test_two_lanes_at_once(evening: Evening, chromium: Any) -> None:  # noqa: F811
    from playwright.async_api import expect

    await evening.appoint("alice", "carol")  # the club's scorers: their games are club games, on the TV
    said = await evening.type("alice: /kegeln high 3 Anna Ben Cleo Dora Emil Frida", "alice: /tv")
    found = LINK.search(said)
    assert found
    page = await chromium.new_page(viewport={"width": 1920, "height": 1080})
    await page.goto(found.group(0))
    await expect(page.locator(".turn .who")).to_have_text("Anna", timeout=WAIT)
    names = " ".join(["Maximilian-Alexander", *(f"Gast{i}" for i in range(2, 13))])
    await evening.type(f"carol: /kegeln low 6 {names}")  # the second lane
    await expect(page.locator(".lane")).to_have_count(2, timeout=WAIT)
    await expect(page.locator(".lane .lane-label")).to_have_text(["Lane 1 · alice", "Lane 2 · carol"])
    await evening.type("alice: /wurf 7 100", "carol: /wurf 3 1")
    await expect(page.locator(".lane").nth(0).locator(".who")).to_have_text("Ben", timeout=WAIT)
    await expect(page.locator(".lane").nth(1).locator(".who")).to_have_text("Gast2", timeout=WAIT)
    await expect(page.locator(".lane").nth(1).locator("table.members tr")).to_have_count(12)
    await lanes_fit(page, 18)

    # a member's casual game (bob is neither a chat admin nor an appointed scorer): the one predicate
    # (`shows_on_tv`) says it is not the club's, and the page does not move
    await evening.type("bob: /kegeln high 2 Zoe Yann")
    await evening.type("alice: /wurf 5 100")  # a club throw after it: the page has read the chat again
    await expect(page.locator(".lane").nth(0).locator(".who")).to_have_text("Cleo", timeout=WAIT)
    await expect(page.locator(".lane")).to_have_count(2)
    assert "Zoe" not in await page.inner_text("body")

    # one lane ends: its result stays in its half while the other lane plays on
    for line in ("alice: /wurf 1 100", "alice: /wurf 2 100", "alice: /wurf 3 100", "alice: /wurf 4 100",
                 *(f"alice: /wurf {p} 10" for p in (1, 2, 3, 4, 5, 6)),
                 *(f"alice: /wurf {p} 1" for p in (1, 2, 3, 4, 5, 6))):
        await evening.type(line)
    await expect(page.locator(".lane").nth(0).locator(".winner")).to_contain_text("wins", timeout=WAIT)
    await expect(page.locator(".lane").nth(1).locator(".who")).to_have_text("Gast2")

    # that lane's next game: its result gives way, the lanes keep their places
    await evening.type("alice: /kegeln high 2 Hugo Ida")
    await expect(page.locator(".lane").nth(0).locator(".who")).to_have_text("Hugo", timeout=WAIT)
    await expect(page.locator(".lane")).to_have_count(2)
    await expect(page.locator(".lane .lane-label")).to_have_text(["Lane 1 · alice", "Lane 2 · carol"])
    await page.close()
