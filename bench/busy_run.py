"""What every busy-group run shares (bench/busy_group.py): a guess, a run's record, guessing, collecting answers.

Players guess fresh codes at random moments; the answers are then looked for in the stand-in's calls,
and a guess whose answer never arrived within the drain time counts as lost.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.telegram.standin_objects import User


@dataclass
class Guess:
    player: User
    n: int
    code: str
    at: float  # monotonic, when the stand-in got the user's message

    @property
    def answer(self) -> str:
        return f"{self.player.first_name} #{self.n}: {self.code} →"


@dataclass
class Run:
    mode: str
    rate: float
    guesses: list[Guess] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)
    lost: int = 0
    sends: int = 0
    refused: int = 0
    wall: float = 0.0


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def fresh_code(rng: random.Random, secret: str, used: set[str]) -> str:
    """A code this player has not tried (the App refuses a repeat) and that is not the secret."""
    while True:
        code = "".join(rng.sample("0123456789", 4))
        if code != secret and code not in used:
            used.add(code)
            return code


async def guess(run: Run, rng: random.Random, players: Sequence[Any], secrets: dict[int, str],
                send: Callable[[int, str], Awaitable[float]], end: float, mean_gap: float,
                pick: Callable[[int], int] | None = None) -> None:
    """Random players guess fresh codes at random moments (`mean_gap` seconds apart on average) until
    `end`; `send(index, code)` types one into the group and returns when the stand-in got it. `pick(n)`:
    who makes the n-th guess (default: anyone, at random)."""
    counts = {p.id: 0 for p in players}
    used: dict[int, set[str]] = {p.id: set() for p in players}
    while time.monotonic() < end:
        await asyncio.sleep(rng.expovariate(1 / mean_gap))
        index = pick(len(run.guesses)) if pick is not None else rng.randrange(len(players))
        player = players[index]
        counts[player.id] += 1
        code = fresh_code(rng, secrets[player.id], used[player.id])
        run.guesses.append(Guess(player, counts[player.id], code, await send(index, code)))


async def collect(run: Run, standin: Any, delivered: Callable[[Any], str | None], mark: int, start: float,
                  drain: float, scale: float) -> None:
    """Wait for the answers (or the drain time): whatever has not arrived then is lost. `delivered`:
    the text a stand-in call brought to the group, or None for a call that brought nothing there."""
    deadline = time.monotonic() + drain * scale
    pending = list(run.guesses)
    seen = mark
    arrived: dict[int, float] = {}
    while pending and time.monotonic() < deadline:
        for call in standin.calls[seen:]:
            text = delivered(call)
            if text is not None:
                for g in pending:
                    if g.answer in text and id(g) not in arrived:
                        arrived[id(g)] = call.at
        seen = len(standin.calls)
        pending = [g for g in pending if id(g) not in arrived]
        await asyncio.sleep(0.2 * max(scale, 0.05))
    run.wall = (time.monotonic() - start) / scale
    run.delays = [(arrived[id(g)] - g.at) / scale for g in run.guesses if id(g) in arrived]
    run.lost = len(pending)
