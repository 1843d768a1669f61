"""/tv on Discord, end to end through the real discord.py client, the strict stand-in and the real App with
its TV server: the link goes to the scorer by DM, never into the channel; a member whose DMs are closed
(50007) is told in the channel only that; `/tv link:new` replaces the link and the old one is a 404."""

from __future__ import annotations

import aiohttp
import pytest

from bot.app.app import App
from bot.web import links
from bot.web.server import TvServer
from tests.web.tvkit import LINK, free_port

from .conftest import MakeAdapter
from .model import CHANNEL_ID, User
from .standin import StandIn


async def test_tv_link_by_dm_only(standin: StandIn, make_adapter: MakeAdapter, app: App,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = iter(["Tv_link_" * 4, "Tv_next_" * 4, "Tv_more_" * 4])  # with `_`, which Discord's markdown escapes
    monkeypatch.setattr(links, "new_token", lambda: next(tokens))
    port = free_port()
    tv = TvServer(app, "127.0.0.1", port, f"http://127.0.0.1:{port}")
    await tv.start()
    try:
        alice = standin.add_user("Alice")
        closed = standin.add_user("Carl", dms_closed=True)
        await make_adapter(app.handle, app.command_menu())
        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, alice, "kegeln", {"mode": "high", "places": 2, "names": "Anna Ben"})
        await standin.wait_for(lambda c: "Hausnummern #" in c.content, after=mark)
        await standin.settle()

        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, alice, "tv", {})
        await standin.wait_for(lambda c: LINK.search(c.content) is not None, after=mark)
        await standin.settle()
        dms = [c.content for c in standin.dms_to(alice, after=mark)]
        found = [m for text in dms if (m := LINK.search(text))]
        assert found, dms
        link = found[0].group(0)
        token = link.rsplit("/", 1)[1]
        assert token == "Tv_link_" * 4, link  # the whole token: no markdown escape (`\_`) cut it short
        assert all(token not in str(c.body) for c in standin.channel_calls(after=mark))

        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, closed, "tv", {})  # not the scorer: refused with the reason
        refusal = await standin.wait_for(lambda c: "Only the chat's admins and the scorer" in c.content, after=mark)
        assert refusal.ephemeral or not refusal.in_channel(CHANNEL_ID)

        # an admin (Manage Server) whose DMs are closed: Discord refuses the DM, the channel hears only that
        boss = standin.add_user("Dora", dms_closed=True, permissions=str(int(User.permissions) | 1 << 5))
        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, boss, "tv", {})
        await standin.wait_for(lambda c: "cannot send you the TV link privately" in c.content, after=mark)
        await standin.settle()
        assert all(token not in str(c.body) for c in standin.calls[mark:] if c.status < 300)

        mark = len(standin.calls)  # a casual game's scorer may not make a new link: it would stop the club's screen
        await standin.slash(CHANNEL_ID, alice, "tv", {"link": "new"})
        refused = "Only a chat admin or one of the club's appointed scorers can make a new TV link"
        await standin.wait_for(lambda c: refused in c.content, after=mark)
        await standin.settle()
        officer = standin.add_user("Erik", permissions=str(int(User.permissions) | 1 << 5))  # an admin (Manage Server)
        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, officer, "tv", {"link": "new"})
        await standin.wait_for(lambda c: "New TV link" in c.content, after=mark)
        await standin.settle()
        new = [m.group(0) for c in standin.dms_to(officer, after=mark) if (m := LINK.search(c.content))]
        assert new and new[0] != link
        async with aiohttp.ClientSession() as http:
            async with http.get(link) as resp:
                assert resp.status == 404
            async with http.get(new[0]) as resp:
                assert resp.status == 200
        assert all(new[0].rsplit("/", 1)[1] not in str(c.body) for c in standin.channel_calls(after=mark))
    finally:
        await tv.stop()
