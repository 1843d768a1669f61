"""Pictures are drawn and PNG-encoded off the event loop (in a thread): Logik boards in the
messages of a move and of /board, Kegel charts of /kegelstats. Through the real App on SQLite."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from core.club import chart as kegeln_chart
from core.games.logik import picture as logik_picture
from tests.app.harness import Table
from tests.club.harness import appoint


def recording(into: list[int], fn: Callable[..., bytes]) -> Callable[..., bytes]:
    def drawn(*args: Any, **kwargs: Any) -> bytes:
        into.append(threading.get_ident())
        return fn(*args, **kwargs)
    return drawn


async def test_logik_boards_are_drawn_off_the_loop(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    monkeypatch.setattr(logik_picture, "render", recording(threads, logik_picture.render))
    await table.say("bob", "/help")  # known in the chat
    await table.say("ann", "/logik bob")
    await table.say("bob", "/accept")
    await table.dm("ann", "12345")
    await table.dm("bob", "54321")
    r = await table.say("ann", "/board")
    (msg,) = r.messages
    assert msg.image is not None and Image.open(io.BytesIO(msg.image)).format == "PNG"
    r = await table.say("ann", "/resign")  # the final message carries both boards
    assert any(m.image for m in r.messages)
    assert len(threads) == 2 and threading.get_ident() not in threads


async def test_kegel_charts_are_drawn_off_the_loop(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    monkeypatch.setattr(kegeln_chart, "line_chart", recording(threads, kegeln_chart.line_chart))
    monkeypatch.setattr(kegeln_chart, "club_chart", recording(threads, kegeln_chart.club_chart))
    await appoint(table, "alice")  # the club's scorer: a club game, charted
    await table.say("alice", "/kegeln high 2 Anna Ben")
    for cmd in ("9 T", "0 T", "5 O", "3 O"):
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("bob", "/kegelstats Anna")
    assert r.messages[0].image is not None
    r = await table.say("bob", "/kegelstats")
    assert r.messages[0].image is not None
    assert len(threads) == 2 and threading.get_ident() not in threads
