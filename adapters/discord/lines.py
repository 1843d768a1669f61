"""Each Discord channel's answers rendered in the order its updates arrived, with a way out for heavy work.

The App handles a channel's updates side by side; what must keep the channel's order is what the
users see, so each update takes its place in the channel's line on arrival and renders when the
one before it has rendered. A handler left with heavy work that needs no order (the solver's
/analyse and /hint) steps aside (core/lines.py, `Place.leave`): the next update's answer then waits
only for the ones before this one, and this one's answer follows when it is ready (issue 35).
"""

from __future__ import annotations

import asyncio


class Place:
    """One update's place in its channel's line."""

    def __init__(self, lines: Lines, key: str, before: asyncio.Future[None] | None) -> None:
        self._lines, self._key, self._before = lines, key, before
        self.mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def turn(self) -> None:
        """Until the answers of the updates before this one are rendered (never cancels them)."""
        if self._before is not None:
            await asyncio.wait({self._before})

    def leave(self) -> None:
        """Stepped aside: the updates after this one wait only for those before it."""
        if self._before is None or self._before.done():
            _settle(self.mine)
        else:
            self._before.add_done_callback(lambda _: _settle(self.mine))

    def done(self) -> None:
        """Rendered (or failed): the next in line goes."""
        _settle(self.mine)
        self._lines.vacate(self._key, self.mine)


class Lines:
    """The channels' lines: chat id → the last place taken."""

    def __init__(self) -> None:
        self._tails: dict[str, asyncio.Future[None]] = {}

    def take(self, key: str) -> Place:
        """A place at the end of the channel's line, taken now, in arrival order."""
        place = Place(self, key, self._tails.get(key))
        self._tails[key] = place.mine
        return place

    def vacate(self, key: str, mine: asyncio.Future[None]) -> None:
        if self._tails.get(key) is mine:
            del self._tails[key]


def _settle(place: asyncio.Future[None]) -> None:
    if not place.done():
        place.set_result(None)
