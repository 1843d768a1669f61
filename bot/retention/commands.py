"""/posts — a chat's own posts and noise (admins change them) — and /pings — mention me in them.

    /posts                      the chat's settings
    /posts morning 08:00        the morning post at 08:00 in the chat's /timezone (`/posts morning off`)
    /posts weekly 18:00         the weekly table on the week's first day at 18:00 (`/posts weekly off`)
    /posts week sunday          weeks start on Sunday (the weekly table, `/top … week`)
    /posts noise results        the group hears only what matters (`/posts noise all`: everything)
    /posts off                  no morning post, no weekly table
    /pings on | off             the posts of this chat mention me (Discord pings, Telegram text mentions)

The option words are localised (`posts.words.*` in every catalog), weekdays in any of the bot's
languages (Babel's names). Who may change what is decided here alone (`may_change`): a chat admin, in a
group. /pings concerns only its sender, in this chat."""

from __future__ import annotations

from dataclasses import replace

from babel import Locale

from bot.app.turn import Command, Turn
from bot.games.plugin import Services
from bot.retention import schedule, tables  # noqa: F401  (tables registers the weekly post)
from bot.retention.settings import NOISE, PostSettings, pinged, post_settings, put_settings, set_ping
from bot.schedule.zones import DEFAULT_TZ
from bot.texts.i18n import Catalogs
from core.errors import GameError
from core.messages import Inbound, Message, Text

WORD_KEYS = {  # each option's words in every catalog (its English id works too)
    "morning": "posts.words.morning", "weekly": "posts.words.weekly", "week": "posts.words.week",
    "noise": "posts.words.noise", "off": "posts.words.off", "on": "posts.words.on", "all": "posts.words.all",
    "results": "posts.words.results"}
NOISE_KEYS = {"all": "posts.noise_all", "results": "posts.noise_results"}
PING_KEYS = {"on": "posts.pings_on", "off": "posts.pings_off"}
LANGS = ("en", "de", "ru", "bg", "sv")
DEFAULT_WEEKLY = "18:00"


def word(raw: str, catalogs: Catalogs, among: tuple[str, ...]) -> str | None:
    """The option among `among` that `raw` names in any language (its English id or a catalog word)."""
    w = raw.strip().lower()
    for option in among:
        if w == option or w in catalogs.words(WORD_KEYS[option]):
            return option
    return None


def weekday(raw: str) -> int | None:
    """A weekday's name in any of the bot's languages, whole or short ("monday", "Mo.", "пн") → 0 … 6."""
    w = raw.strip().lower().rstrip(".")
    for lang in LANGS:
        days = Locale.parse(lang).days
        for width in ("wide", "abbreviated"):
            for context in ("format", "stand-alone"):
                for number, name in days[context][width].items():
                    if name.lower().rstrip(".") == w:
                        return int(number)
    return None


def day_name(number: int, lang: str) -> str:
    """The weekday's name in the reader's language (Babel)."""
    return str(Locale.parse(lang).days["format"]["wide"][number])


def may_change(ib: Inbound) -> None:
    """The one rule of who may change a chat's posts and noise: a chat admin (the platform says who)."""
    if not ib.actor.is_admin:
        raise GameError("posts.admins_only")


def _time(raw: str | None) -> str:
    t = schedule.parse_time(raw or "")
    if t is None:
        raise GameError("posts.bad_time", given=(raw or "")[:20])
    return t


def changed(settings: PostSettings, args: tuple[str, ...], catalogs: Catalogs) -> PostSettings:
    """The settings after `/posts ARGS` (a coded error for anything it cannot read)."""
    what = word(args[0], catalogs, ("morning", "weekly", "week", "noise", "off"))
    value = args[1] if len(args) > 1 else None
    if what is None or len(args) > 2:
        raise GameError("posts.usage")
    off = value is not None and word(value, catalogs, ("off",)) == "off"
    if what == "off":
        return replace(settings, morning=None, weekly=None)
    if what == "morning":
        return replace(settings, morning=None if off else _time(value))
    if what == "weekly":
        return replace(settings, weekly=None if off else _time(value) if value else settings.weekly or DEFAULT_WEEKLY)
    if what == "week":
        number = weekday(value or "")
        if number is None:
            raise GameError("posts.bad_day", given=(value or "")[:20])
        return replace(settings, week_start=number)
    noise = word(value or "", catalogs, NOISE)
    if noise is None:
        raise GameError("posts.bad_noise", given=(value or "")[:20])
    return replace(settings, noise=noise)


async def show(svc: Services, turn: Turn, settings: PostSettings, key: str = "posts.show") -> None:
    ib = turn.inbound
    lang = await svc.lang(ib)
    tz = await svc.store.chat_tz(ib.chat.platform, ib.chat.group) or DEFAULT_TZ

    def at(hhmm: str | None) -> Text:
        return Text("posts.at", {"time": hhmm}) if hhmm else Text("posts.is_off")
    turn.messages.append(Message(ib.chat, Text(key, {
        "morning": at(settings.morning), "weekly": at(settings.weekly),
        "week_start": day_name(settings.week_start, lang), "noise": Text(NOISE_KEYS[settings.noise]),
        "tz": tz})))


async def cmd_posts(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/posts: the chat's own posts and noise; with words, an admin changes them (see the module)."""
    ib = turn.inbound
    settings = await post_settings(svc.store, ib.chat.platform, ib.chat.chat_id)
    if not args:
        await show(svc, turn, settings)
        return
    may_change(ib)
    new = changed(settings, args, svc.catalogs)
    await svc.store.run(put_settings(ib.chat.platform, ib.chat.chat_id, new, svc.clock()))
    await schedule.rearm(svc, ib.chat, new)
    await show(svc, turn, new, "posts.set")


async def cmd_pings(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/pings on|off: whether this chat's own posts mention the sender; /pings: whether they do."""
    ib = turn.inbound
    me = ib.actor
    if not args:
        on = me.user_id in await pinged(svc.store, ib.chat.platform, ib.chat.chat_id)
        turn.messages.append(Message(ib.chat, Text("posts.pings_are_on" if on else "posts.pings_are_off",
                                                   {"name": me.name})))
        return
    choice = word(args[0], svc.catalogs, ("on", "off")) if len(args) == 1 else None
    if choice is None:
        raise GameError("posts.pings_usage")
    await svc.store.run(set_ping(ib.chat.platform, ib.chat.chat_id, me.user_id, choice == "on", svc.clock()))
    turn.messages.append(Message(ib.chat, Text(PING_KEYS[choice], {"name": me.name})))


COMMANDS = (
    Command("posts", ("setting", "value"), cmd_posts, group_only=True, personal=False,
            aliases=(("de", "beitraege"), ("ru", "посты"), ("ru", "posty"), ("bg", "публикации"), ("bg", "publikacii"),
                     ("sv", "inlagg"))),
    Command("pings", ("switch",), cmd_pings, group_only=True,
            aliases=(("de", "erwaehnen"), ("ru", "упоминания"), ("ru", "upominaniya"), ("bg", "споменавания"),
                     ("bg", "spomenavaniya"), ("sv", "pingar"))),
)
