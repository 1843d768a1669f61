"""The stand-in refuses what real Discord refuses, as Discord does: HTTP 400 with code 50035
"Invalid Form Body" and the error tree naming the field. Each payload goes through discord.py's
own HTTP client (raw, past the library's client-side checks), so the test sees what the bot
would see. Component, embed and allowed_mentions shapes come from discord.py's TypedDicts."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord.http import Route

from core.messages import Response

from .conftest import MakeAdapter
from .dtypes import shape, shapes
from .limits import INVALID_FORM_BODY
from .model import CHANNEL_ID
from .standin import StandIn


async def _nothing(_: Any) -> Response:
    return Response()


def button(i: int, **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 2, "label": f"b{i}", "custom_id": f"c{i}", **extra}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(n: int) -> dict[str, Any]:
    return {"type": 3, "custom_id": "menu", "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]}


def embed(**fields: Any) -> dict[str, Any]:
    return {"type": "rich", **fields}


VALID = {"content": "hello", "components": [row(*(button(i) for i in range(5))) for _ in range(1)]}

REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "content over 2000": ({"content": "x" * 2001}, "content"),
    "six action rows": ({"components": [row(button(i)) for i in range(6)]}, "components"),
    "six buttons in a row": ({"components": [row(*(button(i) for i in range(6)))]}, "components"),
    "custom_id over 100": ({"components": [row(button(0, custom_id="c" * 101))]}, "components"),
    "label over 80": ({"components": [row(button(0, label="l" * 81))]}, "components"),
    "select with 26 options": ({"components": [row(select(26))]}, "components"),
    "select beside a button": ({"components": [row(select(3), button(0))]}, "components"),
    "button without style (TypedDict)": ({"components": [row({"type": 2, "custom_id": "x", "label": "x"})]},
                                         "components"),
    "button with an unknown key": ({"components": [row(button(0, colour="red"))]}, "components"),
    "embed title over 256": ({"embeds": [embed(title="t" * 257)]}, "embeds"),
    "embed description over 4096": ({"embeds": [embed(description="d" * 4097)]}, "embeds"),
    "embed with 26 fields": ({"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}, "embeds"),
    "embeds over 6000 in total": ({"embeds": [embed(description="d" * 4000), embed(description="d" * 2001)]},
                                  "embeds"),
    "eleven embeds": ({"embeds": [embed(title="t")] * 11}, "embeds"),
    "allowed_mentions parse users and users": (
        {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "allowed_mentions"),
    "allowed_mentions unknown parse": ({"content": "hi", "allowed_mentions": {"parse": ["all"]}},
                                       "allowed_mentions"),
}


async def _post(client: discord.Client, payload: dict[str, Any]) -> Any:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
    return await client.http.request(route, json=payload)


@pytest.mark.parametrize("case", sorted(REFUSED))
async def test_the_stand_in_refuses_what_discord_refuses(
    case: str, standin: StandIn, make_adapter: MakeAdapter
) -> None:
    standin.expect_invalid = True
    adapter = await make_adapter(_nothing, {})
    payload, field = REFUSED[case]
    with pytest.raises(discord.HTTPException) as caught:
        await _post(adapter.client, payload)
    assert caught.value.status == 400 and caught.value.code == INVALID_FORM_BODY
    assert standin.invalid[-1].status == 400
    assert field in standin.last_errors  # the error tree names the refused field


async def test_a_valid_message_and_a_modal_limit(standin: StandIn, make_adapter: MakeAdapter) -> None:
    adapter = await make_adapter(_nothing, {})
    sent = await _post(adapter.client, VALID)
    assert sent["content"] == "hello"
    assert await _post(adapter.client, {"components": [row(select(25))]})
    # an empty message is refused with 50006
    standin.expect_invalid = True
    with pytest.raises(discord.HTTPException) as caught:
        await _post(adapter.client, {"content": ""})
    assert caught.value.code == 50006
    # a modal title over 45 characters
    user = standin.add_user("Alice")
    payload = standin._interaction(2, CHANNEL_ID, user, {"id": "1", "name": "x", "type": 1})
    route = Route("POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                  interaction_id=payload["id"], interaction_token=payload["token"])
    modal: dict[str, Any] = {"type": 9, "data": {"title": "t" * 46, "custom_id": "~m", "components": [
        row({"type": 4, "custom_id": "value", "style": 1, "label": "x"})]}}
    with pytest.raises(discord.HTTPException) as caught:
        await adapter.client.http.request(route, json=modal)
    assert caught.value.code == INVALID_FORM_BODY
    assert "title" in standin.last_errors
    modal["data"]["title"] = "t" * 45
    await adapter.client.http.request(route, json=modal)
    assert standin.interactions[payload["token"]]["modal"]["title"] == "t" * 45


def test_the_types_are_read_from_discord_py() -> None:
    """The shapes come from discord.py's TypedDicts, NotRequired and total=False honoured."""
    assert shape("components", "ButtonComponent").required == {"type", "style"}
    assert {"custom_id", "label", "url"} <= shape("components", "ButtonComponent").optional
    assert shape("components", "ActionRow").required == {"type", "components"}
    assert shape("components", "SelectOption").required == {"label", "value"}
    assert shape("embed", "Embed").required == frozenset()
    assert shape("embed", "EmbedField").required == {"name", "value"}
    assert {"parse", "users", "roles", "replied_user"} == shape("message", "AllowedMentions").allowed
    assert len(shapes("components")) > 10
