"""Scale-out: several real bot processes, each with its own App and connection pool on ONE PostgreSQL
database, hammer guesses into one duel at the same moment. Compare-and-set on the game's version (the
App retries on Conflict) must keep the duel exact: strict alternation, no guess lost, none doubled,
and every inbound answered with either an applied move or a refusal."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bot.app.app import App
from tests.app.harness import Table
from tests.app.test_duel_flow import start_duel

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 3
CODES_EACH = 8


def _codes() -> list[str]:
    return [c for i in range(1023, 5000) if len(set(c := f"{i:04d}")) == 4][: PROCESSES * CODES_EACH]


async def test_processes_hammering_one_duel_never_lose_or_double_a_move(db: str) -> None:
    app = await App.open(db, seed=1)
    try:
        gid, first, second = await start_duel(Table(app), "9876", "9875")
        before = await app.store.get_game(gid)
        assert before is not None
    finally:
        await app.close()
    codes = _codes()
    start_at = time.time() + 3.0  # every process has opened its App by then: they start together
    procs = [subprocess.Popen([sys.executable, "-m", "tests.postgres.hammer", db, "group-1", str(start_at), str(p),
                               *codes[p * CODES_EACH:(p + 1) * CODES_EACH]],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for p in range(PROCESSES)]
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err[-2000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))

    outcomes = [(who, code, outcome) for report in reports for who, code, outcome in report]
    assert len(outcomes) == PROCESSES * CODES_EACH * 2
    # every inbound was answered: an applied move or a refusal (never lost, crashed or a store error)
    assert all(o and (o.startswith(("guess", "refused:")) or o.endswith(f":{gid}")) for _, _, o in outcomes), \
        Counter(o for _, _, o in outcomes)
    applied = {(who, code) for who, code, o in outcomes if not o.startswith("refused:")}
    per_process = [sum(not o.startswith("refused:") for _, _, o in r) for r in reports]
    assert sum(per_process) == len(applied) and len(applied) >= 2
    assert sum(n > 0 for n in per_process) >= 2, per_process  # the processes really took turns in one game

    app = await App.open(db, seed=2)
    try:
        row = await app.store.get_game(gid)
        log = [e for e in await app.store.event_log(gid) if e.type == "guessed"]
    finally:
        await app.close()
    assert row is not None and not row.over
    a, b = row.state["attempts"][first], row.state["attempts"][second]
    # strict alternation in the event log, and the log is exactly the applied moves: none lost, none doubled
    assert len(log) == len(a) + len(b) == len(applied)
    assert len(a) - len(b) in (0, 1)
    assert [e.data["by"] for e in log] == [first, second] * len(b) + [first] * (len(a) - len(b))
    assert {(x, y["code"]) for x, ys in ((first, a), (second, b)) for y in ys} == applied
    assert row.version == before.version + len(applied)  # every applied move stored exactly once
