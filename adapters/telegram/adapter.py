"""The Telegram adapter: a python-telegram-bot `Application` run inside an
already running asyncio loop (so it can share the process with Discord).

Each chat's updates are handled in order (adapters/telegram/ordering.py). Flood control is the
adapter's `Pacer` (adapters/telegram/outbox.py), which keeps Telegram's limits and retries a 429, so
it delays a reply instead of losing it. A group's messages go out in order from its `Outbox`, where
the replies that pile up while a send waits for its slot are sent as one message; the group's next
update is handled meanwhile. Private replies are sent before the next update of their chat.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import timedelta
from typing import Any
from urllib.parse import urlparse

from telegram import Chat as TgChat
from telegram import (
    ChatMember,
    Message,
    Update,
)
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import AIORateLimiter, Application, BaseRateLimiter, ContextTypes, TypeHandler

from adapters.editmap import EditMap, MemoryEditMap
from adapters.telegram import logsafe
from adapters.telegram.admins import Admins
from adapters.telegram.deeplink import DeepLinks, key_for, linked_chat
from adapters.telegram.hearing import reads_all
from adapters.telegram.inbound import SYSTEM as _SYSTEM_ACTOR
from adapters.telegram.inbound import Seen, actor_of, from_update, remember_users
from adapters.telegram.logsafe import redact, shown
from adapters.telegram.members import Members
from adapters.telegram.menu import bot_commands, set_commands
from adapters.telegram.ordering import ChatOrderedUpdates
from adapters.telegram.outbox import Outbox, Pacer, Pacing
from adapters.telegram.polling import PollState
from adapters.telegram.render import SETTLES_MARK, Renderer, chat_id_of, is_group, thread_of
from adapters.telegram.topics import topic_of
from adapters.telegram.updates import UpdatesRequest
from core.messages import Actor, Chat, CommandInfo, Inbound, Outbound, Response

log = logging.getLogger(__name__)

Handle = Callable[[Inbound], Awaitable[Response]]
# chat_member / my_chat_member: someone became or stopped being an admin (drops the cached list)
# edited_message: a move corrected by editing it (the App takes it once, or says it counted already)
ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "chat_member", "my_chat_member"]
DEFAULT_BASE_URL = "https://api.telegram.org/bot"
MAX_USERNAMES = 100_000
MAX_RETRIES = 5  # RetryAfter retries per call; each waits the time Telegram asks for
DRAIN_TIMEOUT = 10.0  # seconds `stop` lets the groups' queued messages go out


WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # https://core.telegram.org/bots/api#setwebhook secret_token


class TelegramStartError(RuntimeError):
    """The bot could not start (bad token, API unreachable); the text is token-free. `transient`:
    worth starting again (bot/process/platforms.py), as the error it stands for was."""

    def __init__(self, text: str, *, transient: bool = False) -> None:
        super().__init__(text)
        self.transient = transient


class TelegramAdapter:
    """Telegram updates -> `handle` -> Bot API calls. Knows nothing of games."""

    platform = "telegram"

    def __init__(
        self,
        token: str,
        handle: Handle,
        commands: Mapping[str, Sequence[CommandInfo]],
        base_url: str | None = None,
        webhook_url: str | None = None,
        webhook_listen: str = "0.0.0.0",
        webhook_port: int = 8443,
        webhook_secret: str | None = None,
        *,
        rate_limiter: BaseRateLimiter[Any] | None = None,
        poll_timeout: float = 10.0,
        link_key: bytes | None = None,
        link_prefixes: Mapping[str, str] | None = None,  # a game's short deep-link prefix (`GamePlugin.link_prefix`)
        pacing: Pacing | None = None,
        edit_map: EditMap | None = None,
    ) -> None:
        if webhook_url and not webhook_secret:
            # Without a secret anyone who finds the URL could inject updates.
            raise ValueError("webhook mode needs a webhook secret (TELEGRAM_WEBHOOK_SECRET)")
        if webhook_url and not WEBHOOK_SECRET.fullmatch(webhook_secret or ""):
            raise ValueError("TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A-Z a-z 0-9 _ - "
                             "(Telegram's setWebhook refuses any other)")
        self.token = token
        self.handle = handle
        self.commands = commands
        self.base_url = base_url or DEFAULT_BASE_URL
        self.webhook_url = webhook_url
        self.webhook_listen = webhook_listen
        self.webhook_port = webhook_port
        self.webhook_secret = webhook_secret
        # The bot's own pacing and group outboxes unless a test brings its own rate limiter.
        self.pacer = Pacer(pacing or Pacing(max_retries=MAX_RETRIES)) if rate_limiter is None else None
        self.rate_limiter = rate_limiter
        self.poll_timeout = poll_timeout
        self.edit_map = edit_map if edit_map is not None else MemoryEditMap()  # survives a restart when a file
        # Deep links are signed with a key of this installation: by default derived from the token
        # (kept in the settings, so links posted before a restart still work after it).
        self.links = DeepLinks(link_key or key_for(token), link_prefixes)
        self._app: Application[Any, Any, Any, Any, Any, Any] | None = None
        self._renderer: Renderer | None = None
        self._log_filters: list[tuple[logging.Logger, logging.Filter]] = []
        self._seen = Seen()  # @username -> id and the bot accounts, learnt from updates (memory)
        self._last_poll_error = -1e9
        self._admins: Admins | None = None
        self._members: Members | None = None
        self._outbox: Outbox | None = None
        self._ordering = ChatOrderedUpdates()
        self._reads_everywhere = False  # getMe's can_read_all_group_messages: privacy mode is off
        self.polling = PollState()  # a 409 conflict, said once (adapters/telegram/polling.py)

    @property
    def problem(self) -> str | None:
        """What keeps the bot from its updates, in one line (for `python -m bot health`), or None."""
        return self.polling.problem

    @property
    def bot_username(self) -> str | None:
        return self._renderer.bot_username if self._renderer else None

    @staticmethod
    def transient(exc: BaseException) -> bool:
        """Worth starting again (bot/process/platforms.py): the network or Telegram's servers (NetworkError,
        TimedOut, RetryAfter), not a token Telegram refuses (InvalidToken) or a request it refuses
        (BadRequest, which PTB counts among its NetworkErrors)."""
        if isinstance(exc, TelegramStartError):
            return exc.transient
        if isinstance(exc, InvalidToken | BadRequest):
            return False
        return isinstance(exc, NetworkError | RetryAfter | OSError | TimeoutError)

    @property
    def connected(self) -> bool:
        """Fetching updates, with no polling error in the last minute (for `python -m bot health`)."""
        app = self._app
        running = app is not None and app.updater is not None and app.updater.running
        return running and self.polling.problem is None and time.monotonic() - self._last_poll_error > 60.0

    def _build(self) -> Application[Any, Any, Any, Any, Any, Any]:
        limiter = self.rate_limiter or self.pacer or AIORateLimiter(max_retries=MAX_RETRIES)
        self._ordering = ChatOrderedUpdates()
        return (
            Application.builder()
            .token(self.token)
            .base_url(self.base_url)
            .rate_limiter(limiter)
            .get_updates_request(UpdatesRequest(connection_pool_size=1, on_answer=self.polling.answered))
            .concurrent_updates(self._ordering)  # chats and topics in parallel, each in order
            .build()
        )

    async def start(self) -> None:
        """Connect (getMe), publish the command menus, start polling or the webhook.

        Returns once updates are flowing; raises TelegramStartError if the
        bot cannot even identify itself (bad token, API unreachable).
        """
        self._log_filters = logsafe.install(self.token)
        app = self._build()
        app.add_handler(TypeHandler(Update, self._on_update))
        app.add_error_handler(self._on_error)
        try:
            await app.initialize()
        except TelegramError as exc:
            with contextlib.suppress(Exception):
                await app.bot.shutdown()  # close the HTTP connections opened so far
            logsafe.uninstall(self._log_filters)
            raise TelegramStartError(
                f"Telegram bot could not start: {type(exc).__name__}: {redact(exc, self.token)}",
                transient=self.transient(exc)) from None
        self._app = app
        self._renderer = Renderer(app.bot, self.token, self.links, self.edit_map)
        self._renderer.on_gone = self._topic_gone
        if self.pacer is not None:
            self._outbox = Outbox(self._renderer.deliver, self.pacer)
            self._renderer.route = self._deliver
        self._admins = Admins(app.bot.get_chat_administrators)
        self._reads_everywhere = bool(app.bot.can_read_all_group_messages)
        self._renderer.on_migrated = self._migrated
        self._members = Members(app.bot.get_chat_member)
        await set_commands(app.bot, self.commands, self.token)
        await app.start()
        assert app.updater is not None
        try:
            if self.webhook_url:
                await app.updater.start_webhook(
                    listen=self.webhook_listen,
                    port=self.webhook_port,
                    url_path=urlparse(self.webhook_url).path.lstrip("/"),
                    webhook_url=self.webhook_url,
                    secret_token=self.webhook_secret,
                    allowed_updates=ALLOWED_UPDATES,
                )
            else:
                await self._warn_of_webhook()
                await app.updater.start_polling(
                    timeout=timedelta(seconds=self.poll_timeout),
                    allowed_updates=ALLOWED_UPDATES,
                    error_callback=self._on_poll_error,
                )
        except Exception as exc:  # e.g. the webhook port is taken
            await self.stop()
            raise TelegramStartError(
                f"Telegram updates could not start: {type(exc).__name__}: "
                f"{redact(exc, self.token)}", transient=self.transient(exc)) from None
        log.info("Telegram bot @%s running (%s)", self.bot_username,
                 "webhook" if self.webhook_url else "polling")

    async def _warn_of_webhook(self) -> None:
        """Polling starts by deleting the token's webhook (python-telegram-bot's bootstrap): where one
        is set, another deployment in webhook mode gets no more updates, so say it once, at start."""
        assert self._app is not None
        try:
            info = await self._app.bot.get_webhook_info()
        except TelegramError:
            return
        if info.url:
            log.warning("Telegram: a webhook was set for this bot token (at %s); polling removes it, so a "
                        "deployment in webhook mode gets no more updates", urlparse(info.url).hostname)

    async def stop(self) -> None:
        """Stop fetching, let the update in progress finish and the groups' queued messages go out
        (for at most DRAIN_TIMEOUT seconds), release the connections."""
        app, self._app = self._app, None
        if app is None:
            return
        try:
            if app.updater is not None and app.updater.running:
                await app.updater.stop()
            if app.running:
                await app.stop()
            await self._ordering.drain(DRAIN_TIMEOUT)  # the updates fetched so far are answered
            if self._outbox is not None:
                await self._outbox.close(DRAIN_TIMEOUT)
            await app.shutdown()
        except Exception as exc:  # stopping must not crash the process that hosts us
            log.warning("Telegram adapter stop: %s", redact(exc, self.token))
        finally:
            logsafe.uninstall(self._log_filters)
            self._log_filters = []

    async def send(self, messages: Sequence[Outbound]) -> None:
        """Deliver messages no update asked for (e.g. a game that timed out)."""
        if self._renderer is None:
            return
        for out in messages:
            await self._deliver(out)

    async def _deliver(self, out: Outbound) -> bool:
        """Every message goes to its chat's outbox, sent in order from there: a group's (and a forum
        topic's) may be joined with others, a private chat's go one by one. So an upload of several
        seconds never holds up the update being handled, nor the chat's next one (ordering.py)."""
        if self._outbox is not None:
            self._outbox.post(self._outbox_key(out.to), out)
            return True
        assert self._renderer is not None
        return await self._renderer.deliver(out)

    @staticmethod
    def _outbox_key(to: Chat | Actor) -> int | str:
        """One outbox per group, per forum topic (its messages join only the topic's; paced as the
        group) and per private chat."""
        return to.chat_id if isinstance(to, Chat) and is_group(to) and thread_of(to) is not None else chat_id_of(to)

    async def _on_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """One update: translate, hand to the App, render the Response; never raise."""
        renderer = self._renderer
        if renderer is None:
            return
        if len(self._seen) > MAX_USERNAMES:
            self._seen.clear()
        remember_users(update, self._seen, renderer.bot_id)
        changed = update.chat_member or update.my_chat_member
        if changed is not None and self._admins is not None:
            self._admins.forget(changed.chat.id)
        if changed is not None and self._members is not None:
            self._members.forget(changed.chat.id, changed.new_chat_member.user.id)
        if update.my_chat_member is not None:  # the bot's own membership: removed, muted, back
            await self._bot_status(update.my_chat_member.chat, update.my_chat_member.new_chat_member)
            return
        self._note_general(update.message)
        inbound = from_update(update, renderer.bot_username, self._seen, self.links)
        query = update.callback_query
        if inbound is None:
            if query is not None:
                await renderer.answer_callback(query.id, None)
            return
        inbound = await self._with_admin(inbound)
        inbound = await self._with_membership(inbound)
        inbound = await self._with_hearing(inbound, update.message)
        try:
            response = await self.handle(inbound)
        except Exception as exc:
            # The App apologises to users itself; this is a bug, logged without texts.
            log.error("handle() failed for update %s in chat %s: %s", update.update_id,
                      shown(inbound.chat.chat_id), type(exc).__name__, exc_info=exc)
            response = Response()
        if query is not None:
            await renderer.answer_callback(query.id, response.notice)
            settled = bool(query.data) and str(query.data).startswith(SETTLES_MARK)
            if response.notice is None and settled and query.message is not None:
                # an accepted press of a button its presenter made settling: the keyboard no longer applies
                chat_id, message_id = query.message.chat.id, query.message.message_id
                if self._outbox is not None:  # after the chat's (the topic's) queued messages
                    key = inbound.chat.chat_id if thread_of(inbound.chat) is not None else chat_id
                    self._outbox.post(key, lambda: renderer.withdraw(chat_id, message_id), low=True)
                else:
                    await renderer.withdraw(chat_id, message_id)
        message = update.message or update.edited_message
        undeleted = None
        if message is not None and response.delete_inbound:
            undeleted = await renderer.delete(message.chat_id, message.message_id, message.date)
        for out in response.messages:
            await self._deliver(out)
        if undeleted is not None:  # it stays in the group: the App decides what that means
            await self._undeleted(inbound, undeleted)
        if inbound.chat.private and inbound.text is not None and inbound.command is None \
                and inbound.action is None:
            # Private input a game took and announced in its group (a secret set by typing):
            # that game's prompt keyboards in this chat ("Random code") no longer apply.
            groups = {chat_id_of(out.to) for out in response.messages if is_group(out.to)}
            if groups and self._outbox is not None:  # after the chat's queued messages
                private = chat_id_of(inbound.chat)
                self._outbox.post(private, lambda: renderer.settle_prompts(private, groups), low=True)
            elif groups:
                await renderer.settle_prompts(chat_id_of(inbound.chat), groups)
        if query is None and response.notice:
            await renderer.notice(
                response.notice, inbound.actor, inbound.chat,
                message.message_id if message is not None and not response.delete_inbound else None,
            )

    async def _undeleted(self, inbound: Inbound, why: str) -> None:
        """Tell the App that a message it asked to delete stays visible (`Inbound.undeleted`), and
        deliver its answer."""
        told = dataclasses.replace(inbound, undeleted=why, event_id=f"{inbound.event_id}:undeleted",
                                   message=None, edited=None)
        try:
            response = await self.handle(told)
        except Exception as exc:
            log.error("handle() failed for an undeleted message in chat %s: %s", shown(inbound.chat.chat_id),
                      type(exc).__name__, exc_info=exc)
            return
        for out in response.messages:
            await self._deliver(out)

    async def _bot_status(self, chat: TgChat, member: ChatMember) -> None:
        """The bot's status in a group changed (`my_chat_member`, https://core.telegram.org/bots/api#update):
        removed ("kicked": banned, or "left") or muted (restricted without `can_send_messages`) — the group's
        games end and nothing more is sent there (`_silence`); added again or its rights back — it may write."""
        if chat.type == TgChat.PRIVATE or self._renderer is None:
            return  # a private chat: the user blocked or unblocked the bot (sends there fail by themselves)
        status = member.status
        if status in (ChatMember.LEFT, ChatMember.BANNED):
            await self._silence(chat.id, "removed")
        elif status == ChatMember.RESTRICTED and not getattr(member, "can_send_messages", True):
            await self._silence(chat.id, "muted")
        elif self._renderer.silenced.pop(chat.id, None) is not None:
            log.info("Telegram: the bot may write in chat %s again", chat.id)

    def _note_general(self, message: Message | None) -> None:
        """A forum's General hidden (closed with it) or closed: nothing goes there until it is reopened."""
        if message is None or self._renderer is None or not message.chat.is_forum or topic_of(message) is not None:
            return
        if message.general_forum_topic_hidden is not None or message.forum_topic_closed is not None:
            self._renderer.closed_general.add(message.chat.id)
        elif message.forum_topic_reopened is not None:
            self._renderer.closed_general.discard(message.chat.id)

    async def _silence(self, group: int | str, why: str) -> None:
        """The bot may not write in `group` any more ("removed", "muted"): the App ends the games of the
        group and of its topics and tells their players privately; nothing more is sent there."""
        assert self._renderer is not None
        if self._renderer.silenced.get(group) == why:
            return
        self._renderer.silenced[group] = why
        log.warning("Telegram: the bot was %s in chat %s; its games there end, nothing more is sent there",
                    "removed" if why == "removed" else "muted", group)
        await self._closed(Chat(platform=self.platform, chat_id=str(group), private=False), why)

    async def _topic_gone(self, chat: Chat, why: str) -> None:
        """Telegram refused a send to a forum topic that is closed or deleted (or to a group the bot was
        removed from or muted in): the App hears it as it hears a `forum_topic_closed` (its games there
        end, their players are told) and what it answers goes out (privately, or in General)."""
        if why in ("removed", "muted"):
            await self._silence(chat_id_of(chat), why)  # the whole group, said once
            return
        if why == "closed" and self._renderer is not None and thread_of(chat) is None:
            self._renderer.closed_general.add(chat_id_of(chat))
        await self._closed(chat, why)

    async def _closed(self, chat: Chat, why: str) -> None:
        """The App hears that nobody can play in `chat` any more (`Inbound.closed`); its answer goes out."""
        try:
            response = await self.handle(Inbound(actor=actor_of(None), chat=chat,
                                                 closed=why))
        except Exception as exc:
            log.error("handle() failed for the closed topic %s: %s", chat.chat_id, type(exc).__name__,
                      exc_info=exc)
            return
        for out in response.messages:
            await self._deliver(out)

    async def _with_admin(self, inbound: Inbound) -> Inbound:
        """A command in a group carries whether its sender administers the group (the App lets a
        chat admin act like a game's organiser). Only commands: plain texts and presses never ask."""
        if self._admins is None or inbound.command is None or inbound.chat.private or inbound.actor.as_chat:
            return inbound  # a post as a chat: `chat_actor` has said whether it is the group's admin
        try:
            admin = await self._admins.is_admin(chat_id_of(inbound.chat), int(inbound.actor.user_id))
        except ValueError:
            return inbound
        if not admin:
            return inbound
        return dataclasses.replace(inbound, actor=dataclasses.replace(inbound.actor, is_admin=True))

    async def _with_membership(self, inbound: Inbound) -> Inbound:
        """A chat's deep link followed privately carries whether its follower is in that chat (the
        App refuses a daily attempt to someone outside it); a fact, never a decision."""
        chat_id = linked_chat(inbound.action) if inbound.action and inbound.chat.private else None
        if self._members is None or chat_id is None:
            return inbound
        try:
            member = await self._members.is_member(chat_id, int(inbound.actor.user_id))
        except ValueError:
            return inbound
        return dataclasses.replace(inbound, member=member)

    async def _with_hearing(self, inbound: Inbound, message: object) -> Inbound:
        """A group's inbound carries whether the bot receives the group's plain messages (privacy
        mode, adapters/telegram/hearing.py): the App words its prompts for it."""
        if inbound.chat.private or inbound.migrate_to or self._renderer is None:
            return inbound  # (a migration names the old group, which answers nothing any more)
        chat_id = chat_id_of(inbound.chat)  # a forum topic's group: privacy mode is the group's
        if not isinstance(chat_id, int):
            return inbound
        heard = await reads_all(self._admins, self._reads_everywhere, chat_id, self._renderer.bot_id,
                                self._renderer.bot_username, message if isinstance(message, Message) else None)
        return dataclasses.replace(inbound, reads_all=heard)

    async def _migrated(self, old: int | str, new: int) -> None:
        """A send found the group upgraded to a supergroup (Telegram's `migrate_to_chat_id`), maybe
        the first sign of it: the App moves the chat's games and settings as for the service message."""
        chat = Chat(platform=self.platform, chat_id=str(old), private=False)
        await self.handle(Inbound(actor=_SYSTEM_ACTOR, chat=chat, migrate_to=str(new)))

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """PTB's error handler: log without token, keep serving."""
        exc = context.error
        log.error("Telegram update failed: %s: %s", type(exc).__name__, redact(exc, self.token))

    def _on_poll_error(self, exc: TelegramError) -> None:
        """Polling hiccups (network, 5xx): PTB retries; we only log them, redacted. A 409 conflict
        (another poller, a webhook) is said once (`PollState`), not at every retry."""
        self._last_poll_error = time.monotonic()
        if not self.polling.failed(exc):
            log.warning("Telegram polling error: %s: %s", type(exc).__name__, redact(exc, self.token))


__all__ = ["TelegramAdapter", "TelegramStartError", "bot_commands", "chat_id_of"]
