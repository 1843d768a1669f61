"""Neutral `Response`s → Discord calls, with the private-message fallbacks.

Order matters for secrecy and latency: a message holding a secret is deleted
first, then the actor's notice answers the interaction, then the messages go
out. A private message that cannot be delivered as a DM goes to the
group `fallback` is posted when it has one (its buttons outlive an ephemeral
message), else it goes to the interaction as an ephemeral followup when its
recipient is the one who interacted. Every Discord failure is
logged (never with the text, which may hold a secret) and survived.

A slash command is answered through its interaction: the first reply is the
initial response, the rest are followups (no channel post, no placeholder to
delete, not the channel's rate limit, and it works where the bot may not post).
What goes there: every message to the command's own channel, public, and every
reply meant for the actor alone (`only_for_actor`, notices), ephemeral. Posted
in the channel instead: a message the bot edits later (`edit_key`, e.g. a Kegeln
standings message: an interaction's message can be edited for 15 minutes only),
and messages to other chats. Only when the App takes longer than `DEFER_AFTER`
is the interaction deferred ("thinking…", ephemeral) to keep Discord's 3 s window.

Outages: discord.py itself retries a 429 (after `retry_after`) and a 5xx
(bot REST: 500/502/504/524; interaction webhooks: every 5xx) up to five times.
On top of that a call that timed out, lost its connection or got an error
discord.py does not retry (503, a 429 burst longer than its five tries) is
tried again after `TRANSIENT_PAUSES`; one call attempt is bounded by
`CALL_TIMEOUT`, one HTTP request of the bot's REST client by `REQUEST_TIMEOUT`.
Giving up is logged once at WARNING ("gave up <what> after N attempts").
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiohttp
import discord
from discord.http import HTTPClient, Route

from adapters import logged
from adapters.editmap import EditMap, MemoryEditMap
from core.messages import Actor, Chat, Outbound, Response

from .components import make_view
from .deleting import delete
from .markdown import MAX_CONTENT, content, split_content, to_ping
from .pacing import Outbox, Pacer

log = logging.getLogger(__name__)

DM_CLOSED = 50007
MISSING_ACCESS = 50001  # a channel the bot cannot see: a private thread it is not in (issue 35)
UNKNOWN_CHANNEL = 10003  # a channel or thread that was deleted
NO_PING = discord.AllowedMentions.none()
TRANSIENT_PAUSES = (1.0, 3.0)  # seconds before each extra attempt of a transiently failed call
CALL_TIMEOUT = 45.0  # one attempt, incl. discord.py's own retries (its 5xx back-off sleeps 25 s)
REQUEST_TIMEOUT = 10.0  # one HTTP request of the bot's REST client (aiohttp's default is 300 s)
LIBRARY_RETRIED_5XX = frozenset({500, 502, 504, 524})  # discord.py's HTTPClient retries these itself
DEFER_AFTER = 1.5  # seconds: a slash command still unanswered then gets a "thinking…" defer (Discord allows 3)
ALREADY_ACKNOWLEDGED = 40060
T = TypeVar("T")


@dataclass
class Context:
    """What the response answers: an interaction or a channel message, and by whom."""

    actor: Actor
    interaction: discord.Interaction | None = None
    message: discord.Message | None = None
    private_replies: bool = False  # a modal submit: replies to the actor stay ephemeral
    thinking: bool = False  # deferred with a visible "thinking" placeholder (ephemeral)
    answered: bool = False  # a followup replaced the placeholder
    command: bool = False  # a slash command: answered through the interaction, not by channel posts
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # the initial response vs. a late defer

    def answers_in(self, chat: Chat) -> bool:
        """A message to `chat` is the public answer to this slash command."""
        interaction = self.interaction
        return self.command and interaction is not None and str(interaction.channel_id) == chat.chat_id

    @property
    def in_guild(self) -> bool:
        source = self.interaction or self.message
        return source is not None and source.guild is not None


def bound_requests(http: HTTPClient) -> None:
    """Give every REST request a timeout (aiohttp's default waits 300 s for a stalled answer);
    discord.py raises the timeout at once and the renderer decides about retrying."""
    request = http.request

    async def bounded(route: Route, **kwargs: Any) -> Any:
        kwargs.setdefault("timeout", aiohttp.ClientTimeout(total=REQUEST_TIMEOUT))
        return await request(route, **kwargs)

    http.request = bounded  # type: ignore[method-assign]


class GaveUp(Exception):
    """A call failed transiently on every attempt; already logged."""


def _outage(exc: BaseException) -> bool:
    """Discord (or the way there) is down, slow or busy — not a refusal of this call."""
    if isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.RateLimited):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, (TimeoutError, aiohttp.ClientError, ConnectionError))


def _worth_retrying(exc: BaseException, webhook: bool) -> bool:
    """Not when discord.py already retried it five times (no pointless double retries)."""
    if isinstance(exc, discord.HTTPException) and exc.status >= 500:
        return not webhook and exc.status not in LIBRARY_RETRIED_5XX
    return True


def _why(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}"
    return type(exc).__name__  # never str(exc): it could quote a request


async def attempt(what: str, call: Callable[[], Awaitable[T]], *, webhook: bool = False) -> T:
    """Run `call` (built afresh each time: discord.py closes files) with bounded retries.

    A refusal (4xx) is raised as is; an outage that outlasts the attempts is logged once
    and raised as `GaveUp`. `webhook`: an interaction call, whose 5xx discord.py retries.
    """
    attempts = len(TRANSIENT_PAUSES) + 1
    for number in range(1, attempts + 1):
        try:
            return await asyncio.wait_for(call(), CALL_TIMEOUT)
        except Exception as exc:
            if not _outage(exc):
                raise
            if number < attempts and _worth_retrying(exc, webhook):
                pause = TRANSIENT_PAUSES[number - 1]
                log.info("Discord %s failed (%s), attempt %d; retrying in %.1f s", what, _why(exc), number, pause)
                await asyncio.sleep(pause)
                continue
            log.warning("Discord outage: gave up %s after %d attempt%s (%s)", what, number,
                        "" if number == 1 else "s", _why(exc))
            raise GaveUp(what) from exc
    raise AssertionError("unreachable")


def _api_error(what: str, exc: BaseException) -> None:
    if isinstance(exc, GaveUp):
        return  # logged when giving up
    if isinstance(exc, discord.HTTPException):
        log.warning("Discord refused %s: HTTP %s code %s", what, exc.status, exc.code)
    else:
        log.warning("Discord call failed (%s): %s", what, type(exc).__name__)


def _files(out: Outbound) -> list[discord.File]:
    """The attachments of a message: its picture (board.png) and its file under the file's own name."""
    files = []
    if out.image is not None:
        files.append(discord.File(io.BytesIO(out.image), filename="board.png"))
    if out.file is not None:
        name, data = out.file
        files.append(discord.File(io.BytesIO(data), filename=name))
    return files


class Renderer:
    """Sends what the App answered; one per adapter, state only for edits and DMs."""

    def __init__(self, client: discord.Client, edits: EditMap | None = None,
                 pacer: Pacer | None = None) -> None:
        self._client = client
        self.edits: EditMap = edits if edits is not None else MemoryEditMap()  # edit_key -> (channel, message)
        self.prompts: dict[str, str] = {}  # action -> modal prompt, for prompt buttons
        # Channel posts within Discord's rate limit, replies piling up joined (pacing.py).
        self.pacer = pacer
        self.outbox = Outbox(self._deliver, pacer) if pacer is not None else None
        # channels the bot can no longer post in -> why ("unreachable": 50001, "deleted": 10003); nothing goes there
        self.gone: dict[int, str] = {}
        # told when Discord refuses a post so (the adapter tells the App: the games there end)
        self.on_gone: Callable[[int, str], Awaitable[object]] | None = None

    async def _deliver(self, out: Outbound) -> bool:
        """How a channel's outbox posts a message (joined or alone)."""
        assert isinstance(out.to, Chat)
        return await self._to_chat(out, out.to)

    async def _slot(self, channel_id: int) -> None:
        """Wait for a place within the channel's rate limit and take it (no pacer: at once)."""
        if self.pacer is not None:
            await self.pacer.acquire(channel_id)

    # ----------------------------------------------------------- response
    async def render(self, response: Response, ctx: Context) -> str | None:
        """Carry out a response; why a message it asked to delete stays (`delete`), else None."""
        undeleted = await delete(ctx.message) if response.delete_inbound and ctx.message else None
        if response.notice:
            await self.notice(response.notice, ctx)
        for out in response.messages:
            try:
                await self.send(out, ctx)
            except Exception:  # a bug must not lose the remaining messages
                log.exception("rendering a message failed")
        await self.finish(ctx)
        return undeleted

    async def defer_late(self, ctx: Context) -> None:
        """Defer a slash command the App has not answered within `DEFER_AFTER` (Discord allows 3 s)."""
        await asyncio.sleep(DEFER_AFTER)
        await self.defer(ctx)

    async def defer(self, ctx: Context) -> None:
        interaction = ctx.interaction
        assert interaction is not None
        async with ctx.lock:
            if interaction.response.is_done():
                return
            try:
                await asyncio.wait_for(interaction.response.defer(ephemeral=True, thinking=True), CALL_TIMEOUT)
                ctx.thinking = True
            except Exception as exc:
                _api_error("deferring an interaction", exc)

    async def finish(self, ctx: Context) -> None:
        """Remove an unanswered "thinking…" placeholder so no interaction hangs; a slash command
        with nothing to say is acknowledged that way too."""
        if ctx.interaction is not None and ctx.command and not ctx.interaction.response.is_done():
            await self.defer(ctx)
        if ctx.interaction is not None and ctx.thinking and not ctx.answered:
            interaction = ctx.interaction
            try:
                await attempt("deleting the deferred reply", interaction.delete_original_response, webhook=True)
            except Exception as exc:
                _api_error("deleting the deferred reply", exc)
            ctx.answered = True

    async def notice(self, text: str, ctx: Context) -> None:
        """A short answer for the actor alone: ephemeral, else DM, else a reply."""
        if ctx.interaction is not None:
            await self.reply(ctx, text, ephemeral=True)
            return
        if ctx.message is None:
            return
        channel, message = ctx.message.channel, ctx.message
        if message.guild is None:
            await self._in_line(channel, lambda: self._post(channel, text))
            return
        if await self._dm(ctx.actor.user_id, text) is None:
            await self._in_line(channel, lambda: self._post(
                channel, f"<@{ctx.actor.user_id}> {text}", reference=message))

    async def _in_line(self, channel: Any, post: Callable[[], Awaitable[object]]) -> None:
        """A post of its own in a channel: after the messages queued there (its outbox), if any."""
        if self.outbox is not None:
            self.outbox.post(channel.id, post)
        else:
            await post()

    # ----------------------------------------------------------- messages
    async def send(self, out: Outbound, ctx: Context) -> None:
        if out.only_for_actor and ctx.interaction is not None:
            await self.reply(ctx, content(out), out, ephemeral=True)
            return
        if isinstance(out.to, Chat):
            if ctx.answers_in(out.to) and not out.edit_key:
                await self.reply(ctx, content(out), out, ephemeral=False)
                return
            if self.outbox is not None:  # joins the channel's line; may go out joined with others
                done = self.outbox.post(int(out.to.chat_id), out)
                if ctx.answers_in(out.to) and not await done:
                    await self.reply(ctx, content(out), out, ephemeral=False)
                return
            if not await self._to_chat(out, out.to) and ctx.answers_in(out.to):
                # the bot may not post there (or Discord refused it): still answer the command
                await self.reply(ctx, content(out), out, ephemeral=False)
            return
        await self._to_actor(out, out.to, ctx)

    def _channel(self, channel_id: int) -> Any:
        """The cached channel (discord.py knows its guild and permissions), else a partial one."""
        found = self._client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self._client.get_partial_messageable(channel_id)

    async def _to_chat(self, out: Outbound, chat: Chat) -> bool:
        if int(chat.chat_id) in self.gone:
            return False
        channel = self._channel(int(chat.chat_id))
        shown = self.edits.get(out.edit_key) if out.edit_key else None
        if shown is not None:
            channel_id, message_id = shown
            fits = channel_id == channel.id and len(content(out)) <= MAX_CONTENT
            if fits and await self._edit(channel, message_id, out):
                return True
        sent = await self._post(channel, content(out), out)
        if sent is not None and out.edit_key:
            self.edits.set(out.edit_key, (channel.id, sent.id))
        return sent is not None

    async def _to_actor(self, out: Outbound, actor: Actor, ctx: Context) -> None:
        mine = ctx.interaction is not None and actor.user_id == ctx.actor.user_id
        if mine and ctx.private_replies and ctx.in_guild:
            await self.reply(ctx, content(out), out, ephemeral=True)
            return
        if await self._dm(actor.user_id, content(out), out) is not None:
            return
        if out.fallback is not None:
            # the group fallback's buttons (e.g. a modal) outlive an ephemeral message
            await self.send(out.fallback, ctx)
        elif mine and ctx.in_guild:
            await self.reply(ctx, content(out), out, ephemeral=True)
        else:
            log.info("a private message to a user could not be delivered")  # no id in the log (issue 36)

    async def reply(self, ctx: Context, text: str, out: Outbound | None = None, *, ephemeral: bool) -> None:
        """Answer through the interaction: its initial response while it has none, else a followup.
        An ephemeral answer that cannot be delivered goes to the actor by DM (it is theirs alone)
        rather than not at all."""
        assert ctx.interaction is not None
        self._remember_prompts(out)
        chunks = split_content(text)
        for index, chunk in enumerate(chunks):
            last = out if index == len(chunks) - 1 else None
            try:
                await self._reply_once(ctx, chunk, last, ephemeral, out)
            except Exception as exc:
                _api_error("an interaction reply", exc)
                if not ephemeral:
                    return
                rest = "".join(chunks[index:])
                if await self._dm(ctx.actor.user_id, rest, out) is None:
                    log.warning("an interaction answer to user %s could not be delivered",
                                logged.person("discord", ctx.actor.user_id))
                return

    async def _reply_once(self, ctx: Context, chunk: str, out: Outbound | None, ephemeral: bool,
                          whole: Outbound | None = None) -> None:
        interaction = ctx.interaction
        assert interaction is not None
        async with ctx.lock:
            if not interaction.response.is_done():

                def respond() -> Awaitable[Any]:
                    return interaction.response.send_message(chunk or "\u200b", ephemeral=ephemeral,
                                                             **self._extras(out, whole))

                try:
                    await attempt("answering an interaction", respond, webhook=True)
                    ctx.answered = True
                    return
                except discord.HTTPException as exc:
                    if exc.code != ALREADY_ACKNOWLEDGED:  # an attempt that timed out had landed: follow up
                        raise
            if ctx.thinking and not ctx.answered and not ephemeral:
                # the first followup would take the ephemeral placeholder's place (and its visibility)
                await attempt("deleting the deferred reply", interaction.delete_original_response, webhook=True)
                ctx.answered = True

            def call() -> Awaitable[Any]:
                return interaction.followup.send(chunk or "\u200b", ephemeral=ephemeral,
                                                 **self._extras(out, whole))

            await attempt("sending an interaction followup", call, webhook=True)
            ctx.answered = True

    async def _dm(self, user_id: str, text: str, out: Outbound | None = None) -> Any:
        """Send privately; None when the user cannot be reached (DMs closed, unknown)."""
        try:
            user = self._client.get_user(int(user_id))  # the cached user, else just the id: the same call
            channel = await (user.create_dm() if user is not None else
                             self._client.create_dm(discord.Object(id=int(user_id))))
        except Exception as exc:
            _api_error("opening a DM channel", exc)
            return None
        return await self._post(channel, text, out, quiet_forbidden=True)

    async def _post(
        self,
        channel: discord.abc.Messageable,
        text: str,
        out: Outbound | None = None,
        *,
        reference: discord.Message | None = None,
        quiet_forbidden: bool = False,
    ) -> discord.Message | None:
        self._remember_prompts(out)
        chunks = split_content(text)
        sent: discord.Message | None = None
        for index, chunk in enumerate(chunks):
            last = out if index == len(chunks) - 1 else None
            nonce = secrets.randbelow(1 << 62)  # the same on every attempt: Discord drops a resend

            async def call(chunk: str = chunk, last: Outbound | None = last, nonce: int = nonce) -> Any:
                kwargs = self._extras(last, out)
                if reference is not None:
                    kwargs["reference"] = reference
                    kwargs["mention_author"] = False
                await self._slot(channel.id)  # type: ignore[attr-defined]
                return await channel.send(chunk or None, nonce=nonce, **kwargs)

            try:
                sent = await attempt("sending a message", call)
            except discord.Forbidden as exc:
                if quiet_forbidden and exc.code == DM_CLOSED:
                    log.info("DMs closed for a user; using the fallback")
                else:
                    _api_error("sending a message", exc)
                    if exc.code == MISSING_ACCESS and not quiet_forbidden:
                        await self._lost(channel, "unreachable")
                return None
            except discord.NotFound as exc:
                _api_error("sending a message", exc)
                if exc.code == UNKNOWN_CHANNEL and not quiet_forbidden:
                    await self._lost(channel, "deleted")
                return None
            except Exception as exc:
                _api_error("sending a message", exc)
                return None
        return sent

    async def _lost(self, channel: Any, why: str) -> None:
        """A channel the bot can no longer post in: said once (the adapter tells the App), then skipped."""
        channel_id = int(channel.id)
        if channel_id in self.gone:
            return
        self.gone[channel_id] = why
        if self.on_gone is not None:
            await self.on_gone(channel_id, why)

    async def _edit(self, channel: Any, message_id: int, out: Outbound) -> bool:
        """Edit in place; False when refused (post anew). After an outage it is not posted
        anew: the edit may have landed, and the next edit carries the full state again."""
        self._remember_prompts(out)

        async def call() -> Any:
            kwargs: dict[str, Any] = {"content": content(out) or None, "view": make_view(out.buttons),
                                      "allowed_mentions": NO_PING}
            if out.image is not None or out.file is not None:
                kwargs["attachments"] = _files(out)
            await self._slot(channel.id)  # an edit counts against the channel's limit too
            return await channel.get_partial_message(message_id).edit(**kwargs)

        try:
            await attempt("editing a message", call)
            return True
        except GaveUp:
            return True
        except Exception as exc:
            _api_error("editing a message", exc)
            return False

    def _extras(self, out: Outbound | None, whole: Outbound | None = None) -> dict[str, Any]:
        """The send arguments of one chunk: `out` (the last chunk's message) brings buttons and files,
        `whole` (the message every chunk belongs to) who may be pinged."""
        # User text is escaped (markdown.py), so the only mentions are those of the players the message
        # asks to act (`Outbound.mention`, put in front by `content`); they, by id, are the only users
        # pinged — never @everyone, roles, the bot itself, or a mention typed into a name.
        extras: dict[str, Any] = {"allowed_mentions": self._pings(whole or out)}
        if out is None:
            return extras
        view = make_view(out.buttons)
        if view is not None:
            extras["view"] = view
        files = _files(out)
        if len(files) == 1:
            extras["file"] = files[0]
        elif files:
            extras["files"] = files
        return extras

    def _pings(self, out: Outbound | None) -> discord.AllowedMentions:
        me = self._client.user
        ids = [i for i in to_ping(out) if me is None or i != me.id] if out is not None else []
        if not ids:
            return NO_PING
        return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(id=i) for i in ids],
                                       replied_user=False)

    def _remember_prompts(self, out: Outbound | None) -> None:
        if out is None:
            return
        for row in out.buttons:
            for button in row:
                if button.prompt:
                    self.prompts[button.action] = button.prompt
