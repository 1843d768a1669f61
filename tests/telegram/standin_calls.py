"""The calls the bot makes, as the stand-in (tests/telegram/standin.py) records them (`Call`), and
Telegram's flood limits on the sending ones (`Limits`: 20 messages a minute per group, 30 a second
overall, 1 a second per private chat, answered with 429 and `retry_after`)."""

from __future__ import annotations

import json
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

SENDING = frozenset({"sendMessage", "sendPhoto", "sendDocument", "editMessageText", "editMessageReplyMarkup"})


@dataclass(eq=False)
class Call:
    """One request the bot made, as the stand-in understood it."""

    method: str
    params: dict[str, Any]
    status: int = 200
    result: Any = None
    at: float = field(default_factory=time.monotonic)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # multipart field -> (name, bytes)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | str | None:
        return self.params.get("chat_id")

    @property
    def text(self) -> str:
        return str(self.params.get("text") or self.params.get("caption") or "")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        markup = self.params.get("reply_markup") or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def everything(self) -> str:
        """All the text a user could see in this call (text and button labels/urls/data)."""
        return json.dumps(self.params, ensure_ascii=False)


@dataclass
class Limits:
    """Telegram's flood limits on sending (sends and edits count). `time_scale` shrinks every
    window: 0.001 keeps the counts but makes "a minute" 60 ms, for tests that need speed.
    `callback_lifetime` (real seconds): how long a callback query may still be answered."""

    group_per_minute: int = 20
    overall_per_second: int = 30
    private_per_second: int = 1
    time_scale: float = 1.0
    callback_lifetime: float = 15.0
    enforce: bool = True


class Window:
    """Sliding window of send times: at most `limit` in `span` seconds."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def wait(self, now: float, limit: int, span: float) -> float:
        """0 if one more send fits now, else the seconds until it would."""
        while self.times and self.times[0] <= now - span:
            self.times.popleft()
        if len(self.times) < limit:
            return 0.0
        return self.times[0] + span - now


def flood_wait(windows: dict[int | str, Window], limits: Limits, chat_id: Any) -> int:
    """Count a send against the flood limits; the whole seconds to wait if it breaks one."""
    if not limits.enforce or not isinstance(chat_id, int):
        return 0
    now = time.monotonic()
    scale = limits.time_scale
    overall = windows.setdefault("*", Window())
    chat = windows.setdefault(chat_id, Window())
    if chat_id < 0:
        chat_wait = chat.wait(now, limits.group_per_minute, 60.0 * scale)
    else:
        chat_wait = chat.wait(now, limits.private_per_second, 1.0 * scale)
    wait = max(chat_wait, overall.wait(now, limits.overall_per_second, 1.0 * scale))
    if wait > 0:
        return max(1, math.ceil(wait))  # Telegram answers whole seconds
    chat.times.append(now)
    overall.times.append(now)
    return 0
