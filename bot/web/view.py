"""What a chat's TV page shows, as one JSON-able dict in the chat's language: the screen (the running club
game, the lanes, else the evening's last result) as the game that shows on it draws it (its plugin's
`screen`, bot/web/screen.py), and the evening's standings, as the club tells them (bot/club/tv.py).

Only what the group already sees: the same facts as the standings and /abend post in the chat — names
the scorer typed, numbers, pins. Nothing of any other game (whose secret codes it could hold), no private
message, no other chat: the view reads the chat it was asked for, and only the club's games."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.club import tv as club_tv
from bot.games.plugin import Services
from bot.storage.base import GameRow
from bot.web.screen import MAX_LANES, screen_of
from core.messages import Chat, Text

WORDS = ("tv.now", "tv.last", "tv.idle", "tv.nines", "tv.pumpe", "tv.connecting")  # the labels the page's script shows


@dataclass(frozen=True)
class Page:
    """What one read of a chat found, kept by its feed (bot/web/feed.py) so that a move's result rebuilds
    the view without reading the store again (`moved`): the words, the evening, the games on screen."""

    lang: str
    title: str
    labels: dict[str, str]
    evening: dict[str, Any]
    running: tuple[GameRow, ...] = ()
    ended: tuple[GameRow, ...] = ()


async def read(svc: Services, platform: str, chat_id: str) -> dict[str, Any]:
    """The page of one chat now."""
    return compose(svc, await read_page(svc, platform, chat_id))


async def read_page(svc: Services, platform: str, chat_id: str) -> Page:
    """Everything the chat's page shows, read from the store."""
    lang = await svc.localiser.group_lang(Chat(platform, chat_id, False))

    def say(text: Text | str) -> str:
        return svc.catalogs.render(text, lang)

    evening, tonight = await club_tv.evening(svc, platform, chat_id, svc.clock(), say)
    screen = screen_of(svc)
    running: list[GameRow] = []
    ended: list[GameRow] = []
    if screen is not None:
        running = [r for r in await svc.store.chat_games(platform, chat_id) if screen.shows(r)]
        ended = [r for r in [await svc.store.get_game(g) for g in tonight[-MAX_LANES:]]
                 if r is not None and screen.shows(r)]
    return Page(lang, say(Text("tv.title")), labels(svc, lang), evening, tuple(running), tuple(ended))


def compose(svc: Services, page: Page) -> dict[str, Any]:
    """The view (one JSON-able dict) of a page: its screen as the game draws it, now."""
    view: dict[str, Any] = {"lang": page.lang, "title": page.title, "labels": page.labels, "lanes": [],
                            "screen": "idle", "game": None}
    screen = screen_of(svc)
    if screen is not None:
        view.update(screen.view(page.running, page.ended, svc.clock(),
                                lambda text: svc.catalogs.render(text, page.lang)))
    view["evening"] = page.evening
    return view


def moved(page: Page, row_id: int, version: int, state: dict[str, Any]) -> Page | None:
    """The page after a move of a game on its screen that did not end it (its new version and state, handed
    over by the move: nothing read), or None when that game is not on it (a full read then). A move older
    than the page's (its hand-off came late) changes nothing."""
    if not any(r.id == row_id for r in page.running):
        return None
    return replace(page, running=tuple(replace(r, state=state, version=version)
                                       if r.id == row_id and r.version < version else r for r in page.running))


def labels(svc: Services, lang: str) -> dict[str, str]:
    """The page's own words (catalog [tv]): the labels its script shows."""
    return {k.removeprefix("tv."): svc.catalogs.render(Text(k), lang) for k in WORDS}


def moment(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any] | None:
    """A throw just entered that was alle Neune (9 pins) or a Pumpe (0): a short celebration on the pages
    that were open when it came (a page opened later never sees it: it is no part of the view)."""
    if old is None:
        return None
    before = {g["id"]: g for g in [old.get("game"), *old.get("lanes", [])] if g}
    for after in [new.get("game"), *new.get("lanes", [])]:
        was = before.get(after["id"]) if after else None
        if not after or not was or after.get("throws", 0) != was.get("throws", 0) + 1:
            continue
        pins = after.get("last_pins")
        if pins == 9:
            return {"kind": "nines", "text": new["labels"]["nines"], "name": after.get("last_name", "")}
        if pins == 0:
            return {"kind": "pumpe", "text": new["labels"]["pumpe"], "name": after.get("last_name", "")}
    return None
