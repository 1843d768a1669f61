"""The stand-in Discord's interactions: slash commands, buttons, menus, modals and their answers.

Users act (`slash`, `press`, `choose`, `submit_modal`: INTERACTION_CREATE); the bot answers once,
within `response_window`, with a response type its interaction allows (the callback), then sends
followups and edits its response through the interaction's webhook for `token_lifetime`.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from aiohttp import web

from . import limits
from .gateway import Gateway
from .model import APP_ID, EPHEMERAL, GUILD_ID, Call, User, json_response

# the response types each interaction type allows (2 command, 3 component, 5 modal submit)
RESPONSE_TYPES = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 5: {4, 5, 6, 7}}


class Interactions(Gateway):
    """Interactions by token: their state, the initial response, followups and edits."""

    def __init__(self) -> None:
        super().__init__()
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> state
        self.response_window = 3.0  # seconds for an interaction's initial response
        self.token_lifetime = 15 * 60.0  # seconds an interaction token serves followups and edits

    # --------------------------------------------------- the bot's answers
    def _webhook_refusal(self, state: dict[str, Any] | None) -> web.Response | None:
        """Followups and edits exist once the interaction was answered, for `token_lifetime`."""
        if state is None or state["responded"] is None:
            return self._error(404, 10015, "Unknown Webhook")
        if time.monotonic() - state["created"] > self.token_lifetime:
            return self._error(401, 50027, "Invalid Webhook Token")
        return None

    def _callback(
        self, token: str, body: dict[str, Any], files: list[tuple[str, bytes]], call: Call
    ) -> web.Response:
        call.interaction_token = token
        state = self.interactions.get(token)
        if state is None or time.monotonic() - state["created"] > self.response_window:
            return self._error(404, 10062, "Unknown interaction")
        if state["responded"] is not None:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        allowed = RESPONSE_TYPES.get(state["type"], set())
        if kind in (6, 7) and state["type"] == 5 and not state["from_message"]:
            allowed = allowed - {6, 7}  # a modal submit updates a message only when a component opened it
        if kind not in allowed:
            refusal = self._refuse(call, {"type": {"_errors": [{
                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                "message": f"Interaction response type {kind} is not valid for interaction type {state['type']}"}]}})
            assert refusal is not None  # a non-empty error tree is always refused
            return refusal
        if kind == 9:
            refused = self._refuse(call, limits.modal_errors(data))
        elif kind in (4, 7):
            refused = self._check_message(call, data, files, new=kind == 4)
        else:
            refused = None
        if refused is not None:
            return refused
        state["responded"] = kind
        state["responded_at"] = time.monotonic()
        call.shown_in = state["channel"]
        call.ephemeral = bool(flags & EPHEMERAL)
        interaction: dict[str, Any] = {"id": state["id"], "type": state["type"]}
        resource: dict[str, Any] = {"type": kind}
        if kind == 5:
            state["deferred_ephemeral"] = call.ephemeral
            interaction["response_message_loading"] = True
            interaction["response_message_ephemeral"] = call.ephemeral
        elif kind == 4:
            msg = self._message(state["channel"], data, files, flags=flags)
            state["original"] = int(msg["id"])
            interaction["response_message_id"] = msg["id"]
            interaction["response_message_ephemeral"] = call.ephemeral
            resource["message"] = msg
        elif kind == 9:
            state["modal"] = data
        return json_response({"interaction": interaction, "resource": resource})

    def _webhook(self, token: str, call: Call) -> dict[str, Any] | web.Response:
        """The interaction a webhook call names by its token, or the refusal when it is unknown or expired; the call
        is recorded as shown where the interaction was."""
        call.interaction_token = token
        state = self.interactions.get(token)
        if (refused := self._webhook_refusal(state)) is not None:
            return refused
        assert state is not None
        call.shown_in = state["channel"]
        return state

    def _followup(self, token: str, body: dict[str, Any], files: list[tuple[str, bytes]], call: Call) -> web.Response:
        """POST /webhooks/{app}/{token}: a followup message (the first after a defer is the response)."""
        state = self._webhook(token, call)
        if isinstance(state, web.Response):
            return state
        call.ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL)
        if (refused := self._check_message(call, body, files, new=True)) is not None:
            return refused
        replaces = state["responded"] == 5 and state["original"] is None and not state["deleted_original"]
        if replaces:
            # the first followup of a defer replaces the "thinking" message, as public or
            # ephemeral as the defer was (its own flag does not count)
            call.ephemeral = state["deferred_ephemeral"]
        body = {**body, "flags": (int(body.get("flags") or 0) & ~EPHEMERAL)}
        msg = self._message(state["channel"], body, files,
                            flags=EPHEMERAL if call.ephemeral else 0)
        if replaces:
            state["original"] = int(msg["id"])
        state["followups"].append(int(msg["id"]))
        return json_response(msg)

    def _edit_reply(
        self, token: str, mid: str, body: dict[str, Any], files: list[tuple[str, bytes]], call: Call
    ) -> web.Response:
        """PATCH /webhooks/{app}/{token}/messages/{id}: edit the response (`@original`) or a followup."""
        msg: dict[str, Any] | None
        state = self._webhook(token, call)
        if isinstance(state, web.Response):
            return state
        if (refused := self._check_message(call, body, files, new=False)) is not None:
            return refused
        if mid == "@original":
            call.ephemeral = state["deferred_ephemeral"]
            if state["original"] is None:
                msg = self._message(state["channel"], body, files,
                                    flags=EPHEMERAL if call.ephemeral else 0)
                state["original"] = int(msg["id"])
                return json_response(msg)
            mid = str(state["original"])
        msg = self.messages.get(int(mid))
        if msg is None:
            return self._error(404, 10008, "Unknown Message")
        call.ephemeral = bool(msg["flags"] & EPHEMERAL)
        msg.update({k: v for k, v in body.items() if k in ("content", "components")})
        return json_response(msg)

    def _delete_reply(self, token: str, mid: str, call: Call) -> web.Response:
        """DELETE /webhooks/{app}/{token}/messages/{id}: delete the response (`@original`) or a followup."""
        state = self._webhook(token, call)
        if isinstance(state, web.Response):
            return state
        if mid == "@original":
            state["deleted_original"] = True
            if state["original"] is not None:
                self.messages.pop(state["original"], None)
        else:
            self.messages.pop(int(mid), None)
        return web.Response(status=204)

    def _original(self, token: str) -> web.Response:
        """GET /webhooks/{app}/{token}/messages/@original: the response as it stands."""
        state = self.interactions.get(token)
        if state is None or state["original"] is None:
            return self._error(404, 10008, "Unknown Message")
        return json_response(self.messages[state["original"]])

    def ephemerals_for(self, user: User, after: int = 0) -> list[Call]:
        tokens = {t for t, s in self.interactions.items() if s["user"] == user.id}
        return [
            c
            for c in self.calls[after:]
            if c.interaction_token in tokens and c.ephemeral and c.method in ("POST", "PATCH")
        ]

    # ------------------------------------------------------- users act
    def _interaction(
        self, kind: int, channel: int | None, user: User, data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        iid = self.next_id()
        token = f"interaction-token-{iid}"
        cid = self._dm_channel_for(user) if channel is None else channel
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "data": data,
            "token": token, "version": 1, "attachment_size_limit": 8 * 1024 * 1024,
            "locale": user.locale, "app_permissions": str(self.app_permissions(cid)),
            "channel_id": str(cid), "entitlements": [],
        }
        if channel is None:
            payload["channel"] = {"id": str(cid), "type": 1, "recipients": [user.payload()]}
            payload["user"] = user.payload()
            payload["context"] = 1
        else:
            payload["channel"] = self._channel_payload(cid)
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = self.guild_locale
            payload["member"] = user.member()
            payload["context"] = 0
        if message is not None:
            payload["message"] = message
        self.interactions[token] = {
            "id": str(iid), "type": kind, "user": user.id, "channel": cid, "responded": None,
            "responded_at": None, "created": time.monotonic(), "deferred_ephemeral": False,
            "original": None, "followups": [], "modal": None, "deleted_original": False,
            "from_message": message is not None,
        }
        return payload

    async def slash(
        self, channel: int | None, user: User, name: str, options: dict[str, Any] | None = None
    ) -> str:
        """`user` runs `/name` with `options` (User values become user options); → token."""
        opts = []
        resolved: dict[str, dict[str, Any]] = {"users": {}, "members": {}}
        for key, value in (options or {}).items():
            if isinstance(value, User):
                opts.append({"name": key, "type": 6, "value": str(value.id)})
                resolved["users"][str(value.id)] = value.payload()
                member = {k: v for k, v in value.member().items() if k != "user"}
                resolved["members"][str(value.id)] = member
            elif isinstance(value, bool):
                opts.append({"name": key, "type": 5, "value": value})
            elif isinstance(value, int):
                opts.append({"name": key, "type": 4, "value": value})
            else:
                opts.append({"name": key, "type": 3, "value": str(value)})
        data: dict[str, Any] = {"id": str(self.next_id()), "name": name, "type": 1, "options": opts}
        if resolved["users"]:
            data["resolved"] = resolved
        payload = self._interaction(2, channel, user, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def press(self, channel: int | None, user: User, message_id: int, custom_id: str) -> str:
        """`user` presses the button `custom_id` on the bot's message `message_id`."""
        message = self.messages[message_id]
        payload = self._interaction(
            3, channel, user, {"custom_id": custom_id, "component_type": 2}, message=message
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def choose(self, channel: int | None, user: User, message_id: int, custom_id: str, value: str) -> str:
        """`user` picks `value` in the select menu `custom_id` on the bot's message `message_id`."""
        message = self.messages[message_id]
        payload = self._interaction(
            3, channel, user, {"custom_id": custom_id, "component_type": 3, "values": [value]}, message=message
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def submit_modal(
        self, channel: int | None, user: User, modal: dict[str, Any], value: str,
        message_id: int | None = None,
    ) -> str:
        """`user` types `value` into the first text input of `modal` (a type-9 callback's data)."""
        inputs: list[dict[str, Any]] = []
        for row in modal.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            inputs.extend(c for c in inner if c.get("type") == 4)
        first = inputs[0]
        data = {
            "custom_id": modal["custom_id"],
            "components": [{"type": 1, "components": [
                {"type": 4, "custom_id": first["custom_id"], "value": value}]}],
        }
        message = self.messages.get(message_id) if message_id is not None else None
        payload = self._interaction(5, channel, user, data, message=message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["token"])

    async def answered(self, token: str, timeout: float = 5.0) -> dict[str, Any]:
        """Wait until interaction `token` got its initial response; return its state."""
        deadline = time.monotonic() + timeout
        while self.interactions[token]["responded"] is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"interaction {token} never answered")
            await asyncio.sleep(0.01)
        return self.interactions[token]
