"""The Discord client: platform updates in, `handle`, rendered replies out.

Runs inside an already running event loop (it can share the process with the
Telegram adapter): `start` logs in, connects the shards in a background task
and returns once the client is READY. Replies to one chat go out in the order
its updates arrived, even when a reply waits for a retry (see render.py), but
never wait for heavy work that stepped aside (lines.py).
Channel posts keep Discord's rate limit and replies piling up in a busy
channel go out joined (pacing.py); `stop` lets the queued ones go out first.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.editmap import EditMap, MemoryEditMap
from core.lines import LEAVE
from core.messages import Actor, Chat, CommandInfo, Inbound, Outbound, Response

from . import render
from .commands import MenuTranslator, build_commands, picked_bots, picked_names
from .components import ActionButton, ActionMenu, PromptButton, PromptModal
from .inbound import (
    PROMPT_PREFIX,
    actor_of,
    cannot_post_here,
    chat_of,
    from_message,
    modal_value,
)
from .lines import Lines
from .pacing import Pacer, Pacing
from .render import Context, Renderer

log = logging.getLogger(__name__)

Handle = Callable[[Inbound], Awaitable[Response]]
T = TypeVar("T")
DEFAULT_API_BASE = Route.BASE
DRAIN_TIMEOUT = 10.0  # seconds `stop` lets the channels' queued messages go out
# what the bot needs where it plays (docs/discord.md "Invite it to a server"): a thread or a forum post
# needs Send Messages in Threads, not Send Messages; Manage Messages deletes a secret typed in the open
INVITE_PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                         attach_files=True, read_message_history=True, manage_messages=True)
NO_MESSAGE_CONTENT = "no_message_content"  # `note` while Discord refuses the intent (health shows it)
REFUSED_INTENT = (
    "Discord refused the Message Content intent (gateway close code 4014, Disallowed intent(s)): it is not "
    "enabled for this application in the Developer Portal. Running without it: a guess typed in a channel "
    "counts only when it mentions the bot (1234 @Bot), slash commands and buttons work. To fix: Developer "
    "Portal -> Bot -> Privileged Gateway Intents -> Message Content Intent, then restart the bot "
    "(or set DISCORD_MESSAGE_CONTENT=0 to run without it on purpose).")


class _Client(discord.AutoShardedClient):
    """The discord.py client; `press_handler` is how dynamic items reach the adapter. `tree` is its
    command tree, where `commands.Bot` keeps it (test libraries such as SimCord look for it there)."""

    press_handler: DiscordAdapter
    tree: app_commands.CommandTree[Any]


class _PlainClient(discord.Client):
    """One connection, no shards (`sharded=False`): for test libraries that drive a plain client."""

    press_handler: DiscordAdapter
    tree: app_commands.CommandTree[Any]


class DiscordAdapter:
    """Discord ⇄ neutral messages. Knows nothing of games; handed the App's `handle`."""

    platform = "discord"

    def __init__(
        self,
        token: str,
        handle: Handle,
        commands: Mapping[str, Sequence[CommandInfo]],
        api_base: str | None = None,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        *,
        message_content: bool = True,
        ready_timeout: float = 60.0,
        guild_ready_timeout: float = 2.0,
        edit_map: EditMap | None = None,
        sharded: bool = True,
        pacing: Pacing | None = None,
        paced: bool = True,
    ) -> None:
        self._token = token
        self._handle = handle
        self._menus = {lang: tuple(menu) for lang, menu in commands.items()}
        self._known = frozenset(n for menu in self._menus.values() for info in menu  # typed: every name
                                for n in (info.name, *info.aliases))
        self._api_base = api_base.rstrip("/") if api_base else None
        self._shard_ids = shard_ids
        self._shard_count = shard_count
        self._message_content = message_content
        self._ready_timeout = ready_timeout
        self._guild_ready_timeout = guild_ready_timeout
        self._edit_map = edit_map if edit_map is not None else MemoryEditMap()  # survives a reconnect
        self._sharded = sharded
        # channel posts within Discord's rate limit (pacing.py); `paced=False`: as discord.py sends
        self._pacer = Pacer(pacing) if paced else None
        self._client: _Client | None = None
        self._tree: app_commands.CommandTree[Any] | None = None
        self._renderer: Renderer | None = None
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._saved_base: tuple[str, yarl.URL] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reattaching: asyncio.Task[None] | None = None  # attaching again without a refused intent
        self._lost: str | None = None  # why attaching again failed
        self._lines = Lines()  # each channel's answers in arrival order (lines.py)
        # a channel message carries no locale: reuse the user's last interaction locale
        self._locales: dict[str, str] = {}
        self.note: str | None = None  # how the bot runs short of what was asked (health shows it)

    # ------------------------------------------------------------ lifecycle
    @property
    def connected(self) -> bool:
        """Logged in and READY on the gateway (for `python -m bot health`)."""
        client = self._client
        return client is not None and client.is_ready() and not client.is_closed()

    @property
    def client(self) -> discord.Client:
        """The underlying client (built on first use)."""
        return self._ensure_client()

    def _ensure_client(self) -> _Client:
        if self._client is not None:
            return self._client
        intents = discord.Intents.default()
        intents.message_content = self._message_content
        options: dict[str, Any] = {
            "intents": intents,
            "guild_ready_timeout": self._guild_ready_timeout,
            "chunk_guilds_at_startup": False,
            "max_messages": None,
            "allowed_mentions": discord.AllowedMentions.none(),  # each send says whom it pings
        }
        if self._sharded:
            # no shard ids: discord.py runs every shard (its typing has no None for "not given")
            sharding: dict[str, Any] = {} if self._shard_ids is None else {"shard_ids": self._shard_ids}
            client: _Client = _Client(**sharding, shard_count=self._shard_count, **options)
        else:
            client = _PlainClient(**options)  # type: ignore[assignment]
        client.press_handler = self
        render.bound_requests(client.http)
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
        for command in build_commands(self._menus, self._on_command):
            tree.add_command(command)
        tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        client.tree = tree
        client.add_dynamic_items(ActionButton, PromptButton, ActionMenu)
        client.event(self.on_ready)
        client.event(self.on_message)
        client.event(self.on_raw_message_edit)  # a move corrected by editing it (MESSAGE_UPDATE)
        client.event(self.on_interaction)
        client.event(self.on_raw_thread_delete)  # a thread deleted: its games end (issue 35)
        self._client, self._tree, self._renderer = client, tree, Renderer(client, self._edit_map, self._pacer)
        self._renderer.on_gone = self._channel_gone
        return client

    def _point_at_api(self) -> None:
        """discord.py has one process-wide REST base; point it at `api_base`."""
        if self._api_base and self._saved_base is None:
            self._saved_base = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
            Route.BASE = self._api_base

    def _restore_api(self) -> None:
        if self._saved_base is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_base
            self._saved_base = None

    async def _login(self) -> _Client:
        client = self._ensure_client()
        if client.user is None:
            self._point_at_api()
            await client.login(self._token)
            if self._api_base:
                # with a fixed shard count discord.py uses its default gateway (and after an
                # invalidated session always): make that the stand-in's/proxy's too
                _, url, _ = await client.http.get_bot_gateway()
                DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
            await self._tree_translator()
        return client

    async def _tree_translator(self) -> None:
        assert self._tree is not None
        if self._tree.translator is None:
            await self._tree.set_translator(MenuTranslator(self._menus))

    async def start(self) -> None:
        """Log in, connect in the background, return once READY (or raise); see `connect_with_fallback`."""
        await self.connect_with_fallback(self._start)

    async def connect_with_fallback(self, connect: Callable[[], Awaitable[T]]) -> T:
        """`connect` the client (discord.py's gateway in `start`; an in-process Discord in tests), and
        when Discord refuses the Message Content intent (gateway close 4014: it is not enabled for the
        application in the Developer Portal), once more without it rather than not at all."""
        try:
            return await connect()
        except discord.PrivilegedIntentsRequired:
            if not self._message_content:
                raise
            await self.stop()  # a client's intents are fixed: the next one is built without it
            self._message_content, self.note = False, NO_MESSAGE_CONTENT
            log.warning(REFUSED_INTENT)
            return await connect()

    async def _start(self) -> None:
        try:
            client = await self._login()
        except BaseException:
            await self.stop()  # close the HTTP session; the token is never in the error
            raise
        self._ready.clear()
        self._task = asyncio.create_task(self._run(client), name="discord-client")
        ready = asyncio.create_task(self._ready.wait())
        try:
            done, _ = await asyncio.wait(
                {ready, self._task}, timeout=self._ready_timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            ready.cancel()
        if self._task in done:
            try:
                self._task.result()  # re-raise why the connection ended
            finally:
                await self.stop()
            raise ConnectionError("the Discord connection ended before READY")
        if not done:
            await self.stop()
            raise TimeoutError("Discord did not become READY in time")

    async def _run(self, client: _Client) -> None:
        try:
            await client.connect(reconnect=True)  # returns on close; raises what discord.py will not retry
        except discord.PrivilegedIntentsRequired:
            if not (self._message_content and self._ready.is_set()):
                raise  # at start `connect_with_fallback` sees it
            # After READY, a reconnect's IDENTIFY refused with 4014 (the intent switched off in the portal
            # meanwhile): discord.py gives up and the bot would run on deaf. Attach again without it, as at
            # start (issue 35); a failure then is this platform's (`failure`, bot/process/platforms.py).
            self._message_content, self.note = False, NO_MESSAGE_CONTENT
            log.warning(REFUSED_INTENT)
            self._reattaching = asyncio.get_running_loop().create_task(self._reattach(), name="discord-reattach")

    async def _reattach(self) -> None:
        try:
            await self.stop()
            await self._start()
        except Exception as exc:
            self._lost = type(exc).__name__
            log.error("Discord could not attach again without the Message Content intent (%s); this platform "
                      "stops, the others keep running", self._lost)

    @property
    def failure(self) -> str | None:
        """Why the connection ended for good after READY (a token reset: 4004, …), else None."""
        if self._lost is not None:
            return self._lost
        task = self._task
        if task is None or not task.done() or task.cancelled() or task.exception() is None:
            return None
        return type(task.exception()).__name__

    @staticmethod
    def transient(exc: BaseException) -> bool:
        """Worth starting again (bot/process/platforms.py): the network or Discord's servers, not a wrong
        token (LoginFailure), a refused intent or another close code Discord says not to retry."""
        if isinstance(exc, discord.DiscordServerError | discord.GatewayNotFound):
            return True
        if isinstance(exc, discord.ClientException | discord.HTTPException):
            return False
        return isinstance(exc, OSError | TimeoutError | aiohttp.ClientError)

    async def stop(self) -> None:
        """Close the connection and wait for every task we started."""
        client, task = self._client, self._task
        if self._tasks:  # let in-flight updates finish their replies first
            _, late = await asyncio.wait(set(self._tasks), timeout=5)
            for pending in late:
                pending.cancel()
        if self._renderer is not None and self._renderer.outbox is not None:
            await self._renderer.outbox.close(DRAIN_TIMEOUT)
        if client is not None and not client.is_closed():
            try:
                await client.close()
            except AttributeError:  # an AutoShardedClient that never connected has no shard queue
                await client.http.close()
        elif client is not None:
            await client.http.close()
        if task is not None:
            try:
                await asyncio.wait_for(task, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
            except Exception:
                log.debug("the Discord client task ended with an error", exc_info=True)
        self._task = None
        self._client = self._tree = self._renderer = None  # a closed client cannot reconnect
        self._restore_api()

    async def send(self, messages: Sequence[Outbound]) -> None:
        """Deliver messages no interaction asked for (e.g. a game that timed out)."""
        if self._renderer is None:
            return
        for out in messages:
            to = out.to if isinstance(out.to, Actor) else Actor("discord", "", "")
            try:
                await self._renderer.send(out, Context(to))
            except Exception:
                log.exception("sending an announcement failed")

    async def sync_commands(self, guild_id: int | None = None) -> None:
        """Publish the slash commands (globally, or to one guild for instant testing)."""
        await self._login()
        assert self._tree is not None
        guild = discord.Object(id=guild_id) if guild_id is not None else None
        if guild is not None:
            self._tree.copy_global_to(guild=guild)
        synced = await self._tree.sync(guild=guild)
        log.info("synced %d slash commands %s", len(synced),
                 f"to guild {guild_id}" if guild_id else "globally")

    def invite_url(self) -> str | None:
        """The OAuth2 link that adds the bot to a server with the permissions it needs (after login)."""
        app_id = self.client.application_id
        if app_id is None:
            return None
        return discord.utils.oauth_url(app_id, permissions=INVITE_PERMISSIONS,
                                       scopes=("bot", "applications.commands"))

    # --------------------------------------------------------------- events
    async def on_ready(self) -> None:
        self._ready.set()
        log.info("Discord client ready as %s", self.client.user)

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None:
            return
        inbound = from_message(message, self.client.user, self._locales, self._known)
        if inbound is not None:
            await self._dispatch(inbound, Context(actor=inbound.actor, message=message))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread (or forum post) was deleted (THREAD_DELETE): its games end, like a deleted Telegram topic."""
        if self._renderer is not None:
            self._renderer.gone[payload.thread_id] = "deleted"
        await self._channel_gone(payload.thread_id, "deleted")

    async def _channel_gone(self, channel_id: int, why: str) -> None:
        """Nobody can play in this channel any more ("deleted": the thread is gone, 10003; "unreachable": the
        bot may not see it, 50001 — a private thread it was removed from): the App ends its games and tells
        their players by DM (`Inbound.closed`, bot/app/closing.py)."""
        chat = Chat(platform=self.platform, chat_id=str(channel_id), private=False)
        try:
            response = await self._handle(Inbound(actor=Actor(self.platform, "0", "Discord"), chat=chat,
                                                 closed=why))
        except Exception as exc:
            log.error("handle() failed for the lost channel %s: %s", channel_id, type(exc).__name__, exc_info=exc)
            return
        await self.send(response.messages)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edited message (raw: also one no longer cached): the App takes it once as the move it now
        is, or says the message counted already; an update of anything but its text (an embed
        unfurled) carries no `edited_timestamp` and is nothing."""
        message = payload.message
        if message.author.bot or message.webhook_id is not None or message.edited_at is None:
            return
        inbound = from_message(message, self.client.user, self._locales, self._known)
        if inbound is not None:
            edited = str(message.edited_at.timestamp())
            inbound = dataclasses.replace(inbound, event_id=f"{message.id}@{edited}", edited=edited)
            await self._dispatch(inbound, Context(actor=inbound.actor, message=message))

    async def _on_command(
        self, interaction: discord.Interaction, name: str, args: tuple[str, ...]
    ) -> None:
        """Answered through the interaction (see render.py); deferred only if the App is slow."""
        assert self._renderer is not None
        actor, chat = self._who(interaction)
        inbound = Inbound(actor=actor, chat=chat, command=name, args=args, event_id=str(interaction.id),
                          bots=picked_bots(interaction), named=picked_names(interaction),
                          cannot_post=cannot_post_here(interaction))
        ctx = Context(actor=actor, interaction=interaction, command=True)
        late = asyncio.create_task(self._renderer.defer_late(ctx), name="discord-defer")
        try:
            await self._dispatch(inbound, ctx)
        finally:
            late.cancel()

    async def on_press(self, interaction: discord.Interaction, action: str) -> None:
        """A plain button: acknowledge at once, then let the App re-validate the press."""
        await self._defer(interaction, thinking=False)
        actor, chat = self._who(interaction)
        inbound = Inbound(actor=actor, chat=chat, action=action, event_id=str(interaction.id),
                          cannot_post=cannot_post_here(interaction))
        await self._dispatch(inbound, Context(actor=actor, interaction=interaction))

    async def on_prompt(self, interaction: discord.Interaction, action: str, label: str) -> None:
        """A prompt button: the modal is the answer (it cannot follow a defer)."""
        assert self._renderer is not None
        prompt = self._renderer.prompts.get(action) or label
        try:
            await interaction.response.send_modal(PromptModal(action, prompt))
        except Exception as exc:
            log.warning("could not open a modal: %s", type(exc).__name__)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Modal submits, routed by custom id so they need no in-memory modal."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id") or "")
        if not custom_id.startswith(PROMPT_PREFIX):
            return
        await self._defer(interaction, thinking=True)
        actor, chat = self._who(interaction)
        inbound = Inbound(actor=actor, chat=chat, action=custom_id[len(PROMPT_PREFIX):],
                          text=modal_value(data), event_id=str(interaction.id))
        ctx = Context(actor=actor, interaction=interaction, thinking=True, private_replies=True)
        await self._dispatch(inbound, ctx)

    # -------------------------------------------------------------- helpers
    def _who(self, interaction: discord.Interaction) -> tuple[Actor, Chat]:
        # an interaction carries the member's resolved permissions in its channel (no fetch needed)
        perms = interaction.permissions if interaction.guild_id is not None else None
        actor = actor_of(interaction.user, interaction.locale, perms)
        if actor.locale:
            if len(self._locales) > 100_000:
                self._locales.clear()
            self._locales[actor.user_id] = actor.locale
        chat = chat_of(interaction.channel_id or 0, interaction.guild,
                       interaction.guild_id, interaction.guild_locale, interaction.channel)
        return actor, chat

    async def _defer(self, interaction: discord.Interaction, *, thinking: bool) -> None:
        """Answer within Discord's 3 s window before any real work."""
        try:
            if thinking:
                defer = interaction.response.defer(ephemeral=True, thinking=True)
            else:
                defer = interaction.response.defer()
            await asyncio.wait_for(defer, render.CALL_TIMEOUT)
        except Exception as exc:
            log.warning("could not defer an interaction: %s", type(exc).__name__)

    async def _dispatch(self, inbound: Inbound, ctx: Context) -> None:
        assert self._renderer is not None
        current = asyncio.current_task()
        if current is not None:
            self._tasks.add(current)
            current.add_done_callback(self._tasks.discard)
        place = self._lines.take(inbound.chat.chat_id)  # in arrival order; rendered in turn (lines.py)
        entered = LEAVE.set(place.leave)  # heavy work may step aside (core/lines.py)
        try:
            try:
                response = await self._handle(inbound)
            except Exception:
                log.exception("handle failed for discord event %s", inbound.event_id)
                response = Response()
            finally:
                LEAVE.reset(entered)
            await place.turn()
            undeleted = await self._renderer.render(response, ctx)
            if undeleted is not None:  # it stays in the channel: the App decides what that means
                told = dataclasses.replace(inbound, undeleted=undeleted, event_id=f"{inbound.event_id}:undeleted",
                                           message=None, edited=None)
                await self._renderer.render(await self._handle(told), Context(actor=ctx.actor))
        finally:
            place.done()

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.error("slash command failed: %s", type(error).__name__, exc_info=error)
        if not interaction.response.is_done():
            with contextlib.suppress(Exception):
                await interaction.response.defer(ephemeral=True)

