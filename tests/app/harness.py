"""A tiny driver for App tests: players speak in one group or privately, press buttons by label key."""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.app.app import App
from core.messages import Actor, Chat, Inbound, Outbound, Response

PLATFORM = "test"
GROUP = Chat(PLATFORM, "group-1", private=False)


@dataclass
class Table:
    app: App
    group: Chat = GROUP
    locale: str | None = "en"
    sent: list[Outbound] = field(default_factory=list)
    _ids: Any = field(default_factory=lambda: itertools.count(1))

    def actor(self, name: str) -> Actor:
        return Actor(PLATFORM, name, name.capitalize(), self.locale)

    async def send(self, inbound: Inbound) -> Response:
        r = await self.app.handle(inbound)
        self.sent.extend(r.messages)
        return r

    def _event(self) -> str:
        return f"{uuid.uuid4().hex}-{next(self._ids)}"  # unique across tables, like platform update ids

    async def say(self, who: str, text: str, chat: Chat | None = None) -> Response:
        """A plain text or a /command in the group."""
        chat = chat or self.group
        if text.startswith("/") and text[1:].split():  # a lone "/" is a plain text
            name, *args = text[1:].split()
            return await self.send(Inbound(self.actor(who), chat, command=name, args=tuple(args),
                                           event_id=self._event()))
        return await self.send(Inbound(self.actor(who), chat, text=text, event_id=self._event()))

    async def dm(self, who: str, text: str) -> Response:
        return await self.say(who, text, Chat(PLATFORM, f"dm-{who}", private=True))

    async def press(self, who: str, action: str, text: str | None = None) -> Response:
        return await self.send(Inbound(self.actor(who), self.group, action=action, text=text,
                                       event_id=self._event()))

    def button(self, response: Response, action_suffix: str) -> str:
        """The action id of the button ending in `action_suffix` in a response."""
        for msg in response.messages:
            for row in msg.buttons:
                for b in row:
                    if b.action.endswith(action_suffix):
                        return b.action
        raise AssertionError(f"no button *{action_suffix} in {response}")

    async def state(self, game_id: int) -> dict[str, Any]:
        row = await self.app.store.get_game(game_id)
        assert row is not None
        return row.state


def texts(r: Response) -> str:
    return "\n".join(m.text for m in r.messages) + (f"\n{r.notice}" if r.notice else "")


def group_texts(r: Response) -> str:
    return "\n".join(m.text for m in r.messages if isinstance(m.to, Chat) and not m.to.private)


T = TypeVar("T")


def found(row: T | None) -> T:
    """`row`, which the test's lookup must have found (a game it just started, a message it just sent)."""
    assert row is not None
    return row
