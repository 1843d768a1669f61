"""Neutral `Outbound` -> Bot API calls, with the Telegram fallbacks.

- Actor-bound messages go to the user's private chat; when Telegram refuses
  (403: the user never started the bot) the `fallback` is posted in the group,
  its prompt buttons turned into signed deep links `t.me/<bot>?start=<payload>`
  (adapters/telegram/deeplink.py).
- `edit_key` messages are edited in place when the message id is known.
- What Telegram measures, the renderer measures alike: texts in UTF-16 code units (4,096 a
  message, 1,024 a caption, 200 an alert), callback data in bytes (64).
- A message Telegram refuses with 400 is said another way — its text alone, without keyboard,
  picture or file (link buttons become lines of text), in shorter parts — rather than lost.
- Keyboards that no longer apply are taken off their messages (`withdraw`, `settle_prompts`): a
  button the App marks `settles` carries that mark in its callback data (`SETTLES_MARK`).
- Every failure is logged (token redacted, never a text) and survived.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity, User
from telegram import Message as TgMessage
from telegram.constants import MessageLimit
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, TelegramError

from adapters.editmap import EditMap, MemoryEditMap
from adapters.telegram.deeplink import DeepLinks
from adapters.telegram.logsafe import redact, shown
from adapters.telegram.topics import gone, target
from core.messages import Actor, Chat, Outbound, OutButton

log = logging.getLogger(__name__)
MAX_CALLBACK_DATA = 64  # bytes, Telegram's limit for callback data
DELETE_WINDOW = timedelta(hours=48)  # a message sent longer ago cannot be deleted (Bot API deleteMessage)
TRANSIENT_PAUSES = (0.5, 1.0, 2.0)  # seconds before each retry of a transiently failed send

MAX_TEXT = MessageLimit.MAX_TEXT_LENGTH  # 4096
MAX_CAPTION = MessageLimit.CAPTION_LENGTH  # 1024
MAX_ALERT = 200  # answerCallbackQuery text limit
MAX_EDIT_KEYS = 10_000
MAX_PROMPTS = 10_000
PLAIN_PART = 2048  # the parts of a text said another way after a 400
# The callback data of a button whose presenter says it settles its message (`OutButton.settles`):
# `!<action>`. The mark is outside the actions' alphabet; the press carries it back, so a keyboard
# posted before a restart is still taken away when it is used (adapters/telegram/inbound.py).
SETTLES_MARK = "!"


def callback_data(button: OutButton) -> str:
    """What Telegram keeps for a plain button and sends back when it is pressed."""
    return SETTLES_MARK + button.action if button.settles else button.action


def length(text: str) -> int:
    """Telegram's measure of a text: UTF-16 code units (an emoji outside the BMP counts two)."""
    return len(text.encode("utf-16-le")) // 2


def cut(text: str, size: int) -> str:
    """The longest head of `text` that is at most `size` UTF-16 units (never half a character)."""
    if length(text) <= size:
        return text
    units = 0
    for index, char in enumerate(text):
        units += 2 if ord(char) > 0xFFFF else 1
        if units > size:
            return text[:index]
    return text


def mentions(out: Outbound) -> tuple[str, list[MessageEntity]]:
    """The text with its mentioned users in front, each name a `text_mention` entity of that user — the
    Bot API's mention of a user by id, with or without a username: https://core.telegram.org/bots/api#messageentity
    ("text_mention" … "user: For text_mention only, the mentioned user"; offset and length in UTF-16
    code units). Only a group message that names its users (`Outbound.mention_names`) mentions anyone."""
    if not out.mention_names or not is_group(out.to) or len(out.mention_names) != len(out.mention):
        return out.text, []
    head, entities = "", []
    for uid, name in zip(out.mention, out.mention_names, strict=True):
        if not uid.lstrip("-").isdigit() or not name.strip():
            continue
        shown = cut(name.strip(), 64)
        if head:
            head += ", "
        entities.append(MessageEntity(MessageEntity.TEXT_MENTION, length(head), length(shown),
                                      user=User(int(uid), shown, False)))
        head += shown
    return (f"🔔 {head}\n{out.text}" if head else out.text), [
        MessageEntity(e.type, e.offset + length("🔔 "), e.length, user=e.user) for e in entities]


def chat_id_of(to: Chat | Actor) -> int | str:
    """The Bot API chat_id: numeric ids as int, "@channel" names as they are (a forum topic's: its group's)."""
    return target(to)[0]


def thread_of(to: Chat | Actor) -> int | None:
    """The Bot API message_thread_id of a forum topic's chat; None for any other (General included)."""
    return target(to)[1]


def moved_to(out: Outbound, new: int) -> Outbound:
    """A group's message (and its fallback) addressed to the supergroup the group became."""
    assert isinstance(out.to, Chat)
    return replace(out, to=replace(out.to, chat_id=str(new)))


def is_group(to: Chat | Actor) -> bool:
    return isinstance(to, Chat) and not to.private


def deep_link(bot_username: str, links: DeepLinks, action: str) -> str | None:
    """The signed `t.me` link for a prompt button's action; None if it cannot be linked."""
    payload = links.encode(action)
    return f"https://t.me/{bot_username}?start={payload}" if payload else None


def keyboard(
    buttons: Sequence[Sequence[OutButton]], *, bot_username: str | None, links: DeepLinks | None
) -> InlineKeyboardMarkup | None:
    """Inline keyboard; with `links` (a group), prompt buttons lead to the private chat by deep
    link (text typed there is private; in a private chat a press is enough)."""
    rows: list[list[InlineKeyboardButton]] = []
    for row in buttons:
        out_row = []
        for button in row:
            url = (deep_link(bot_username, links, button.action)
                   if button.prompt is not None and links is not None and bot_username else None)
            if button.url:
                out_row.append(InlineKeyboardButton(button.label, url=button.url))
            elif url:
                out_row.append(InlineKeyboardButton(button.label, url=url))
            elif len(callback_data(button).encode()) <= MAX_CALLBACK_DATA:
                out_row.append(InlineKeyboardButton(button.label, callback_data=callback_data(button)))
            else:  # Telegram would refuse the whole message for one over-long button
                log.error("button %r dropped: its action id is longer than %d bytes", button.label,
                          MAX_CALLBACK_DATA)
        if out_row:
            rows.append(out_row)
    return InlineKeyboardMarkup(rows) if rows else None


def chunks(text: str, size: int = MAX_TEXT) -> list[str]:
    """Split a long text at line breaks where possible; Telegram caps messages at 4096 UTF-16 units."""
    parts: list[str] = []
    while length(text) > size:
        head = cut(text, size)
        at = head.rfind("\n")
        if at <= 0:
            at = len(head)
        parts.append(text[:at])
        text = text[at:].lstrip("\n")
    if text:
        parts.append(text)
    return parts


def unreachable(exc: TelegramError) -> bool:
    """The user cannot be messaged privately (never started the bot, blocked it, unknown)."""
    if isinstance(exc, Forbidden):
        return True
    return isinstance(exc, BadRequest) and "chat not found" in exc.message.lower()


class Renderer:
    """Sends Outbounds through one PTB bot; remembers which message shows an edit_key (adapters/editmap.py:
    in a file next to the database when the bot runs, so a restart still edits the same message)."""

    def __init__(self, bot: Bot, token: str, links: DeepLinks, edits: EditMap | None = None) -> None:
        self.bot = bot
        self.token = token
        self.links = links
        self._edits: EditMap = edits if edits is not None else MemoryEditMap(MAX_EDIT_KEYS)
        # How a fallback reaches its group: the adapter routes it through the group's outbox.
        self.route: Callable[[Outbound], Awaitable[bool]] = self.deliver
        # private chat -> its prompts with a keyboard: (message id, the game's group chat id)
        self._prompts: OrderedDict[int | str, list[tuple[int, int | str]]] = OrderedDict()
        # told when Telegram refuses a send to a forum topic that is closed or deleted (the adapter tells the App)
        self.on_gone: Callable[[Chat, str], Awaitable[object]] | None = None
        # groups upgraded to supergroups (Telegram said so answering a send): old id -> new id
        self.moved: OrderedDict[int | str, int] = OrderedDict()
        self.on_migrated: Callable[[int | str, int], Awaitable[None]] | None = None  # the App moves its data
        # groups the bot may not write in (removed or muted: adapter.py `_silence`) -> why; nothing is sent there
        self.silenced: dict[int | str, str] = {}
        self.closed_general: set[int | str] = set()  # forums whose General is closed (or hidden): nothing is sent there

    @property
    def bot_id(self) -> int | None:
        try:
            return self.bot.id
        except RuntimeError:  # not initialised (getMe not done)
            return None

    @property
    def bot_username(self) -> str | None:
        try:
            return self.bot.username
        except RuntimeError:  # not initialised (getMe not done)
            return None

    def _log_failure(self, what: str, chat_id: int | str, exc: BaseException) -> None:
        log.warning("Telegram %s to chat %s failed: %s: %s",
                    what, shown(chat_id), type(exc).__name__, redact(exc, self.token))

    def barred(self, to: Chat | Actor) -> bool:
        """A group the bot may not write in (removed or muted), or a forum's closed General: nothing goes there."""
        if not is_group(to):
            return False
        chat_id = chat_id_of(to)
        return chat_id in self.silenced or (thread_of(to) is None and chat_id in self.closed_general)

    async def deliver(self, out: Outbound) -> bool:
        """Send one Outbound (or its fallback); True when something reached the chat."""
        chat_id = chat_id_of(out.to)
        if self.barred(out.to):
            log.debug("nothing sent to chat %s: the bot may not write there", shown(chat_id))
            return False
        if chat_id in self.moved and isinstance(out.to, Chat):
            return await self.route(moved_to(out, self.moved[chat_id]))
        try:
            sent = await self._send_retrying(out, chat_id)
        except ChatMigrated as exc:
            return await self._migrated(out, chat_id, int(exc.new_chat_id))
        except TelegramError as exc:
            if isinstance(out.to, Actor) and unreachable(exc):
                if out.fallback is not None:
                    log.info("a user is unreachable privately; posting the fallback")  # no id in the log (issue 36)
                    return await self.route(out.fallback)
                log.info("a user is unreachable privately; message dropped")
                return False
            topic = out.to if isinstance(out.to, Chat) and is_group(out.to) else None  # General may be closed too
            why = gone(exc) if topic is not None else None
            if topic is not None and why is not None:  # said another way it would be refused alike
                self._log_failure("send", chat_id, exc)
                if self.on_gone is not None:  # the App is told: the games there end, their players hear it
                    await self.on_gone(topic, why)
                return False
            if isinstance(exc, BadRequest):
                return await self._say_plainly(out, chat_id, exc)
            self._log_failure("send", chat_id, exc)
            return False
        except Exception as exc:  # a bug or a transport surprise: survive it
            self._log_failure("send", chat_id, exc)
            return False
        if sent is not None and out.buttons and isinstance(out.to, Actor) and out.fallback is not None:
            self._remember_prompt(chat_id, sent.message_id, chat_id_of(out.fallback.to))
        return True

    async def _migrated(self, out: Outbound, old: int | str, new: int) -> bool:
        """The group became a supergroup (400 with `migrate_to_chat_id`,
        https://core.telegram.org/bots/api#responseparameters): its messages go to the new id from now
        on, this one too, and the App moves the chat's data — also when this is the first sign of it."""
        first = old not in self.moved
        self.moved[old] = new
        while len(self.moved) > MAX_EDIT_KEYS:
            self.moved.popitem(last=False)
        if first:
            log.info("Telegram chat %s is now supergroup %s; its messages go there", old, new)
            if self.on_migrated is not None:
                await self.on_migrated(old, new)
        if not isinstance(out.to, Chat):
            return False
        return await self.route(moved_to(out, new))

    async def _say_plainly(self, out: Outbound, chat_id: int | str, refusal: BadRequest) -> bool:
        """Telegram refused the message (400): say it another way rather than lose it — the text
        alone in shorter parts, link buttons as lines, no keyboard, picture or file."""
        log.warning("Telegram refused a message to chat %s (%s); sending it as plain text",
                    shown(chat_id), redact(refusal, self.token))
        links = [f"{b.label}: {b.url}" for row in out.buttons for b in row if b.url]
        text = "\n".join([out.text, *links]).strip()
        if not text:
            return False
        try:
            for part in chunks(text, PLAIN_PART):
                await self.bot.send_message(chat_id=chat_id, text=part, message_thread_id=thread_of(out.to))
        except TelegramError as exc:
            self._log_failure("plain send", chat_id, exc)
            return False
        return True

    def _remember_prompt(self, chat_id: int | str, message_id: int, group: int | str) -> None:
        self._prompts.setdefault(chat_id, []).append((message_id, group))
        self._prompts.move_to_end(chat_id)
        while len(self._prompts) > MAX_PROMPTS:
            self._prompts.popitem(last=False)

    async def settle_prompts(self, chat_id: int | str, groups: set[int | str]) -> None:
        """The user's private input was taken by a game of one of `groups` (the game told its
        group): the keyboards of that game's prompts in the private chat no longer apply."""
        prompts = self._prompts.get(chat_id, [])
        done = [p for p in prompts if p[1] in groups]
        if not done:
            return
        self._prompts[chat_id] = [p for p in prompts if p[1] not in groups]
        for message_id, _ in done:
            await self.withdraw(chat_id, message_id)

    async def withdraw(self, chat_id: int | str, message_id: int) -> None:
        """Take the keyboard off a message whose buttons no longer apply."""
        prompts = self._prompts.get(chat_id)
        if prompts:
            self._prompts[chat_id] = [p for p in prompts if p[0] != message_id]
        try:
            await self.bot.edit_message_reply_markup(chat_id=chat_id, message_id=message_id)
        except BadRequest as exc:
            if "not modified" not in exc.message.lower():
                self._log_failure("keyboard removal", chat_id, exc)
        except TelegramError as exc:
            self._log_failure("keyboard removal", chat_id, exc)

    async def _send_retrying(self, out: Outbound, chat_id: int | str) -> TgMessage | None:
        """A transient failure (a timeout, a 5xx of the Bot API) is retried a few times with growing
        pauses; updates wait meanwhile, so the order per chat holds. Then it gives up, says so in
        the log, and the bot goes on serving. (429s are retried by the rate limiter.)"""
        for attempt, pause in enumerate(TRANSIENT_PAUSES, start=1):
            try:
                return await self._send(out, chat_id)
            except BadRequest:
                raise
            except NetworkError as exc:
                log.warning("Telegram send to chat %s failed (%s), attempt %d; retrying in %.1f s",
                            shown(chat_id), type(exc).__name__, attempt, pause)
                await asyncio.sleep(pause)
        try:
            return await self._send(out, chat_id)
        except NetworkError as exc:
            if not isinstance(exc, BadRequest):
                log.error("Telegram send to chat %s: gave up after %d attempts: %s", shown(chat_id),
                          len(TRANSIENT_PAUSES) + 1, redact(exc, self.token))
            raise

    async def _send(self, out: Outbound, chat_id: int | str) -> TgMessage | None:
        markup = keyboard(out.buttons, bot_username=self.bot_username,
                          links=self.links if is_group(out.to) else None)
        key = f"{chat_id}|{out.edit_key}" if out.edit_key else None
        known = self._edits.get(key) if key is not None else None
        editable = out.image is None and out.file is None and length(out.text) <= MAX_TEXT
        if key is not None and known is not None and editable \
                and await self._try_edit(chat_id, known[1], out.text, markup):
            return None
        sent = await self._send_new(out, chat_id, markup)
        if key is not None and sent is not None:
            self._edits.set(key, (sent.chat.id, sent.message_id))
        return sent

    async def _try_edit(
        self, chat_id: int | str, message_id: int, text: str, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Edit in place; False (send anew) when the message is gone or not editable."""
        try:
            await self.bot.edit_message_text(
                text=text, chat_id=chat_id, message_id=message_id, reply_markup=markup
            )
            return True
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return True
            self._log_failure("edit", chat_id, exc)
            return False

    async def _send_new(
        self, out: Outbound, chat_id: int | str, markup: InlineKeyboardMarkup | None
    ) -> TgMessage | None:
        """Send text (split if long), a photo or a document; the keyboard rides on the last part. In a
        forum topic, each into that topic."""
        thread = thread_of(out.to)
        if out.file is not None:
            name, data = out.file
            if out.image is not None:  # both: the picture first, the file carries the text
                await self.bot.send_photo(chat_id=chat_id, photo=out.image, message_thread_id=thread)
            caption = out.text if length(out.text) <= MAX_CAPTION else None
            document = await self.bot.send_document(
                chat_id=chat_id, document=data, filename=name, caption=caption or None, message_thread_id=thread,
                reply_markup=markup if caption is not None or not out.text else None,
            )
            if caption is not None or not out.text:
                return document
        elif out.image is not None:
            caption = out.text if length(out.text) <= MAX_CAPTION else None
            photo = await self.bot.send_photo(
                chat_id=chat_id, photo=out.image, caption=caption or None, message_thread_id=thread,
                reply_markup=markup if caption is not None or not out.text else None,
            )
            if caption is not None or not out.text:
                return photo
        text, entities = mentions(out)
        parts = chunks(text)
        sent: TgMessage | None = None
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            sent = await self.bot.send_message(
                chat_id=chat_id, text=part, reply_markup=markup if last else None, message_thread_id=thread,
                entities=[e for e in entities if e.offset + e.length <= length(part)] or None if index == 0 else None,
            )
        return sent

    async def notice(self, text: str, actor: Actor, chat: Chat, reply_to: int | None) -> None:
        """A note for one user about their message: privately, else in the chat as a reply. A post on behalf
        of a chat (an anonymous admin, a channel) has nobody to tell privately: in the chat, in its topic."""
        if chat.private:
            await self.deliver(Outbound(to=chat, text=text))
            return
        if not actor.as_chat:
            try:
                await self.bot.send_message(chat_id=chat_id_of(actor), text=text)
                return
            except TelegramError as exc:
                if not unreachable(exc):
                    self._log_failure("notice", actor.user_id, exc)
                    return
        if self.barred(chat):
            return
        try:
            await self.bot.send_message(
                chat_id=self.moved.get(chat_id_of(chat), chat_id_of(chat)), text=text, reply_to_message_id=reply_to,
                allow_sending_without_reply=True, message_thread_id=thread_of(chat),
            )
        except TelegramError as exc:
            self._log_failure("notice", chat.chat_id, exc)

    async def answer_callback(self, query_id: str, notice: str | None) -> None:
        """Always answer a press (else the client spins); a notice is shown as an alert."""
        try:
            if notice:
                await self.bot.answer_callback_query(
                    query_id, text=cut(notice, MAX_ALERT), show_alert=True
                )
            else:
                await self.bot.answer_callback_query(query_id)
        except TelegramError as exc:
            self._log_failure("answerCallbackQuery", "-", exc)

    async def delete(self, chat_id: int | str, message_id: int, sent: datetime | None = None) -> str | None:
        """Delete a message (a secret typed in the open). None when it is gone; else why it stays, for
        the App (`Inbound.undeleted`): "old" — sent DELETE_WINDOW ago or more, which no right overcomes —,
        "rights" — Telegram refuses it otherwise only to a bot that is no admin with "Delete messages" —,
        or "failed" (https://core.telegram.org/bots/api#deletemessage)."""
        try:
            await self.bot.delete_message(chat_id=chat_id, message_id=message_id)
            return None
        except BadRequest as exc:
            if "message to delete not found" in exc.message.lower():  # someone was quicker: it is gone
                return None
            self._log_failure("deleteMessage", chat_id, exc)
            if "can't be deleted" not in exc.message.lower():
                return "failed"
            old = sent is not None and datetime.now(UTC) - sent >= DELETE_WINDOW
            return "old" if old else "rights"
        except TelegramError as exc:
            self._log_failure("deleteMessage", chat_id, exc)
            return "failed"
