"""Each platform's adapter run on its own: one platform's failure stops that platform, not the bot.

`python -m bot` with Telegram and Discord tokens serves both from one process. Before, the first
adapter whose `start` raised (Discord's gateway refusing an intent, a wrong token) ended the
process, and systemd restarted it in a loop while the other platform's players lost the bot too.
Now every adapter starts in a task of its own: an error the adapter calls transient (a network
error) is retried with a growing pause; any other stops that platform only, with one log line, and
`state` says so for `python -m bot health`. Only when no platform is left does the bot exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any, Protocol

log = logging.getLogger("bot.process.platforms")
FIRST_PAUSE = 1.0  # seconds before the first retry of a transiently failed start; doubled each time
LAST_PAUSE = 300.0


class Adapter(Protocol):
    """A platform adapter the entry point starts and stops (Telegram, Discord)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def send(self, messages: Sequence[Any]) -> None: ...


def transient(adapter: object, exc: BaseException) -> bool:
    """Worth starting again: the adapter's own judgement (`transient`), else a network error."""
    judge = getattr(adapter, "transient", None)
    if callable(judge):
        return bool(judge(exc))
    return isinstance(exc, OSError | TimeoutError)


def why(exc: BaseException) -> str:
    """What failed, for a log line and the health status: the error's type (its message may name a
    token or a URL, so it stays out)."""
    return type(exc).__name__


class Platform:
    """One adapter, started and watched on its own."""

    def __init__(self, adapter: Adapter, *, first_pause: float = FIRST_PAUSE,
                 changed: asyncio.Event | None = None) -> None:
        self.adapter = adapter
        self.changed = changed or asyncio.Event()  # set when this platform started, retries or gave up
        self.name = str(getattr(adapter, "platform", type(adapter).__name__))
        self.failed: str | None = None  # why this platform stopped for good
        self.retrying: str | None = None  # why its last start failed, while it tries again
        self.started = asyncio.Event()  # set once started, or once given up
        self._first_pause = first_pause
        self._task: asyncio.Task[None] | None = None

    def run(self) -> None:
        self._task = asyncio.create_task(self._start(), name=f"platform-{self.name}")

    async def _start(self) -> None:
        pause = self._first_pause
        while True:
            try:
                await self.adapter.start()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not transient(self.adapter, exc):
                    self.failed = why(exc)
                    log.error("%s stopped: it could not start (%s); the other platforms keep running",
                              self.name, self.failed)
                    self.started.set()
                    self.changed.set()
                    return
                self.retrying = why(exc)
                self.changed.set()
                log.warning("%s could not start (%s); trying again in %.0f s", self.name, self.retrying, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, LAST_PAUSE)
                continue
            self.retrying = None
            self.started.set()
            self.changed.set()
            log.info("%s started", self.name)
            return

    @property
    def running(self) -> bool:
        """Started (it may be reconnecting) and not given up."""
        return self.started.is_set() and self.failed is None and self.adapter_failure() is None

    def adapter_failure(self) -> str | None:
        failure = getattr(self.adapter, "failure", None)
        return failure if isinstance(failure, str) else None

    def state(self) -> dict[str, Any]:
        """What `python -m bot health` shows of this platform."""
        failed = self.failed or self.adapter_failure()
        connected = self.started.is_set() and failed is None and bool(getattr(self.adapter, "connected", True))
        state: dict[str, Any] = {"connected": connected}
        note = getattr(self.adapter, "note", None)
        if isinstance(note, str) and note:
            state["note"] = note
        problem = getattr(self.adapter, "problem", None)  # what keeps it from its updates (a Telegram 409)
        if isinstance(problem, str) and problem:
            state["problem"] = problem
        if failed is not None:
            state["failed"] = failed
        elif self.retrying is not None and not self.started.is_set():
            state["retrying"] = self.retrying
        return state

    async def stop(self) -> None:
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await self.adapter.stop()


async def start_all(platforms: Sequence[Platform]) -> None:
    """Start every platform at once; return when each has started or given up (a platform still
    retrying is waited for only until another has started: then it goes on in the background)."""
    for platform in platforms:
        platform.run()
    waits = {asyncio.create_task(p.started.wait()) for p in platforms}
    try:
        while waits:
            _, waits = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if any(p.running for p in platforms):
                return
    finally:
        for wait in waits:
            wait.cancel()
