"""Localising neutral messages per recipient: picks each destination's language and
renders texts and buttons into Outbounds for the adapters."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from bot.process.bounded import Bounded
from bot.retention.noise import quieted
from bot.storage.base import Store
from bot.texts.i18n import Catalogs
from core.messages import (
    BLOCK,
    USER_TEXT,
    Actor,
    Button,
    Chat,
    DayMonth,
    Inbound,
    Message,
    Outbound,
    OutButton,
    Response,
    Text,
    group_of,
)

MARKERS = (*USER_TEXT, *BLOCK)
UNMARK = {ord(c): None for c in MARKERS}
MARKER_IN = re.compile("[" + "".join(MARKERS) + "]").search
CACHED = 100_000  # chats' and users' language entries kept in memory
# How to guess, said otherwise in a group whose plain messages the bot does not receive (Telegram's
# privacy mode, `Inbound.reads_all`): there a typed guess never arrives, only a command or a reply.
COMMANDS_ONLY = {
    "help.guess_typed": "help.guess_commands",
    "help.cmd.guess": "help.cmd.guess_commands",
    "practice.started": "practice.started_commands",
    "words.guessing": "words.guessing_commands",
    "words.solo_started": "words.solo_started_commands",
    "logik.started": "logik.started_commands",
}


def commands_only(text: Text) -> Text:
    """The text (and the texts in its parameters) as said where only commands and replies arrive."""
    params = {k: commands_only(v) if isinstance(v, Text) else v for k, v in text.params.items()}
    return replace(text, key=COMMANDS_ONLY.get(text.key, text.key), params=params)


def _holds_markers(value: object) -> bool:
    """Whether a text's parameters (its texts' and lists' too) hold a marker character (core/messages.py)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if MARKER_IN(v):
                return True
        elif isinstance(v, Text):
            stack.extend(v.params.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif v is not None and not isinstance(v, (int, float, date, DayMonth)):
            return True  # shown by its str(): it might
    return False


def _pref_key(user_id: str) -> str:
    """Where a user's own /lang choice (made in private) is kept, beside the chats' settings."""
    return f"u:{user_id}"


class Localiser:
    """Each destination's language (a group's setting, a reader's own, their platform locale) and the
    neutral messages rendered in it: the Outbounds the adapters turn into platform messages (their own
    `Renderer`s)."""

    def __init__(self, store: Store, catalogs: Catalogs, default_lang: str = "en") -> None:
        self.store = store
        self.catalogs = catalogs
        self.default_lang = catalogs.pick(default_lang)
        # Chats' language settings and users' platform locales as last seen; a miss is one store read.
        self._chat_langs: Bounded[tuple[str, str], str | None] = Bounded(CACHED)
        self._locales: Bounded[tuple[str, str], str | None] = Bounded(CACHED)
        self._unheard: Bounded[tuple[str, str], None] = Bounded(CACHED)  # groups whose plain messages never arrive

    async def _setting(self, platform: str, chat_id: str) -> str | None:
        key = (platform, group_of(chat_id))  # a forum topic speaks its group's language
        if key not in self._chat_langs:
            self._chat_langs[key] = await self.store.chat_lang(*key)
        return self._chat_langs[key]

    def note_locale(self, actor: Actor) -> None:
        if actor.locale:
            self._locales[(actor.platform, actor.user_id)] = actor.locale

    def note_hearing(self, ib: Inbound) -> None:
        """Whether the bot receives the plain messages of the inbound's group, as the platform said last."""
        key = (ib.chat.platform, ib.chat.chat_id)
        if ib.reads_all is False and not ib.chat.private:
            self._unheard[key] = None
        elif ib.reads_all:
            self._unheard.pop(key, None)

    def hears(self, platform: str, chat_id: str) -> bool:
        """False for a group where only commands and replies reach the bot (a typed guess is unheard)."""
        return (platform, chat_id) not in self._unheard

    def forget_chat(self, platform: str, chat_id: str) -> None:
        self._chat_langs.pop((platform, chat_id), None)

    async def set_lang(self, ib: Inbound, lang: str) -> None:
        """/lang in a group sets the group's language; in private, the user's own."""
        chat_id = _pref_key(ib.actor.user_id) if ib.chat.private else ib.chat.group
        await self.store.set_chat_lang(ib.chat.platform, chat_id, lang)
        self._chat_langs[(ib.chat.platform, chat_id)] = lang

    async def group_lang(self, chat: Chat) -> str:
        """A group's own language, whoever asks: its /lang setting, the platform's locale of the chat, the bot's
        (the daily word of the group: the first asker's language must not pick it for everyone)."""
        return self.catalogs.pick(await self._setting(chat.platform, chat.chat_id), chat.locale, self.default_lang)

    async def lang_for(self, to: Chat | Actor, ib: Inbound, about: Chat | None = None) -> str:
        """A group: its setting, then the user's platform locale, then the chat's default, then the bot's.
        One reader (privately, or a notice): their own setting, their platform locale, then — for what
        concerns a group (`about`) — that group's language, then the bot's."""
        if isinstance(to, Chat) and not to.private:
            here = to.chat_id == ib.chat.chat_id and to.platform == ib.chat.platform
            return self.catalogs.pick(await self._setting(to.platform, to.chat_id),
                                      ib.actor.locale if here else None,
                                      (ib.chat.locale if here else None) or to.locale, self.default_lang)
        group = None
        if about is not None and not about.private and about.platform == to.platform:
            here = about.chat_id == ib.chat.chat_id and about.platform == ib.chat.platform
            group = await self._setting(about.platform, about.chat_id) or (ib.chat.locale if here else None) \
                or about.locale
        user_id = to.user_id if isinstance(to, Actor) else ib.actor.user_id
        platform = to.platform
        locale = ib.actor.locale if user_id == ib.actor.user_id else None
        if locale is None:
            key = (platform, user_id)
            if key not in self._locales:
                self._locales[key] = await self.store.user_locale(platform, user_id)
            locale = self._locales[key]
        return self.catalogs.pick(await self._setting(platform, _pref_key(user_id)), locale, group, self.default_lang)

    async def response(self, ib: Inbound, messages: Sequence[Message], notice: Text | None,
                       delete_inbound: bool, about: Chat | None = None) -> Response:
        """`about`: the group the answer concerns (the game's group, for an answer given privately); a
        notice to a button pressed in a group concerns that group."""
        about = about or (None if ib.chat.private else ib.chat)
        messages = await quieted(self.store, messages)  # a group's chatter, where it asked for results only
        out = tuple([await self.outbound(m, ib, about) for m in messages])
        notice_text = None
        if notice is not None:
            notice_text = self.catalogs.render(notice, await self.lang_for(ib.actor, ib, about))
        return Response(out, notice_text, delete_inbound)

    async def outbound(self, m: Message, ib: Inbound, about: Chat | None = None) -> Outbound:
        lang = await self.lang_for(m.to, ib, m.about or about)
        fallback = await self.outbound(m.fallback, ib, m.about or about) if m.fallback else None
        heard = not isinstance(m.to, Chat) or self.hears(m.to.platform, m.to.chat_id)
        said = m.text if heard else commands_only(m.text)
        # rendered once, marked; the plain text is the marked one without its markers, unless a parameter
        # brings marker characters of its own (the plain text keeps them: rendered again)
        marked = self.catalogs.render(said, lang, mark=True)
        text = self.catalogs.render(said, lang) if _holds_markers(said) else marked.translate(UNMARK)
        return Outbound(m.to, text, self._buttons(m.buttons, lang), m.image, m.edit_key, fallback, m.file,
                        marked if marked != text else None, m.only_for_actor, m.mention, m.mention_names)

    def _buttons(self, rows: tuple[tuple[Button, ...], ...], lang: str) -> tuple[tuple[OutButton, ...], ...]:
        return tuple(tuple(OutButton(self.catalogs.render(b.label, lang), b.action, b.url,
                                     self.catalogs.render(b.prompt, lang) if b.prompt else None, b.settles)
                           for b in row) for row in rows)
