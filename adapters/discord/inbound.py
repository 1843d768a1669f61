"""Discord updates → neutral `Inbound`s.

Pure helpers with no network access, so the mapping rules (who, where, which
command and arguments) can be read in one place and unit-tested.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import discord

from core.messages import Actor, Chat, Inbound

PLATFORM = "discord"

# Prefix that marks a button which asks for private text (opens a modal). It is
# outside the action id alphabet, so it can never collide with an action.
PROMPT_PREFIX = "~"
TYPED_PREFIXES = "/!"  # a plain message starting so may be a typed command (`/guess 1234`, `!duel`)


def lang_of(locale: discord.Locale | str | None) -> str | None:
    """Discord locale ("en-US", "de", "sv-SE") → the bot's language code ("en", "de", "sv")."""
    if locale is None:
        return None
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return value.split("-")[0].lower() or None


def actor_of(user: discord.abc.User, locale: discord.Locale | str | None = None,
             permissions: discord.Permissions | None = None) -> Actor:
    """The neutral actor for a Discord user; the display name honours server nicknames.
    `permissions`: the member's permissions in a guild channel (None in a DM)."""
    return Actor(
        platform=PLATFORM,
        user_id=str(user.id),
        name=user.display_name,
        locale=lang_of(locale),
        is_admin=is_admin(permissions),
    )


def is_admin(permissions: discord.Permissions | None) -> bool:
    """A chat admin, as the App means it: may manage the server (or is an administrator)."""
    return permissions is not None and (permissions.administrator or permissions.manage_guild)


def chat_of(
    channel_id: int,
    guild: discord.Guild | None,
    guild_id: int | None = None,
    guild_locale: discord.Locale | str | None = None,
    channel: object = None,
) -> Chat:
    """The neutral chat: a guild channel (group) or a DM channel (private). A guild channel's title
    is "guild #channel" (the App cleans it), as far as the gateway's cache knows the two names."""
    private = guild is None and guild_id is None
    if guild_locale is None and guild is not None:
        guild_locale = guild.preferred_locale
    return Chat(
        platform=PLATFORM,
        chat_id=str(channel_id),
        private=private,
        locale=None if private else lang_of(guild_locale),
        title=None if private else title_of(guild, channel),
    )


def title_of(guild: discord.Guild | None, channel: object) -> str | None:
    """"Game Club #general"; the guild's or the channel's name alone where only one is known."""
    name = getattr(channel, "name", None)
    parts = [guild.name if guild is not None and guild.name else None, f"#{name}" if isinstance(name, str) else None]
    return " ".join(p for p in parts if p) or None


THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                     discord.ChannelType.news_thread})


def cannot_post(permissions: discord.Permissions | None, channel: object) -> tuple[str, ...]:
    """The permissions the bot lacks to play in `channel` (None: not known, or a DM): seeing it, and
    posting — in a thread or a forum post that is Send Messages in Threads, not Send Messages
    (https://discord.com/developers/docs/topics/threads#permissions)."""
    if permissions is None:
        return ()
    thread = getattr(channel, "type", None) in THREADS
    needed = ("view_channel", "send_messages_in_threads" if thread else "send_messages")
    return tuple(name for name in needed if not getattr(permissions, name))


def bot_permissions(channel: object, guild: discord.Guild | None) -> discord.Permissions | None:
    """The bot's own permissions in a guild channel or thread, from discord.py's cache (a message
    carries none); None where the cache cannot tell (an uncached channel or thread parent)."""
    me = guild.me if guild is not None else None
    resolve = getattr(channel, "permissions_for", None)
    if me is None or resolve is None:
        return None
    try:
        perms: discord.Permissions = resolve(me)
        return perms
    except discord.ClientException:  # a thread whose parent is not cached
        return None


def strip_bot_mention(text: str, bot: discord.abc.Snowflake | None) -> str:
    """"@Bot 1234" or "1234 @Bot" → "1234": without the message content intent, mentioning the bot
    is the one way a channel message reaches it (Discord sends the content of a message that
    mentions the app wherever the mention stands), so the mention must not spoil the guess. A
    leading mention goes; elsewhere it goes too unless the rest is a typed command, where the bot's
    mention is an argument (`!duel @Bot`: play the computer)."""
    if bot is None:
        return text
    mentions = (f"<@{bot.id}>", f"<@!{bot.id}>")
    stripped = text.lstrip()
    for mention in mentions:
        if stripped.startswith(mention):
            return stripped[len(mention):].strip()
    if stripped[:1] in TYPED_PREFIXES or not any(m in text for m in mentions):
        return text
    for mention in mentions:
        text = text.replace(mention, " ")
    return " ".join(text.split())


def parse_typed_command(
    text: str, known: Iterable[str]
) -> tuple[str, tuple[str, ...]] | None:
    """`/guess 1234` or `!duel <@1> 5` typed as a plain message → (command, args).

    Only known command names count, so a message like "!!!" stays plain text.
    """
    stripped = text.strip()
    if len(stripped) < 2 or stripped[0] not in TYPED_PREFIXES:
        return None
    words = stripped[1:].split()
    if not words:
        return None
    name = words[0].lower()
    if name not in set(known):
        return None
    return name, tuple(words[1:])


def option_args(
    options: Sequence[str], values: Mapping[str, Any]
) -> tuple[str, ...]:
    """Slash command option values → positional string args, in menu order.

    Users become mentions ("<@id>", as typed in a message), a true boolean
    becomes its own name ("repeats"), unset options are left out.
    """
    args: list[str] = []
    for name in options:
        value = values.get(name)
        if value is None or value is False:
            continue
        if value is True:
            args.append(name)
        elif isinstance(value, discord.abc.User | discord.Object):
            args.append(f"<@{value.id}>")
        else:
            args.append(str(value).strip())
    return tuple(a for a in args if a)


def modal_value(data: Mapping[str, Any] | None) -> str:
    """The first text input's value from a modal submit payload (rows or labels)."""

    def walk(items: Iterable[Mapping[str, Any]]) -> str | None:
        for item in items:
            if item.get("type") == 4 and "value" in item:
                return str(item["value"])
            inner = list(item.get("components") or [])
            if isinstance(item.get("component"), Mapping):
                inner.append(item["component"])
            found = walk(inner)
            if found is not None:
                return found
        return None

    return (walk((data or {}).get("components") or []) or "").strip()


def from_message(message: discord.Message, me: discord.ClientUser | None, locales: Mapping[str, str],
                 known: frozenset[str]) -> Inbound | None:
    """A member's channel or DM message -> Inbound (None: nothing for the bot). `Inbound.message`
    names it, so that the App counts a move from it once, however often it is edited."""
    text = strip_bot_mention(message.content or "", me)
    if not text.strip():
        return None  # without the message content intent guild messages arrive empty
    guild = message.guild
    perms = message.author.guild_permissions if isinstance(message.author, discord.Member) else None
    actor = actor_of(message.author, locales.get(str(message.author.id)), perms)
    chat = chat_of(message.channel.id, guild, channel=message.channel)
    missing = cannot_post(bot_permissions(message.channel, guild), message.channel)
    parsed = parse_typed_command(text, known)
    if parsed is not None:
        bots = tuple(str(u.id) for u in message.mentions if u.bot and (me is None or u.id != me.id))
        named = tuple((str(u.id), u.display_name) for u in message.mentions)  # as resolved in this message
        return Inbound(actor=actor, chat=chat, command=parsed[0], args=parsed[1],
                       event_id=str(message.id), bots=bots, message=str(message.id), cannot_post=missing,
                       named=named)
    return Inbound(actor=actor, chat=chat, text=text, event_id=str(message.id), message=str(message.id),
                   cannot_post=missing)


def cannot_post_here(interaction: discord.Interaction) -> tuple[str, ...]:
    """What the bot lacks to play where it was asked: Discord resolves the bot's permissions in
    the interaction's channel or thread (`app_permissions`), overwrites and all."""
    perms = interaction.app_permissions if interaction.guild_id is not None else None
    channel = interaction.channel
    if (getattr(channel, "type", None) == discord.ChannelType.private_thread and perms is not None
            and not perms.manage_threads and interaction.client.get_channel(interaction.channel_id or 0) is None):
        # a private thread the bot was never added to: Discord told it nothing of it (no THREAD_CREATE),
        # and every post there would be refused with 50001 Missing Access
        return ("thread_member", *cannot_post(perms, channel))
    return cannot_post(perms, channel)
