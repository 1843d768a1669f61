"""The TV page's web server (aiohttp, in the bot's own process and event loop): the page of a chat at
`/tv/<token>`, its live feed as server-sent events at `/tv/<token>/events`, its script and style under
`/static/`. A wrong or old token is a 404, the same as any unknown address: nothing tells a guesser
that a chat exists. On PostgreSQL it also listens for the moves other processes save (bot/web/pgnotify.py)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp_sse import EventSourceResponse, sse_response

from bot.games.plugin import Services
from bot.web import feed as tv_feed
from bot.web import links, pgnotify, view
from bot.web.guard import Guard, GuardedSite, Limits
from core.messages import Chat, Text

log = logging.getLogger("bot.web")
STATIC = Path(__file__).with_name("static")
RETRY_MS = 1000  # how soon a page's EventSource reconnects after the stream dropped (the SSE `retry` field)
PING_SECONDS = 15.0  # a comment line this often: proxies keep the stream open, a dead page is noticed
# a quiet page's chat is read again this often: what changes without a move (the evening after 06:00, a /lang)
REREAD_SECONDS = 60.0
# The page loads nothing from elsewhere and sends no Referer (its address is the secret); no search engine keeps it.
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                               "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex, nofollow",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title>
<link rel="stylesheet" href="../static/tv.css">
<script src="../static/tv.js" defer></script>
</head>
<body>
<main id="tv" data-offline="{offline}" data-gone="{gone}" data-connecting="{connecting}">
<p class="idle">{connecting}</p>
</main>
</body>
</html>
"""


@web.middleware
async def secure(request: web.Request,
                 handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    """Every answer carries the page's security headers: a 404 or 405 for any address too, not only the page."""
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        for name, value in HEADERS.items():
            exc.headers.setdefault(name, value)
        raise
    if not response.prepared:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
    return response


class TvServer:
    """The TV pages of one App, served on `host:port` until `stop`."""

    def __init__(self, svc: Services, host: str, port: int, public_url: str, limits: Limits | None = None) -> None:
        self.svc, self.host, self.port = svc, host, port
        self.limits = limits or Limits()
        self.guard = Guard(self.limits) if self.limits.guarded else None
        self._pages_of: dict[str, int] = {}  # open pages (event streams) per client address
        self.feed = tv_feed.Feed(self._read, view.moment, lambda page: view.compose(svc, page), view.moved)
        self.served = tv_feed.Served(public_url, self.feed)
        self._runner: web.AppRunner | None = None
        self._streams: set[EventSourceResponse] = set()
        self._listener: pgnotify.Listener | None = None

    async def _read(self, key: tuple[str, str]) -> tuple[str | None, view.Page]:
        token = await links.current_token(self.svc.store, *key)
        return token, await view.read_page(self.svc, *key)

    def web_app(self) -> web.Application:
        middlewares = [secure, *([self.guard.middleware] if self.guard is not None else [])]
        app = web.Application(middlewares=middlewares, client_max_size=4096)
        app.router.add_get("/tv/{token}", self.page)
        app.router.add_get("/tv/{token}/events", self.events)
        app.router.add_get("/static/{name}", self.static)
        app.on_shutdown.append(self._end_streams)
        return app

    async def start(self) -> None:
        # a page that goes away ends its handler at once (its place among MAX_PAGES is free again)
        self._runner = web.AppRunner(self.web_app(), access_log=None, shutdown_timeout=1.0, handler_cancellation=True,
                                     **self.limits.handler_args())
        await self._runner.setup()
        if self.guard is not None:
            await GuardedSite(self._runner, self.host, self.port, self.guard).start()
        else:
            await web.TCPSite(self._runner, self.host, self.port).start()
        url = pgnotify.postgres_url(self.svc.store)
        if url is not None:
            self._listener = pgnotify.Listener(url, self._heard, pgnotify.origin(self.svc.store))
            self._listener.start()
        tv_feed.attach(self.svc, self.served)
        log.info("TV pages on http://%s:%d/tv/…", self.host, self.port)

    async def listening(self) -> None:
        """Until this process hears the other processes' moves (PostgreSQL's LISTEN is up; at once on SQLite)."""
        if self._listener is not None:
            await self._listener.listening.wait()

    @property
    def bound_port(self) -> int:
        """The port it listens on (WEB_PORT=0 in tests: one the system picked)."""
        assert self._runner is not None
        return int(self._runner.addresses[0][1])

    def _heard(self, key: tuple[str, str] | None) -> None:
        if key is None:  # notifications may have been missed: every watched chat reads again
            for k in list(self.feed.channels):
                self.feed.changed(k)
        else:
            self.feed.changed(key)

    async def stop(self) -> None:
        if tv_feed.served(self.svc) is self.served:
            tv_feed.attach(self.svc, None)
        if self._listener is not None:
            await self._listener.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.feed.close()

    async def _end_streams(self, _app: web.Application) -> None:
        for stream in list(self._streams):
            stream.stop_streaming()

    # ------------------------------------------------------------ handlers
    async def _chat(self, request: web.Request) -> links.ChatRef:
        ref = await links.chat_of(self.svc.store, request.match_info["token"])
        if ref is None:
            raise web.HTTPNotFound(headers=HEADERS)
        return ref

    async def page(self, request: web.Request) -> web.Response:
        ref = await self._chat(request)
        lang = await self.svc.localiser.group_lang(Chat(ref.platform, ref.chat_id, False))

        def say(key: str) -> str:
            return html.escape(self.svc.catalogs.render(Text(key), lang))
        body = PAGE.format(lang=html.escape(lang), title=say("tv.title"), offline=say("tv.offline"),
                           gone=say("tv.gone"), connecting=say("tv.connecting"))
        return web.Response(text=body, content_type="text/html", headers=HEADERS)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The chat's view at once, then every change, and a moment (alle Neune, Pumpe) as it happens."""
        token = request.match_info["token"]
        ref = await self._chat(request)
        key = (ref.platform, ref.chat_id)
        client = self.guard.client(request) if self.guard is not None else ""
        if self.guard is not None and self._pages_of.get(client, 0) >= self.limits.pages_per_address:
            # one address never holds all of a chat's MAX_PAGES: a link that went around leaves the TV its place
            raise web.HTTPTooManyRequests(headers={**HEADERS, "Retry-After": "30"})
        try:
            watcher, current = await self.feed.watch(key, token)
        except tv_feed.TooManyPages:
            raise web.HTTPTooManyRequests(headers={**HEADERS, "Retry-After": "30"}) from None
        self._pages_of[client] = self._pages_of.get(client, 0) + 1
        try:
            async with sse_response(request, headers=HEADERS, ping_interval=PING_SECONDS) as resp:
                self._streams.add(resp)
                await resp.send(json.dumps(current, ensure_ascii=False), event="state", retry=RETRY_MS)
                closed: asyncio.Future[Any] = asyncio.ensure_future(resp.wait())
                getter: asyncio.Future[Any] | None = None
                try:
                    while True:
                        getter = getter or asyncio.ensure_future(watcher.queue.get())
                        await asyncio.wait({getter, closed}, timeout=REREAD_SECONDS,
                                           return_when=asyncio.FIRST_COMPLETED)
                        if closed.done():
                            break
                        if not getter.done():  # quiet for a while: read again (a new evening, /lang)
                            self.feed.changed(key)
                            continue
                        kind, data = getter.result()
                        getter = None
                        try:
                            await resp.send(json.dumps(data, ensure_ascii=False), event=kind)
                        except ConnectionResetError:  # the page went away while we wrote to it
                            break
                        if kind == "gone":
                            break
                finally:
                    closed.cancel()
                    if getter is not None:
                        getter.cancel()
                    self._streams.discard(resp)
                return resp
        finally:
            self.feed.unwatch(key, watcher)
            left = self._pages_of.get(client, 1) - 1
            if left > 0:
                self._pages_of[client] = left
            else:
                self._pages_of.pop(client, None)

    async def static(self, request: web.Request) -> web.FileResponse:
        name = request.match_info["name"]
        if name not in ("tv.js", "tv.css"):
            raise web.HTTPNotFound(headers=HEADERS)
        return web.FileResponse(STATIC / name, headers={**HEADERS, "Cache-Control": "no-cache"})


async def start(svc: Services, host: str, port: int | None, public_url: str | None,
                proxies: tuple[str, ...] = ()) -> TvServer | None:
    """The TV pages of `svc` as configured (WEB_HOST, WEB_PORT, WEB_PUBLIC_URL, WEB_PROXIES): served when a
    port is set; a process with only the public address gives /tv's links for pages another process serves."""
    if port is None:
        if public_url:
            tv_feed.attach(svc, tv_feed.Served(public_url))
        return None
    server = TvServer(svc, host, port, public_url or f"http://{host}:{port}", Limits(proxies=frozenset(proxies)))
    try:
        await server.start()
    except OSError as exc:  # the port is taken, the host unknown: the bot runs on, without its TV page
        log.error("the TV page cannot listen on %s:%d: %s", host, port, exc.strerror or exc)
        await server.stop()
        return None
    return server


async def stop(server: TvServer | None) -> None:
    if server is not None:
        with contextlib.suppress(Exception):
            await server.stop()
