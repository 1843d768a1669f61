"""Neutral `Response`s → Discord calls, with the private-message fallbacks.

Order matters for secrecy and latency: a message holding a secret is deleted
first, then the actor's notice answers the interaction, then the messages go
out. A private message that cannot be delivered as a DM goes to the
group `fallback` is posted when it has one (its buttons outlive an ephemeral
message), else it goes to the interaction as an ephemeral followup when its
recipient is the one who interacted. Every Discord failure is
logged (never with the text, which may hold a secret) and survived.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from core.messages import Actor, Chat, Outbound, Response

from .components import make_view

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
DM_CLOSED = 50007
PING = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
NO_PING = discord.AllowedMentions.none()


@dataclass
class Context:
    """What the response answers: an interaction or a channel message, and by whom."""

    actor: Actor
    interaction: discord.Interaction | None = None
    message: discord.Message | None = None
    private_replies: bool = False  # a modal submit: replies to the actor stay ephemeral
    thinking: bool = False  # deferred with a visible "thinking" placeholder
    answered: bool = False  # a followup replaced the placeholder

    @property
    def in_guild(self) -> bool:
        source = self.interaction or self.message
        return source is not None and source.guild is not None


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split at line breaks into chunks Discord accepts (the last one carries buttons)."""
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current:
        chunks.append(current)
    return chunks


def _api_error(what: str, exc: BaseException) -> None:
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

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self.edits: dict[str, tuple[int, int]] = {}  # edit_key -> (channel id, message id)
        self.prompts: dict[str, str] = {}  # action -> modal prompt, for prompt buttons

    # ----------------------------------------------------------- response
    async def render(self, response: Response, ctx: Context) -> None:
        if response.delete_inbound and ctx.message is not None:
            await self.delete(ctx.message)
        if response.notice:
            await self.notice(response.notice, ctx)
        for out in response.messages:
            try:
                await self.send(out, ctx)
            except Exception:  # a bug must not lose the remaining messages
                log.exception("rendering a message failed")
        await self.finish(ctx)

    async def finish(self, ctx: Context) -> None:
        """Remove an unanswered "thinking…" placeholder so no interaction hangs."""
        if ctx.interaction is not None and ctx.thinking and not ctx.answered:
            try:
                await ctx.interaction.delete_original_response()
            except Exception as exc:
                _api_error("deleting the deferred reply", exc)
            ctx.answered = True

    async def delete(self, message: discord.Message) -> None:
        try:
            await message.delete()
        except discord.Forbidden:
            log.info("no permission to delete a message in channel %s", message.channel.id)
        except Exception as exc:
            _api_error("deleting a message", exc)

    async def notice(self, text: str, ctx: Context) -> None:
        """A short answer for the actor alone: ephemeral, else DM, else a reply."""
        if ctx.interaction is not None:
            await self.followup(ctx, text)
            return
        if ctx.message is None:
            return
        if ctx.message.guild is None:
            await self._post(ctx.message.channel, text)
            return
        if await self._dm(ctx.actor.user_id, text) is None:
            await self._post(ctx.message.channel, f"<@{ctx.actor.user_id}> {text}",
                             reference=ctx.message)

    # ----------------------------------------------------------- messages
    async def send(self, out: Outbound, ctx: Context) -> None:
        if isinstance(out.to, Chat):
            await self._to_chat(out, out.to)
            return
        await self._to_actor(out, out.to, ctx)

    async def _to_chat(self, out: Outbound, chat: Chat) -> None:
        channel = self._client.get_partial_messageable(int(chat.chat_id))
        if out.edit_key and out.edit_key in self.edits:
            channel_id, message_id = self.edits[out.edit_key]
            fits = channel_id == channel.id and len(out.text) <= MAX_CONTENT
            if fits and await self._edit(channel, message_id, out):
                return
        sent = await self._post(channel, out.text, out)
        if sent is not None and out.edit_key:
            self.edits[out.edit_key] = (channel.id, sent.id)

    async def _to_actor(self, out: Outbound, actor: Actor, ctx: Context) -> None:
        mine = ctx.interaction is not None and actor.user_id == ctx.actor.user_id
        if mine and ctx.private_replies and ctx.in_guild:
            await self.followup(ctx, out.text, out)
            return
        if await self._dm(actor.user_id, out.text, out) is not None:
            return
        if out.fallback is not None:
            # the group fallback's buttons (e.g. a modal) outlive an ephemeral message
            await self.send(out.fallback, ctx)
        elif mine and ctx.in_guild:
            await self.followup(ctx, out.text, out)
        else:
            log.info("a private message to user %s could not be delivered", actor.user_id)

    async def followup(self, ctx: Context, text: str, out: Outbound | None = None) -> None:
        """An ephemeral followup to the interaction being answered."""
        interaction = ctx.interaction
        assert interaction is not None
        self._remember_prompts(out)
        chunks = split_content(text)
        for index, chunk in enumerate(chunks):
            kwargs = self._extras(out if index == len(chunks) - 1 else None)
            try:
                await interaction.followup.send(chunk or "\u200b", ephemeral=True, **kwargs)
                ctx.answered = True
            except Exception as exc:
                _api_error("an interaction followup", exc)
                return

    async def _dm(self, user_id: str, text: str, out: Outbound | None = None) -> Any:
        """Send privately; None when the user cannot be reached (DMs closed, unknown)."""
        try:
            channel = await self._client.create_dm(discord.Object(id=int(user_id)))
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
            kwargs = self._extras(out if index == len(chunks) - 1 else None)
            if reference is not None:
                kwargs["reference"] = reference
                kwargs["mention_author"] = False
            try:
                sent = await channel.send(chunk or None, **kwargs)
            except discord.Forbidden as exc:
                if quiet_forbidden and exc.code == DM_CLOSED:
                    log.info("DMs closed for a user; using the fallback")
                else:
                    _api_error("sending a message", exc)
                return None
            except Exception as exc:
                _api_error("sending a message", exc)
                return None
        return sent

    async def _edit(
        self, channel: discord.PartialMessageable, message_id: int, out: Outbound
    ) -> bool:
        self._remember_prompts(out)
        kwargs: dict[str, Any] = {"content": out.text or None, "view": make_view(out.buttons),
                                  "allowed_mentions": NO_PING}
        if out.image is not None or out.file is not None:
            kwargs["attachments"] = _files(out)
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
            return True
        except Exception as exc:
            _api_error("editing a message", exc)
            return False

    def _extras(self, out: Outbound | None) -> dict[str, Any]:
        # Player names may be mentions (<@id>): they always render as names, but only
        # a message that asks someone to act (it has buttons) pings them.
        extras: dict[str, Any] = {"allowed_mentions": PING if out and out.buttons else NO_PING}
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

    def _remember_prompts(self, out: Outbound | None) -> None:
        if out is None:
            return
        for row in out.buttons:
            for button in row:
                if button.prompt:
                    self.prompts[button.action] = button.prompt
