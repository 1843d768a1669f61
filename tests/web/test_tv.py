"""The TV page through the real App, its real aiohttp server and an HTTP client (SQLite): who gets the link,
/tv new, 404s, the live event stream, the moments, and that the page shows only this chat's Kegeln game."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from bot.app.app import App
from bot.web import server as tv_server_module
from bot.web.feed import MAX_PAGES
from bot.web.server import TvServer
from core.messages import Actor, Chat, Inbound
from tests.app.harness import PLATFORM, Table, texts
from tests.club.harness import appoint
from tests.leakscan import Ledger
from tests.web.tvkit import numbers, open_events, private_link


async def link_of(table: Table, who: str = "alice", args: str = "") -> str:
    r = await table.say(who, "/tv" + (f" {args}" if args else ""))
    return private_link(r, who)


async def status(http: aiohttp.ClientSession, url: str) -> int:
    async with http.get(url) as resp:
        return resp.status


async def test_off_unless_configured(table: Table) -> None:
    await table.say("alice", "/kegeln high 2 Anna Ben")
    r = await table.say("alice", "/tv")
    assert "WEB_PORT" in texts(r)


async def test_only_admins_and_the_scorer_get_the_link(table: Table, tv: TvServer) -> None:
    r = await table.say("bob", "/tv")
    assert "Only the chat's admins and the scorer" in texts(r)
    assert all(isinstance(m.to, Chat) or m.to.user_id == "bob" for m in r.messages)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    r = await table.say("bob", "/tv")  # not the scorer of the running game
    assert "Only the chat's admins and the scorer" in texts(r)
    link = await link_of(table, "alice")  # the scorer
    assert link.startswith(f"http://127.0.0.1:{tv.port}/tv/")
    admin = Actor(PLATFORM, "carol", "Carol", "en", is_admin=True)
    r = await table.send(Inbound(admin, table.group, command="tv", event_id="admin-1"))
    assert private_link(r, "carol") == link  # one link per chat


async def test_tv_only_in_a_group(table: Table, tv: TvServer) -> None:
    r = await table.dm("alice", "/tv")
    assert "/tv" in texts(r) and "http" not in texts(r)


async def test_bad_and_old_tokens_are_404(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await table.say("alice", "/kegeln high 2 Anna Ben")
    link = await link_of(table)
    assert await status(http, link) == 200
    base = link.rsplit("/", 1)[0]
    token = link.rsplit("/", 1)[1]
    changed = token[:-1] + ("B" if token.endswith("A") else "A")  # one character off (never the token itself)
    for wrong in ("x", changed, "static", "%00", "a" * 200):
        assert await status(http, f"{base}/{wrong}") == 404
        assert await status(http, f"{base}/{wrong}/events") == 404
    stream = await open_events(http, link)
    await stream.until("state")
    admin = Actor(PLATFORM, "carol", "Carol", "en", is_admin=True)
    new = private_link(await table.send(Inbound(admin, table.group, command="tv", args=("new",), event_id="n1")),
                       "carol")
    assert new != link
    assert await status(http, link) == 404  # at once
    assert await status(http, link + "/events") == 404
    await stream.until("gone", timeout=5)  # the open page is told, and its stream ends
    assert (await stream.next())[0] == "closed"
    assert await status(http, new) == 200
    await stream.close()


async def test_a_throw_reaches_the_open_page(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    stream = await open_events(http, await link_of(table))
    first = await stream.until("state")
    assert first["screen"] == "game" and numbers(first) == {"Anna": "__", "Ben": "__"}
    assert first["game"]["turn"] == "Anna"
    await table.say("alice", "/wurf 7 10")
    view = await stream.until("state", lambda v: numbers(v)["Anna"] == "7_")
    assert view["game"]["turn"] == "Ben" and "Anna: 7 pins → tens" in view["game"]["last"]
    await table.say("alice", "/wurf 5")  # pins waiting for the place: the page says so
    view = await stream.until("state", lambda v: v["game"]["placing"])
    assert "5 pins" in view["game"]["placing"]
    await stream.close()


async def test_a_moment_only_for_pages_already_open(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    link = await link_of(table)
    before = await open_events(http, link)
    await before.until("state")
    await table.say("alice", "/wurf 9 10")
    moment = await before.until("moment")
    assert moment == {"kind": "nines", "text": "Alle Neune!", "name": "Anna"}
    later = await open_events(http, link)  # the TV switched on after the throw
    view = await later.until("state")
    assert numbers(view)["Anna"] == "9_"
    await table.say("alice", "/wurf 3 10")  # Ben: no moment for an ordinary throw
    await before.until("state", lambda v: numbers(v)["Ben"] == "3_")
    await later.until("state", lambda v: numbers(v)["Ben"] == "3_")
    await table.say("alice", "/wurf 0")  # Anna's Pumpe: both open pages see it now
    assert (await later.until("moment"))["kind"] == "pumpe"
    assert (await before.until("moment"))["kind"] == "pumpe"
    await asyncio.sleep(0.2)
    assert [k for k, _ in later.seen() if k == "moment"] == []
    await before.close()
    await later.close()


async def test_result_and_evening_then_idle(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, so the evening has it (docs/club.md)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    stream = await open_events(http, await link_of(table))
    await stream.until("state")
    for throw in ("9 10", "3 10", "1", "2"):
        await table.say("alice", f"/wurf {throw}")
    view = await stream.until("state", lambda v: v["screen"] == "idle" and v["game"])
    assert view["game"]["result"] == ["1. Anna 91", "2. Ben 32"]
    assert view["game"]["winner"] == "🏆 Anna wins!"
    assert "1 game" in view["evening"]["head"] and any("Anna" in g for g in view["evening"]["games"])
    assert any("Most 9s: Anna" in line for line in view["evening"]["leaders"])
    assert view["labels"]["idle"] == "Waiting for the next game…"
    await stream.close()


async def test_a_tie_is_shown(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    stream = await open_events(http, await link_of(table))
    for throw in ("4 10", "4 10", "2", "2"):
        await table.say("alice", f"/wurf {throw}")
    view = await stream.until("state", lambda v: v["game"] and v["game"]["tie"])
    assert "Alice names the winner" in view["game"]["tie"]
    await stream.close()


async def test_the_chats_language(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/lang de")
    await table.say("alice", "/kegeln hoch 2 Anna Ben")
    link = await link_of(table)
    async with http.get(link) as resp:
        page = await resp.text()
    assert '<html lang="de">' in page and "Kegel-TV" in page
    assert '<p class="idle">Verbinde …</p>' in page  # not "connection lost" before it ever connected
    stream = await open_events(http, link)
    view = await stream.until("state")
    assert view["labels"]["now"] == "Jetzt wirft" and view["game"]["round"] == "Durchgang 1 von 2"
    await stream.close()


async def test_only_this_chats_kegeln_game(app: App, table: Table, tv: TvServer, http: aiohttp.ClientSession,
                                           _no_leaks: Ledger) -> None:
    """A duel in the same chat (its secret codes) and a Kegeln game of another chat never reach the page:
    a leak scan over the page's HTML and everything its stream sent."""
    other = Table(app, group=Chat(PLATFORM, "group-2", private=False))
    await appoint(other, "dora", chat=other.group)  # a club game there: it would show on group-2's TV
    await other.say("dora", "/kegeln high 2 Zelda Yusuf")
    await appoint(table, "alice")  # this chat's club game: the one the page shows
    await table.say("alice", "/kegeln high 2 Anna Ben")
    await table.say("bob", "/duel <@carol>")
    await table.say("carol", "/accept")
    await table.dm("bob", "1357")
    await table.dm("carol", "2468")
    link = await link_of(table)
    async with http.get(link) as resp:
        received = [await resp.text()]
    stream = await open_events(http, link)
    await stream.until("state")
    await other.say("dora", "/wurf 8 10")  # another chat's throw: nothing for this page
    await table.say("alice", "/wurf 6 10")
    await stream.until("state", lambda v: numbers(v)["Anna"] == "6_")
    await asyncio.sleep(0.2)
    await stream.close()
    received += stream.raw
    everything = "\n".join(received)
    assert _no_leaks.secrets, "the duel's secrets were not seen by the leak guard"
    for secret, found in _no_leaks.secrets.items():
        assert not found.search(everything), f"secret {secret} on the TV page"
    for foreign in ("Zelda", "Yusuf", "group-2", "dora", "1357", "2468"):
        assert foreign not in everything
    for header in ("Referrer-Policy", "Content-Security-Policy"):
        async with http.get(link) as resp:
            assert header in resp.headers


@pytest.mark.parametrize("name", ["tv.js", "tv.css"])
async def test_static_files_served_and_nothing_else(tv: TvServer, http: aiohttp.ClientSession, name: str) -> None:
    base = f"http://127.0.0.1:{tv.port}/static/"
    assert await status(http, base + name) == 200
    assert await status(http, base + "../server.py") == 404
    assert await status(http, base + "links.py") == 404


async def test_a_leaked_link_opens_a_bounded_number_of_pages(table: Table, tv: TvServer) -> None:
    """At most MAX_PAGES pages of a chat, and at most `pages_per_address` of them from one address (below
    MAX_PAGES): a link holder cannot take every place of the club's TV (here each address is a different
    127.0.0.x of the loopback network)."""
    await table.say("alice", "/kegeln high 2 Anna Ben")
    link = await link_of(table)
    per_address = tv.limits.pages_per_address
    assert per_address < MAX_PAGES
    sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{i + 2}", 0)))
                for i in range(MAX_PAGES // per_address + 2)]
    try:
        holder, *others = sessions
        streams = [await open_events(holder, link) for _ in range(per_address)]
        for s in streams:
            await s.until("state")
        async with holder.get(link + "/events") as resp:  # the link holder's address is full
            assert resp.status == 429
            assert resp.headers["Referrer-Policy"] == "no-referrer"
        i = 0
        while len(streams) < MAX_PAGES:  # the other addresses fill the chat's places
            streams.append(await open_events(others[i // per_address], link))
            i += 1
        async with others[-1].get(link + "/events") as resp:  # the chat is full
            assert resp.status == 429
        await streams[0].close()
        await asyncio.sleep(0.2)  # the server notices the closed page
        again = await open_events(others[-1], link)  # a place is free again
        await again.until("state")
        for s in [*streams[1:], again]:
            await s.close()
    finally:
        for session in sessions:
            await session.close()


async def test_the_link_moves_with_a_group_that_becomes_a_supergroup(app: App, table: Table, tv: TvServer,
                                                                     http: aiohttp.ClientSession) -> None:
    """Telegram: a group upgraded to a supergroup gets a new chat id; the TV on the lanes keeps its link."""
    await appoint(table, "alice")  # the club's scorer: a club game, shown on the TV (docs/club.md)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    link = await link_of(table)
    await app.store.migrate_chat(PLATFORM, table.group.chat_id, "supergroup-1")
    moved = Table(app, group=Chat(PLATFORM, "supergroup-1", private=False))
    stream = await open_events(http, link)
    assert numbers(await stream.until("state")) == {"Anna": "__", "Ben": "__"}  # the game moved along
    await moved.say("alice", "/wurf 5 10")
    await stream.until("state", lambda v: numbers(v)["Anna"] == "5_")
    assert await link_of(moved) == link
    await stream.close()


async def test_a_team_duel(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    await appoint(table, "alice")  # the club's scorer: a club game (docs/club.md)
    await table.say("alice", "/kegeln high 2 teams Anna Ben / Cleo Dora")
    stream = await open_events(http, await link_of(table))
    view = await stream.until("state")
    teams = {m["name"]: m["team"] for m in view["game"]["members"]}
    assert teams == {"Anna": "Team 1", "Ben": "Team 1", "Cleo": "Team 2", "Dora": "Team 2"}
    order = [m["name"] for m in view["game"]["members"]]
    for i in range(8):
        await table.say("alice", f"/wurf {9 if order[i % 4] == 'Anna' else 1} {10 if i < 4 else 1}")
    view = await stream.until("state", lambda v: v["screen"] == "idle" and v["game"])
    assert view["game"]["result"] == ["1. [1] ⌀ 55.0 (Anna 99, Ben 11)", "2. [2] ⌀ 11.0 (Cleo 11, Dora 11)"]
    assert view["game"]["winner"] == "🏆 Team 1 wins!"
    await stream.close()


async def test_a_quiet_page_reads_its_chat_again(table: Table, tv: TvServer, http: aiohttp.ClientSession,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """What changes without a move reaches the page too: here the chat's language (/lang nudges no page)."""
    monkeypatch.setattr(tv_server_module, "REREAD_SECONDS", 0.2)
    await table.say("alice", "/kegeln high 2 Anna Ben")
    stream = await open_events(http, await link_of(table))
    assert (await stream.until("state"))["labels"]["now"] == "Throwing now"
    await table.say("alice", "/lang de")
    view = await stream.until("state", lambda v: v["lang"] == "de", timeout=5)
    assert view["labels"]["now"] == "Jetzt wirft"
    await stream.close()


async def test_every_404_carries_the_security_headers(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    """Not only the page: a wrong token, an unknown address, a wrong method answer with the same headers."""
    await table.say("alice", "/kegeln high 2 Anna Ben")
    link = await link_of(table)
    base = link.split("/tv/", 1)[0]
    async with http.get(link) as page:
        wanted = {k: page.headers[k] for k in tv_server_module.HEADERS}
    for method, url in (("GET", f"{base}/tv/{'x' * 32}"), ("GET", f"{base}/nothing"), ("GET", f"{base}/"),
                        ("GET", f"{base}/static/other.js"), ("GET", f"{base}/tv/x/events"),
                        ("POST", link), ("HEAD", f"{base}/robots.txt")):
        async with http.request(method, url) as resp:
            assert resp.status in (404, 405), (method, url, resp.status)
            assert {k: resp.headers.get(k) for k in wanted} == wanted, (method, url)


async def test_behind_a_proxy_the_address_it_names_counts(app: App, table: Table, http: aiohttp.ClientSession) -> None:
    """With the proxy trusted (WEB_PROXIES), each client it names has its own bound of pages; without it, a
    forged X-Forwarded-For counts nothing: the peer's own address does."""
    from bot.web.guard import Limits
    from tests.web.tvkit import free_port

    await table.say("alice", "/kegeln high 2 Anna Ben")
    for proxies in (frozenset({"127.0.0.1"}), frozenset()):
        port = free_port()
        server = TvServer(app, "127.0.0.1", port, f"http://127.0.0.1:{port}", Limits(proxies=proxies))
        await server.start()
        try:
            link = await link_of(table)
            per = server.limits.pages_per_address
            streams = []
            for i in range(per + 1):
                forged = {"X-Forwarded-For": f"203.0.113.7, 198.51.100.{i // per + 1}"}
                resp = await http.get(link + "/events", headers=forged,
                                      timeout=aiohttp.ClientTimeout(total=None, sock_read=None))
                streams.append(resp)
            statuses = [r.status for r in streams]
            assert statuses == ([200] * (per + 1) if proxies else [200] * per + [429]), statuses
            for r in streams:
                r.close()
        finally:
            await server.stop()


async def test_only_a_chat_admin_makes_a_new_link(table: Table, tv: TvServer, http: aiohttp.ClientSession) -> None:
    """The scorer of any game gets the link, but a new one (which kills the club's TV link) only a chat admin
    or an appointed scorer makes (`may_make_new_link`: the club's roles, docs/club.md) — not the scorer of a
    member's casual game."""
    await table.say("alice", "/kegeln high 2 Anna Ben")  # a plain member's casual game
    link = await link_of(table)  # the scorer has the link
    r = await table.say("alice", "/tv new")
    assert "Only a chat admin or one of the club's appointed scorers can make a new TV link" in texts(r)
    assert await status(http, link) == 200  # the club's TV keeps its link
    admin = Actor(PLATFORM, "carol", "Carol", "en", is_admin=True)
    r = await table.send(Inbound(admin, table.group, command="tv", args=("new",), event_id="admin-new"))
    new = private_link(r, "carol")
    assert new != link and await status(http, link) == 404 and await status(http, new) == 200
