"""Telegram update -> neutral `Inbound`. Pure: no I/O, easy to test on its own."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from telegram import CallbackQuery, Message, MessageEntity, Update
from telegram import Chat as TgChat
from telegram import User as TgUser

from adapters.telegram.deeplink import DeepLinks
from adapters.telegram.render import SETTLES_MARK
from adapters.telegram.topics import TopicNames, chat_of_message
from core.messages import Actor, Chat, Inbound

PLATFORM = "telegram"
# "/cmd", "/cmd@Bot", "/cmd args"; Telegram command names are [A-Za-z0-9_]{1,32}.
_COMMAND_RE = re.compile(r"^/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]+))?(?:\s+(.*))?$", re.DOTALL)
SYSTEM = Actor(platform=PLATFORM, user_id="0", name="Telegram")  # Telegram itself (a service message)


def actor_of(user: TgUser | None) -> Actor:
    """Who did it; the display name prefers the first name as the group sees it."""
    if user is None:
        return SYSTEM
    return Actor(
        platform=PLATFORM,
        user_id=str(user.id),
        name=user.first_name or user.username or str(user.id),
        locale=user.language_code,
    )


def chat_actor(message: Message, sender: TgChat) -> Actor:
    """A message posted on behalf of a chat (`sender_chat`): who it is, as far as anyone can tell.

    Telegram names no person (https://core.telegram.org/bots/api#message, `sender_chat`): an anonymous
    admin's post comes from @GroupAnonymousBot with `sender_chat` the group itself, a post "as a channel"
    from @Channel_Bot with `sender_chat` that channel. The chat's id is the actor (stable, never a user's:
    those are positive). Only the group itself makes an admin — only its admins can post as it; a channel
    (or any other chat named as sender) is no admin here, whatever it administers elsewhere."""
    own = sender.id == message.chat.id
    name = message.author_signature or sender.title or sender.username or str(sender.id)
    return Actor(platform=PLATFORM, user_id=str(sender.id), name=name, is_admin=own, as_chat=True)


def chat_of(chat: TgChat) -> Chat:
    """The neutral chat; a group's title as Telegram sends it on every message (the App cleans it)."""
    private = chat.type == TgChat.PRIVATE
    return Chat(platform=PLATFORM, chat_id=str(chat.id), private=private, title=None if private else chat.title)


def parse_command(text: str) -> tuple[str, str | None, tuple[str, ...]] | None:
    """(command, addressed bot or None, args) for "/cmd[@Bot] args"; None if not a command."""
    match = _COMMAND_RE.match(text.strip())
    if not match:
        return None
    name, target, rest = match.groups()
    return name.lower(), target, tuple((rest or "").split())


def without_bot_mention(text: str, bot_username: str) -> str:
    """A group message without the bot's own @username: in privacy mode a plain message reaches the bot
    only when it mentions it (https://core.telegram.org/bots/features#privacy-mode), so `@Bot 8901` and
    `2345 @Bot` are how players guess there, and the mention must not spoil the guess. Wherever it
    stands, as on Discord (adapters/discord/inbound.py `strip_bot_mention`); a command's arguments are
    left alone (`/duel @Bot`: play the computer)."""
    pattern = re.compile(rf"(?<![A-Za-z0-9_])@{re.escape(bot_username)}(?![A-Za-z0-9_])", re.IGNORECASE)
    if not pattern.search(text):
        return text
    return " ".join(pattern.sub(" ", text).split())


def addressed_elsewhere(target: str | None, bot_username: str | None) -> bool:
    """True for "/cmd@OtherBot": in a group with several bots, that one is not ours."""
    return bool(target and bot_username and target.lower() != bot_username.lower())


def mention(user_id: int) -> str:
    """The neutral mention token (as Discord writes it), which the App resolves to a player."""
    return f"<@{user_id}>"


@dataclass
class Seen:
    """The users this adapter has seen in updates (memory): @username -> id, and the ids Telegram
    said are bot accounts (`User.is_bot`). This bot itself is never among them."""

    usernames: dict[str, int] = field(default_factory=dict)
    bots: set[int] = field(default_factory=set)
    topics: TopicNames = field(default_factory=TopicNames)  # forum topics' names (adapters/telegram/topics.py)

    def __len__(self) -> int:
        return len(self.usernames) + len(self.bots)

    def clear(self) -> None:
        self.usernames.clear()
        self.bots.clear()


def mention_args(
    message: Message, args: tuple[str, ...], seen: Seen | Mapping[str, int]
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]:
    """Telegram mentions in command arguments -> `<@id>`, so `/duel @bob` finds Bob even
    though players know each other by @username and the App by first name; and the ids among them
    that Telegram says are bot accounts (`Inbound.bots`).

    A `text_mention` (a user without a username, picked from the client's list, or a name linked
    to a user) carries the user and whether it is a bot; an `@username` is resolved from the users
    this adapter has seen (a bot account is known as one when Telegram showed it, e.g. as the author
    of a replied-to message); an unknown one stays as written (the App then matches it by name).
    Third: each mentioned user's name as this message shows them (`Inbound.named`): a text mention's
    user by their first name, an @username as the sender typed it — never a name from another chat.
    """
    usernames = seen.usernames if isinstance(seen, Seen) else seen
    known_bots = seen.bots if isinstance(seen, Seen) else set()
    bots: list[int] = []
    named: dict[str, str] = {}
    text = " ".join(args)
    for entity, shown in message.parse_entities([MessageEntity.TEXT_MENTION]).items():
        if entity.user is not None and shown and shown in text:
            text = text.replace(shown, mention(entity.user.id), 1)
            named.setdefault(str(entity.user.id), entity.user.first_name or shown)
            if entity.user.is_bot:
                bots.append(entity.user.id)
    out = []
    for arg in text.split():
        uid = usernames.get(arg[1:].lower()) if arg.startswith("@") else None
        out.append(mention(uid) if uid is not None else arg)
        if uid is not None:
            named.setdefault(str(uid), arg)
        if uid is not None and uid in known_bots:
            bots.append(uid)
    return tuple(out), tuple(dict.fromkeys(str(b) for b in bots)), tuple(named.items())


def remember_users(update: Update, seen: Seen, me: int | None = None) -> None:
    """Learn @username -> id, and which of them are bot accounts, from everyone who writes or
    presses, from mentions by name, from the author of a replied-to message and from members who
    join or change (`me`, this bot, is left out: naming it is not naming another bot)."""
    users = [update.effective_user]
    message = update.message
    if message is not None:
        users += [e.user for e in message.entities or () if e.user is not None]
        users += list(message.new_chat_members or ())
        if message.reply_to_message is not None:
            users.append(message.reply_to_message.from_user)
    changed = update.chat_member or update.my_chat_member
    if changed is not None:
        users.append(changed.new_chat_member.user)
    for user in users:
        if user is None or user.id == me:
            continue
        if user.is_bot:
            seen.bots.add(user.id)
        if user.username:
            seen.usernames[user.username.lower()] = user.id


def from_message(
    update_id: int, message: Message, bot_username: str | None,
    seen: Seen | Mapping[str, int] | None = None, links: DeepLinks | None = None,
) -> Inbound | None:
    """A message (or an `edited_message`: it carries its `edit_date`) -> Inbound, or None when it is
    nothing for the bot. `Inbound.message` names it in its chat, so that the App counts a move from it
    once, however often its author edits it."""
    inbound = _from_message(update_id, message, bot_username, seen, links)
    if inbound is None or inbound.migrate_to or inbound.closed:  # service messages: the platform's, not a move
        return inbound
    edited = str(int(message.edit_date.timestamp())) if message.edit_date else None
    return dataclasses.replace(inbound, message=f"{message.chat.id}:{message.message_id}", edited=edited)


def _from_message(
    update_id: int, message: Message, bot_username: str | None,
    seen: Seen | Mapping[str, int] | None, links: DeepLinks | None,
) -> Inbound | None:
    event_id = str(update_id)
    # a forum topic is a chat of its own (adapters/telegram/topics.py)
    chat = chat_of_message(message, seen.topics if isinstance(seen, Seen) else None)
    if message.forum_topic_closed is not None and not chat.private:
        # the topic's admins closed it (General too): nobody plays there any more (the App ends its games,
        # tells their players)
        return Inbound(actor=actor_of(message.from_user), chat=chat, closed="closed", event_id=event_id)
    if message.general_forum_topic_hidden is not None and not chat.private:
        # General hidden: "The topic will be automatically closed if it was open" (hideGeneralForumTopic)
        return Inbound(actor=actor_of(message.from_user), chat=chat_of(message.chat), closed="closed",
                       event_id=event_id)
    if message.migrate_to_chat_id:
        # The old group's last word: its games move to the new supergroup id.
        return Inbound(
            actor=actor_of(message.from_user), chat=chat,
            migrate_to=str(message.migrate_to_chat_id), event_id=event_id,
        )
    if message.migrate_from_chat_id:
        # the new supergroup's first word (the old group's may have been missed): the same move
        return Inbound(
            actor=SYSTEM, chat=Chat(platform=PLATFORM, chat_id=str(message.migrate_from_chat_id), private=False),
            migrate_to=str(message.chat.id), event_id=event_id,
        )
    text = message.text
    user = message.from_user
    if message.is_automatic_forward:  # a linked channel's post, mirrored into its discussion group
        return None
    sender = message.sender_chat
    if text is None or user is None or (user.is_bot and sender is None):
        return None
    actor = chat_actor(message, sender) if sender is not None else actor_of(user)
    parsed = parse_command(text)
    if parsed is None and bot_username and not chat.private:
        text = without_bot_mention(text, bot_username)
        if not text:
            return None
        parsed = parse_command(text)  # "@Bot /practice": the command it carries
    if parsed is None:
        return Inbound(actor=actor, chat=chat, text=text, event_id=event_id)
    command, target, args = parsed
    if addressed_elsewhere(target, bot_username):
        return None
    args, bots, named = mention_args(message, args, seen if seen is not None else {})
    if command == "start" and chat.private and len(args) == 1 and links is not None:
        action = links.decode(args[0])  # only a signed secret-entry or daily-puzzle link; else a plain /start
        if action is not None:
            return Inbound(actor=actor, chat=chat, action=action, event_id=event_id, signed=True)
    return Inbound(actor=actor, chat=chat, command=command, args=args, event_id=event_id, bots=bots,
                   named=named)


def from_callback(update_id: int, query: CallbackQuery, names: TopicNames | None = None) -> Inbound | None:
    """A button press -> Inbound(action=data); None for presses we cannot place."""
    data = str(query.data or "").removeprefix(SETTLES_MARK)  # the mark is the adapter's, not the action's
    if not data:
        return None
    actor = actor_of(query.from_user)
    if isinstance(query.message, Message):  # a press in a forum topic is that topic's
        chat = chat_of_message(query.message, names)
    elif query.message is not None:  # a message too old for Telegram to show: its chat alone
        chat = chat_of(query.message.chat)
    else:  # an inline-mode message: no chat known, answer as in private
        chat = Chat(platform=PLATFORM, chat_id=actor.user_id, private=True)
    return Inbound(actor=actor, chat=chat, action=data, event_id=str(update_id))


def from_update(
    update: Update, bot_username: str | None, seen: Seen | Mapping[str, int] | None = None,
    links: DeepLinks | None = None,
) -> Inbound | None:
    """The one entry point: any update -> Inbound or None (ignored)."""
    if update.callback_query is not None:
        return from_callback(update.update_id, update.callback_query, seen.topics if isinstance(seen, Seen) else None)
    message = update.message or update.edited_message
    if message is not None:
        return from_message(update.update_id, message, bot_username, seen, links)
    return None
