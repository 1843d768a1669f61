"""An update's place in its chat's line, and how a handler leaves it once the rest needs no order.

A platform adapter handles the updates of one chat or forum topic strictly one after the other
(adapters/telegram/ordering.py; Discord renders a channel's answers in arrival order,
adapters/discord/adapter.py). A handler that has read everything its answer is about, and is left
with slow work that changes nothing the next update reads — the solver's /analyse and /hint
(bot/solver/thinking.py, `Thinker.run(..., aside=True)`) — calls `step_aside()`: the chat's next update is
handled now, while this one finishes by itself and its answer follows when it is ready (issue 35).

The adapter says how to leave its line by running the handler in a context where `LEAVE` holds a
callable; outside such a line (the console, a test calling the App directly) `step_aside` does
nothing. This module is plumbing of asyncio's context variables only: no platform, clock or state.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar

LEAVE: ContextVar[Callable[[], None] | None] = ContextVar("leave_line", default=None)


def step_aside() -> None:
    """Let the chat's (the topic's) next update be handled without waiting for this one; the first
    call counts, later ones do nothing."""
    leave = LEAVE.get()
    if leave is not None:
        LEAVE.set(None)
        leave()
