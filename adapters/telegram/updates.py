"""Polling past an update python-telegram-bot cannot read.

PTB parses a polled batch as a whole (`Update.de_list`): one update it cannot read (a Bot API
field of a newer version in an unexpected shape, a broken object) fails the batch, the Updater
does not confirm it and fetches the same batch again at once, forever — the bot serves nothing and
hammers getUpdates (measured against tests/telegram/standin.py: some 1,400 calls in 3 s). The
request that fetches updates (`UpdatesRequest`, the Application's `get_updates_request`) hands PTB
such an update as an empty one with its `update_id`: PTB then confirms it like any other, the
adapter ignores it, and the rest of the batch is served. The log says which update was skipped,
never its content (it may hold a private text).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from typing import Any

from telegram import Update
from telegram._utils.types import ODVInput
from telegram.request import BaseRequest, HTTPXRequest, RequestData

log = logging.getLogger(__name__)


def readable(raw: Any) -> Any:
    """`raw` if PTB can read it as an Update, else an empty update with its id (kept as is when
    it has none: then there is nothing to confirm it by)."""
    if not isinstance(raw, dict):
        return raw
    try:
        Update.de_json(copy.deepcopy(raw), None)
    except Exception as exc:
        update_id = raw.get("update_id")
        if not isinstance(update_id, int):
            return raw
        log.warning("Telegram update %s cannot be read (%s); skipped", update_id, type(exc).__name__)
        return {"update_id": update_id}
    return raw


class UpdatesRequest(HTTPXRequest):
    """The getUpdates connection: every update of a batch is one PTB can read (`readable`).
    `on_answer`: told of each answered getUpdates (a polling problem is over)."""

    def __init__(self, *args: Any, on_answer: Callable[[], None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_answer = on_answer

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        status, payload = await super().do_request(
            url, method, request_data, read_timeout=read_timeout, write_timeout=write_timeout,
            connect_timeout=connect_timeout, pool_timeout=pool_timeout)
        if status != 200 or not url.endswith("/getUpdates"):
            return status, payload
        if self.on_answer is not None:
            self.on_answer()
        try:
            answer = json.loads(payload)
            batch = answer["result"]
        except (ValueError, TypeError, KeyError):
            return status, payload  # not a batch: PTB says what it is
        if not isinstance(batch, list):
            return status, payload
        fixed = [readable(raw) for raw in batch]
        if fixed == batch:
            return status, payload
        return status, json.dumps({**answer, "result": fixed}).encode()
