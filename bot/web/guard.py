"""The TV server's guard against a flood of connections: a bound on connections in all and per address, and
a deadline for each request's line and headers — aiohttp itself accepts without bound and keeps a silent
connection open for an hour (its keep-alive default), so 1,100 half-sent requests used to exhaust the
process's open files (issue 39; docs/tv.md, "A page that stands up").

Each accepted connection passes `Guard.admit` before aiohttp sees it. Over the bound of its address it is
closed at once; over the bound in all, the oldest connection that has not yet sent a whole request is
closed to make room (a browser sends its request as it connects: what waits is idle or half-sent), and only
when every connection is busy with a request (an open page) is the newcomer refused. A connection whose
request line and headers are not in within `header_seconds` (of connecting, or of its last answer on a
kept-alive connection) is closed. The bound in all follows the process's limit of open files, so the
database, the platforms and the bot's workers always keep theirs."""

from __future__ import annotations

import asyncio
import errno
import functools
import ipaddress
import logging
import resource
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

log = logging.getLogger("bot.web")
RESERVED_FILES = 64  # open files kept for everything else in the process (database, platforms, workers)


@dataclass(frozen=True)
class Limits:
    """The web server's bounds. `connections` None: derived from the process's open-files limit."""

    connections: int | None = None  # in all (at most MAX_CONNECTIONS)
    per_address: int = 16  # connections of one address (a TV, a phone or two, a browser's parallel fetches)
    pages_per_address: int = 4  # open pages (event streams) of one address: below MAX_PAGES of a chat
    header_seconds: float = 10.0  # request line and headers in within this, else the connection is closed
    keepalive_seconds: float = 5.0  # an idle kept-alive connection closes after this
    lingering_seconds: float = 2.0  # the most a request's unread body is drained after the answer
    guarded: bool = True  # False: aiohttp's defaults, unbounded (only bench/tv_flood.py's "before")
    proxies: frozenset[str] = frozenset()  # trusted reverse proxies: their X-Forwarded-For names the client

    def total(self) -> int:
        if self.connections is not None:
            return self.connections
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return MAX_CONNECTIONS
        return max(8, min(MAX_CONNECTIONS, (soft - RESERVED_FILES) // 2))

    def handler_args(self) -> dict[str, Any]:
        """aiohttp's own server settings (RequestHandler): no hour-long keep-alive, short lingering."""
        if not self.guarded:
            return {}
        return {"keepalive_timeout": self.keepalive_seconds, "lingering_time": self.lingering_seconds,
                "max_line_size": 4096, "max_field_size": 4096, "max_headers": 64}


MAX_CONNECTIONS = 4096


@dataclass(eq=False)
class Connection:
    """One accepted connection as the guard sees it (its transport once aiohttp's protocol has it)."""

    guard: Guard
    address: str
    since: float
    transport: asyncio.Transport | None = None
    busy: int = 0  # requests being answered now
    deadline: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        self.disarm()
        loop = asyncio.get_running_loop()
        self.since = loop.time()
        self.deadline = loop.call_later(self.guard.limits.header_seconds, self.expire)

    def disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def expire(self) -> None:
        self.deadline = None
        if self.busy == 0 and self.transport is not None:
            self.guard.expired += 1
            self.transport.abort()


class Guarded(asyncio.Protocol):
    """aiohttp's protocol of one admitted connection (everything is passed on; the guard notes its life)."""

    def __init__(self, conn: Connection, inner: asyncio.Protocol) -> None:
        self.conn, self.inner = conn, inner

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.conn.guard.made(self.conn, transport)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn.guard.release(self.conn)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class Guard:
    """The connections of one web server, with their bounds."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = limits.total()
        self.open: dict[Connection, None] = {}  # in the order they came
        self.by_transport: dict[asyncio.Transport, Connection] = {}
        self.per_address: dict[str, int] = {}
        self.refused = self.evicted = self.expired = 0

    def admit(self, address: str) -> Connection | None:
        """An accepted connection from `address`: its place (None: close it at once)."""
        if address not in self.limits.proxies and self.per_address.get(address, 0) >= self.limits.per_address:
            self.refused += 1
            return None
        if len(self.open) >= self.total and not self._make_room():
            self.refused += 1
            return None
        conn = Connection(self, address, asyncio.get_running_loop().time())
        self.open[conn] = None
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return conn

    def made(self, conn: Connection, transport: asyncio.Transport) -> None:
        conn.transport = transport
        if conn not in self.open:  # made room for another while its transport was being made
            transport.abort()
            return
        self.by_transport[transport] = conn
        conn.arm()

    def _make_room(self) -> bool:
        """Close the oldest connection that has sent no whole request yet (False: every one is busy)."""
        idle = (c for c in self.open if c.busy == 0 and c.transport is not None)
        oldest = min(idle, key=lambda c: c.since, default=None)
        if oldest is None:
            return False
        self.evicted += 1
        assert oldest.transport is not None
        oldest.transport.abort()
        self.release(oldest)
        return True

    def release(self, conn: Connection) -> None:
        conn.disarm()
        if conn.transport is not None:
            self.by_transport.pop(conn.transport, None)
        if conn not in self.open:
            return
        del self.open[conn]
        left = self.per_address.get(conn.address, 1) - 1
        if left > 0:
            self.per_address[conn.address] = left
        else:
            self.per_address.pop(conn.address, None)

    def of(self, request: web.Request) -> Connection | None:
        transport = request.transport
        return self.by_transport.get(transport) if isinstance(transport, asyncio.Transport) else None

    @web.middleware
    async def middleware(self, request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """A whole request is in: its connection's deadline stops while it is answered, then starts again."""
        conn = self.of(request)
        if conn is not None:
            conn.busy += 1
            conn.disarm()
        try:
            return await handler(request)
        finally:
            if conn is not None:
                conn.busy -= 1
                if conn.busy == 0 and conn in self.open:
                    conn.arm()

    def client(self, request: web.Request) -> str:
        """Who asks: the peer's address, or behind a trusted proxy the address it names (X-Forwarded-For's
        last entry, the one the proxy added)."""
        peer = request.remote or "?"
        if peer in self.limits.proxies:
            forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
            try:
                return str(ipaddress.ip_address(forwarded))
            except ValueError:
                return peer
        return peer


class AcceptLoop(asyncio.AbstractServer):
    """The listening socket with its own accept loop: one connection at a time, each admitted by the guard
    before it is handed to aiohttp — so the open connections never pass the bound, also in a burst (asyncio's
    own server accepts up to its backlog at once, before any protocol could refuse one)."""

    def __init__(self, sock: socket.socket, guard: Guard, factory: Callable[[], asyncio.Protocol]) -> None:
        self.sock, self.guard, self.factory = sock, guard, factory
        self.loop = asyncio.get_running_loop()
        self.task: asyncio.Task[None] | None = self.loop.create_task(self._run())
        self._warned = 0.0

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return (self.sock,) if self.task is not None else ()

    async def _run(self) -> None:
        while True:
            try:
                sock, peer = await self.loop.sock_accept(self.sock)
            except OSError as exc:  # out of files (something else used them), a connection gone before accept
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    if self.loop.time() - self._warned > 60:
                        self._warned = self.loop.time()
                        log.warning("the TV server pauses accepting: %s", exc.strerror)
                    await asyncio.sleep(0.1)
                continue
            address = str(peer[0]) if isinstance(peer, tuple) else "?"
            conn = self.guard.admit(address)
            if conn is None:
                sock.close()
                continue
            try:
                await self.loop.connect_accepted_socket(functools.partial(self.guarded, conn), sock)
            except OSError:
                self.guard.release(conn)
                sock.close()

    def guarded(self, conn: Connection) -> asyncio.Protocol:
        return Guarded(conn, self.factory())

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None
            self.sock.close()

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self.loop

    def is_serving(self) -> bool:
        return self.task is not None

    async def start_serving(self) -> None:
        return None

    async def serve_forever(self) -> None:
        if self.task is not None:
            await self.task

    async def wait_closed(self) -> None:
        return None


class GuardedSite(web.TCPSite):
    """aiohttp's TCP site listening through the guard's own accept loop."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, guard: Guard) -> None:
        super().__init__(runner, host, port, backlog=512)
        self.guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)  # not TCPSite.start: that would listen without the guard
        server = self._runner.server
        assert server is not None
        family = socket.AF_INET6 if ":" in (self._host or "") else socket.AF_INET
        sock = socket.create_server((self._host or "", self._port or 0), family=family, backlog=self._backlog)
        sock.setblocking(False)
        self._server = AcceptLoop(sock, self.guard, server)
