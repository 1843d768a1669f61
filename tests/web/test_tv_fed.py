"""The TV page fed by the move (issue 38): a throw that does not end the game hands its result (the game's
id, version and new state) to the pages of its chat, which rebuild their view from it and what they read
before — no query of the store for the page; an end, a new game or a new link is read in full."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

import aiohttp

from bot.storage.base import GameRow
from bot.web import view
from bot.web.server import TvServer
from tests.app.harness import Table
from tests.club.harness import appoint
from tests.web.test_tv import link_of
from tests.web.tvkit import numbers, open_events


class Counted:
    """Counts the reads of the store (its one reading primitive, SqliteStore._read)."""

    def __init__(self, table: Table) -> None:
        self.n = 0
        store: Any = table.app.store
        inner = store._read

        async def read(sql: str, params: Iterable[Any] = ()) -> Any:
            self.n += 1
            return await inner(sql, params)
        store._read = read


async def settled() -> None:
    for _ in range(20):  # the channel's refresh is a task of its own: let it run out
        await asyncio.sleep(0.01)


async def test_a_throw_reaches_the_open_page_with_no_read_of_its_own(table: Table, tv: TvServer,
                                                                     http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/kegeln high 3 Anna Ben")
    counted = Counted(table)
    await table.say("alice", "/wurf 1 1")  # a throw with no page open: what the move itself reads
    alone = counted.n
    stream = await open_events(http, await link_of(table))
    await stream.until("state")
    await settled()
    channel = next(iter(tv.feed.channels.values()))
    reads, counted.n = channel.reads, 0
    await table.say("alice", "/wurf 7 10")  # Ben's throw, seen on the page
    shown = await stream.until("state", lambda v: numbers(v)["Ben"] == "_7_")
    await settled()
    # the page's share of a throw: no query (it was 4 here — the token, the zone, tonight's games, the running
    # games — and up to 9 with games finished tonight: their members and rows)
    assert counted.n == alone
    assert channel.reads == reads
    fresh = await view.read(table.app, *channel.key)  # what a full read would show: the same
    assert shown == fresh and shown["game"]["turn"] == "Anna"
    await stream.close()


async def test_the_end_of_a_game_is_read(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    """The evening changes with a game's end: the page reads it (and a new game) from the store."""
    await appoint(table, "alice")
    await table.say("alice", "/kegeln high 2 Anna Ben")
    stream = await open_events(http, await link_of(table))
    await stream.until("state")
    channel = next(iter(tv.feed.channels.values()))
    reads = channel.reads
    for throw in ("4 10", "2 10", "1", "1"):
        await table.say("alice", f"/wurf {throw}")
    ended = await stream.until("state", lambda v: v["screen"] == "idle" and v["game"])
    assert ended["game"]["winner"] and "1 game" in ended["evening"]["head"]
    assert channel.reads == reads + 1  # three throws handed over, the end read
    await table.say("alice", "/kegeln high 2 Cleo Dora")
    await stream.until("state", lambda v: v["screen"] == "game")
    assert channel.reads == reads + 2
    await stream.close()


def test_a_late_hand_off_never_turns_the_page_back() -> None:
    row = GameRow(7, "p", "c", False, "kegeln", {"v": 3}, False, 5)
    page = view.Page("en", "TV", {}, {}, (row,))
    late = view.moved(page, 7, 4, {"v": 2})  # version 4 arrived after version 5 was read
    assert late is not None and late.running[0].state == {"v": 3} and late.running[0].version == 5
    newer = view.moved(page, 7, 6, {"v": 4})
    assert newer is not None and newer.running[0].state == {"v": 4} and newer.running[0].version == 6
    assert view.moved(page, 8, 9, {}) is None  # a game not on the page: read it
