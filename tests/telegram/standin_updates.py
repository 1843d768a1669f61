"""The stand-in's delivery of updates to the bot: the getUpdates queue (offsets, long polling, the two
409 conflicts), the webhook, and the kinds of update the bot asked for (`allowed_updates`)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterable
from typing import Any

import aiohttp
from telegram import Update

from tests.telegram.botapi_rules import Refused
from tests.telegram.standin_state import State

TERMINATED = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
WEBHOOK_ACTIVE = ("Conflict: can't use getUpdates method while webhook is active; "
                  "use deleteWebhook to delete the webhook first")


class Updates(State):
    """Queueing updates for getUpdates or POSTing them to the webhook; the Bot API methods of both."""

    def _push(self, update: dict[str, Any], check: bool = True) -> None:
        """Queue an update for getUpdates, or POST it to the webhook when one is set."""
        kind = next(k for k in update if k != "update_id")
        if not self._wanted(kind):
            return
        update["update_id"] = next(self._update_ids)
        if check:
            self._check_shape(Update, update)
        update = json.loads(json.dumps(update))  # later edits of a message do not rewrite history
        if self.webhook_url:
            self._spawn(self._deliver_webhook(update))
            return
        self._updates.append(update)
        self._spawn(self._notify())

    async def _deliver_webhook(self, update: dict[str, Any]) -> None:
        status: int | str
        try:
            status = await self._post_webhook(update)
        except aiohttp.ClientError as exc:
            status = f"unreachable: {exc}"
        self.webhook_deliveries.append((update["update_id"], status))

    async def _post_webhook(self, update: dict[str, Any], secret: str | None = None) -> int:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        headers = {}
        token = secret if secret is not None else self.webhook_secret
        if token:
            headers["X-Telegram-Bot-Api-Secret-Token"] = token
        async with self._session.post(self.webhook_url, json=update, headers=headers) as resp:
            return resp.status

    def _wanted(self, kind: str) -> bool:
        """https://core.telegram.org/bots/api#getupdates `allowed_updates`: only the kinds listed; none
        listed: all but chat_member, message_reaction and message_reaction_count."""
        if self.allowed_updates is None:  # the bot has not asked yet: what a test pushes first is kept
            return True
        if not self.allowed_updates:
            return kind not in ("chat_member", "message_reaction", "message_reaction_count")
        return kind in self.allowed_updates

    def _note_allowed(self, params: dict[str, Any]) -> None:
        """"If not specified, the previous setting will be used" (getUpdates, setWebhook)."""
        if isinstance(params.get("allowed_updates"), list):
            self.allowed_updates = list(params["allowed_updates"])

    def push_raw(self, update: dict[str, Any]) -> int:
        """Queue an update exactly as given (e.g. one PTB cannot parse); its update id."""
        self._push(update, check=False)
        return int(update["update_id"])

    def drop_updates(self, update_ids: Iterable[int]) -> None:
        """Take queued updates back (a malformed one would otherwise be fetched again forever)."""
        gone = set(update_ids)
        self._updates = [u for u in self._updates if u["update_id"] not in gone]

    async def push_webhook_raw(self, update: dict[str, Any], secret: str | None) -> int:
        """POST an update to the bot's webhook with a chosen secret header; the HTTP status."""
        update.setdefault("update_id", next(self._update_ids))
        return await self._post_webhook(update, secret=secret if secret is not None else "")

    async def _api_getUpdates(self, params: dict[str, Any]) -> Any:
        # -- tg-ops: the two 409 conflicts (https://core.telegram.org/bots/api#getupdates: "This method will
        # not work if an outgoing webhook is set up"; a newer getUpdates ends the one still waiting)
        if self.webhook_url:
            self.conflicts.append(WEBHOOK_ACTIVE)
            raise Refused(409, WEBHOOK_ACTIVE)
        self._note_allowed(params)
        self._poll_gen += 1
        mine = self._poll_gen
        await self._notify()  # a getUpdates still waiting is terminated by this one
        # -- end tg-ops
        offset = int(params.get("offset") or 0)
        timeout = float(params.get("timeout") or 0)
        limit = int(params.get("limit") or 100)
        if offset > 0:  # confirms every update before it
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        assert self._cond is not None

        def ready() -> bool:
            return self._closing or self._poll_gen != mine or any(u["update_id"] >= offset for u in self._updates)

        if not ready() and timeout > 0:
            try:
                async with self._cond:
                    await asyncio.wait_for(self._cond.wait_for(ready), timeout)
            except TimeoutError:
                pass
        if self._poll_gen != mine and not self._closing:  # tg-ops: another getUpdates came meanwhile
            self.conflicts.append(TERMINATED)
            raise Refused(409, TERMINATED)
        return [u for u in self._updates if u["update_id"] >= offset][:limit]

    async def _api_deleteWebhook(self, params: dict[str, Any]) -> Any:
        self.webhook_url, self.webhook_secret = "", None
        return True

    async def _api_setWebhook(self, params: dict[str, Any]) -> Any:
        # tg-ops: https://core.telegram.org/bots/api#setwebhook secret_token "1-256 characters. Only characters
        # A-Z, a-z, 0-9, _ and - are allowed"; the refusal's text for other characters is Telegram's
        # (answered to many a bot), the one for a token too long is not documented anywhere: ours
        secret = params.get("secret_token")
        if secret is not None and len(str(secret)) > 256:
            raise Refused(400, "Bad Request: secret token is too long")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]+", str(secret)):
            raise Refused(400, "Bad Request: secret token contains unallowed characters")
        self._note_allowed(params)
        self.webhook_url = str(params.get("url") or "")
        self.webhook_secret = params.get("secret_token")
        return True

    async def _api_getWebhookInfo(self, params: dict[str, Any]) -> Any:
        return {"url": self.webhook_url, "has_custom_certificate": False,
                "pending_update_count": len(self._updates)}
