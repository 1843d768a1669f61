"""A message's file attachment reaches Discord: the real discord.py posts it (multipart) to the stand-in."""

from __future__ import annotations

from core.messages import Inbound, Outbound, Response

from .conftest import MakeAdapter
from .model import CHANNEL_ID
from .standin import StandIn
from .test_plumbing import MENUS

CSV = 'date,game,member\r\n2026-11-29 19:00:00,1,"Jörg, jr."\r\n'.encode("utf-8-sig")
PNG = b"\x89PNG\r\n\x1a\nfake"


async def test_file_is_posted_as_an_attachment_with_its_name(standin: StandIn, make_adapter: MakeAdapter) -> None:
    async def handle(inbound: Inbound) -> Response:
        image = PNG if inbound.args == ("both",) else None
        return Response(messages=(Outbound(inbound.chat, f"log {inbound.args}", image=image,
                                           file=(f"kegeln-{CHANNEL_ID}.csv", CSV)),))

    alice = standin.add_user("Alice")
    await make_adapter(handle, MENUS)
    await standin.say(CHANNEL_ID, alice, "!help one")
    posted = await standin.wait_for(lambda c: c.content == "log ('one',)")
    assert posted.method == "POST" and posted.files == [(f"kegeln-{CHANNEL_ID}.csv", CSV)]
    await standin.say(CHANNEL_ID, alice, "!help both")
    posted = await standin.wait_for(lambda c: c.content == "log ('both',)")
    assert posted.files == [("board.png", PNG), (f"kegeln-{CHANNEL_ID}.csv", CSV)]
