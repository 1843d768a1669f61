"""Heavy work off the event loop.

The solver (numpy plus a lot of pure Python) runs in a pool of worker *processes*: in threads it
holds the GIL most of the time, and the event loop, which needs the GIL after every await, then
answers ordinary moves late (docs/benchmarks.md, `make bench-heavy`). The workers run at a lower
CPU priority, so on a small machine the loop's short moves come first. Each worker computes in one
thread: numpy's BLAS would otherwise start a thread per core inside it, and at nice 19 the second
one waits behind any other process on the machine while the first waits for it (a /hint took 7–16 s
beside one busy neighbour instead of 0.1–0.4 s; `make bench-heavy ARGS="--hog 1"`). A worker ends
by itself when the bot process is gone, even after a kill -9 (no orphans under nohup or systemd).

`Thinker.run(key, fn, *args)`:
- **single flight**: concurrent requests with the same key (the same position) await one
  computation;
- **bounded**: at most `limit` distinct computations are in flight (running, or waiting for a
  worker); one more is refused with `GameError("solver.busy")` — the App says "the bot is busy
  thinking, try again in a moment" — instead of queueing without end;
- **aside**: `aside=True` says the caller has read what its answer is about and what it does with
  the result needs no order (/analyse; /hint, whose move checks the game's version): the platform's
  line of that chat or topic moves on to its next update while this one thinks (core/lines.py), so
  a guess typed right after an /analyse is not kept waiting for it. A bot's own move thinks in line.

Pictures (Logik boards, Kegel charts) are drawn in a thread (`asyncio.to_thread`): Pillow draws
and compresses in C, mostly without the GIL, and a picture must never wait behind the solver.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, TypeVar

from core.errors import GameError
from core.lines import step_aside

# multiprocessing, the process pool and threadpoolctl are imported where a pool starts or a worker begins:
# the bot's start-up (the console's prompt) does not wait for them, and a bot that never thinks never loads them
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))  # processes thinking at once: a core stays free for the loop
LIMIT = 8  # distinct computations in flight per App (running or queued); one more is refused
NICE = 19  # the workers yield the CPU to the bot itself (and to everything else on the machine)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")  # for libraries loaded later
ORPHAN_CHECK = 0.5  # seconds between a worker's looks at whether the bot process is still there

_shared: ProcessPoolExecutor | None = None
_shared_lock = threading.Lock()


def _worker_init(nice: int, parent: int | None = None, blas_threads: int = 1) -> None:
    with contextlib.suppress(OSError):  # not permitted: the workers share the CPU evenly with the loop
        os.nice(nice)
    for name in BLAS_THREADS:
        os.environ[name] = str(blas_threads)
    # the spawned worker has numpy loaded already (it imports the bot's main module first), so its
    # BLAS is told at run time, through its own API, to use the calling thread only
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=blas_threads)
    threading.Thread(target=_end_with, args=(os.getppid() if parent is None else parent,),
                     name="end-with-bot", daemon=True).start()


def _end_with(parent: int) -> None:
    """Ends this worker once `parent` is gone: a killed bot's worker would otherwise sit re-parented,
    holding its memory (and, through its pipe, multiprocessing's resource tracker) for ever."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)


def process_pool(workers: int = WORKERS, nice: int = NICE, blas_threads: int = 1) -> ProcessPoolExecutor:
    """Worker processes (`spawn`: a fresh interpreter, never a fork of a process with threads),
    each started on first need, at `nice` below the bot's CPU priority, with `blas_threads` threads
    for numpy's BLAS (more only to compare, in bench/heavy.py)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_worker_init, initargs=(nice, os.getpid(), blas_threads))


def shared_pool() -> ProcessPoolExecutor:
    """One pool of worker processes per bot process, started on first use (the console bot that
    never thinks starts none)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = process_pool()
        return _shared


def _reset_shared(broken: Executor) -> None:
    """A worker of the shared pool died (the pool is then unusable): the next request starts a new one."""
    global _shared
    with _shared_lock:
        if _shared is not broken:
            return
        _shared = None
    broken.shutdown(wait=False, cancel_futures=True)


@atexit.register
def _stop_shared() -> None:
    if _shared is not None:
        _shared.shutdown(wait=False, cancel_futures=True)


class Thinker:
    """Runs solver work in `executor` (default: the shared process pool), one computation per key
    at a time, at most `limit` computations in flight."""

    def __init__(self, limit: int = LIMIT, executor: Executor | None = None) -> None:
        self.limit = limit
        self.executor = executor
        self._flights: dict[Hashable, asyncio.Future[Any]] = {}
        self.computed = 0  # computations started (for tests and the bench)
        self.shared = 0  # requests that joined a computation already in flight
        self.refused = 0
        self.steps_aside = True  # False: `aside` ignored, all thinking in line (bench/slow_update.py's "before")

    @property
    def in_flight(self) -> int:
        return len(self._flights)

    async def run(self, key: Hashable, fn: Callable[..., T], *args: Any, aside: bool = False) -> T:
        flight = self._flights.get(key)
        if flight is None:
            from concurrent.futures.process import BrokenProcessPool  # loaded once, at the first computation

            if len(self._flights) >= self.limit:
                self.refused += 1
                raise GameError("solver.busy")
            executor = self.executor or shared_pool()
            try:
                flight = asyncio.get_running_loop().run_in_executor(executor, fn, *args)
            except BrokenProcessPool:  # a worker died (e.g. killed for memory): start a new pool
                _reset_shared(executor)
                executor = self.executor or shared_pool()
                flight = asyncio.get_running_loop().run_in_executor(executor, fn, *args)
            self.computed += 1
            self._flights[key] = flight

            def landed(done: asyncio.Future[Any], key: Hashable = key) -> None:
                if self._flights.get(key) is done:
                    del self._flights[key]
                if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
                    _reset_shared(executor)

            flight.add_done_callback(landed)
        else:
            self.shared += 1
        if aside and self.steps_aside:
            step_aside()
        # shielded: one caller giving up (its update cancelled) does not cancel the others' answer
        return await asyncio.shield(flight)
