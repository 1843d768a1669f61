"""The solver's worker processes (bot/solver/thinking.py) as the operating system sees them: one BLAS
thread each, so that a nice-19 worker beside a busy neighbour does not wait for its own second
thread, and no worker (nor multiprocessing's resource tracker) outlives a bot killed with kill -9."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from threadpoolctl import threadpool_info

from bot.solver import thinking

ROOT = Path(__file__).resolve().parents[2]


def blas_threads() -> list[int]:
    """Run in a worker: how many threads each BLAS library loaded there would use."""
    import numpy as np  # the solver's numpy, as a worker has it loaded

    np.ones((2, 2)) @ np.ones((2, 2))
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_a_worker_computes_in_one_blas_thread() -> None:
    pool = thinking.process_pool(1)
    try:
        threads = pool.submit(blas_threads).result(timeout=60)
    finally:
        pool.shutdown()
    assert threads, "numpy's BLAS was not found in the worker"
    assert threads == [1] * len(threads)


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


BOT = """
import os, time
from bot.solver import thinking
pool = thinking.process_pool(1)
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def test_workers_end_when_the_bot_is_killed() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    bot = subprocess.Popen([sys.executable, "-c", BOT], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    helpers: list[int] = []
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        helpers = children(bot.pid)  # the worker and multiprocessing's resource tracker
        assert worker in helpers and len(helpers) >= 2, helpers
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(alive(pid) for pid in helpers):
            time.sleep(0.1)
        left = [pid for pid in helpers if alive(pid)]
        assert not left, f"still running after the bot was killed: {left}"
    finally:
        if bot.poll() is None:
            bot.kill()
        for pid in helpers:  # whatever the bot left behind (before the fix: all of them)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


STARTS = """
import asyncio, sys, tempfile
from pathlib import Path
import bot.__main__
from bot.app.app import App

async def main():
    with tempfile.TemporaryDirectory() as tmp:
        app = await App.open(str(Path(tmp) / "bot.sqlite3"))
        await app.close()

asyncio.run(main())
print(sorted(m for m in sys.modules if m in SOLVER))
"""
SOLVER = {"core.solver.engine", "core.solver.strategy", "core.solver.coach", "core.solver.words"}
# what start-up need not wait for (issue 38: start-up to the console prompt): numpy (which openpyxl loads), the
# XLSX writer, the TV pages' web server, PostgreSQL's driver, the worker processes' machinery
LATER = {"numpy", "openpyxl", "aiohttp", "asyncpg", "multiprocessing", "threadpoolctl"}


def test_the_bot_starts_without_loading_the_solver() -> None:
    """The solver runs in the workers; the bot's own process starts without numpy and the engine, and
    without what only some bots use, later (`LATER`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", f"SOLVER = {SOLVER | LATER!r}\n" + STARTS], capture_output=True,
                         text=True, cwd=ROOT, env=env, timeout=120, check=True).stdout
    assert out.strip() == "[]"
