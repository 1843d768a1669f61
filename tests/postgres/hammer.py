"""One bot process of the scale-out test: `python -m tests.postgres.hammer URL CHAT START_AT PROCESS CODES...`.

Opens its own App on the PostgreSQL database, waits for the common start time, then sends every
code as a guess of both players of the duel in CHAT at once, and prints one JSON line: for each
inbound (player, code, the App's outcome for it: "guess:<id>" applied, "refused:<why>" refused)."""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import sys
import time

from bot.app.app import App
from core.messages import Actor, Chat, Inbound

_current: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar("current", default=None)


class Outcomes(logging.Handler):
    """The App logs one line per inbound: "... -> OUTCOME (ms)"; keep the outcome of each of ours."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.seen: dict[tuple[str, str], str] = {}

    def emit(self, record: logging.LogRecord) -> None:
        key = _current.get()
        if key is not None and " -> " in str(record.msg) and isinstance(record.args, tuple):
            self.seen[key] = str(record.args[4])


async def main(url: str, chat_id: str, start_at: float, process: int, codes: list[str]) -> None:
    app = await App.open(url, seed=process)
    grab = Outcomes()
    app_log = logging.getLogger("bot.app.app")
    app_log.setLevel(logging.INFO)
    app_log.addHandler(grab)
    chat = Chat("test", chat_id, False)
    players = ("alice", "bob")

    async def one(who: str, code: str, n: int) -> None:
        _current.set((who, code))
        await app.handle(Inbound(Actor("test", who, who.capitalize(), "en"), chat, text=code,
                                 event_id=f"proc{process}-{n}"))

    await asyncio.sleep(max(0.0, start_at - time.time()))
    await asyncio.gather(*(one(who, code, i * 2 + j) for i, code in enumerate(codes)
                           for j, who in enumerate(players)))
    await app.close()
    print(json.dumps([[who, code, grab.seen.get((who, code))] for code in codes for who in players]))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]))
