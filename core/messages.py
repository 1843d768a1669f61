"""Neutral messages between adapters, the App and the games.

Adapters turn platform updates into an `Inbound`, hand it to the App's
`handle` and render the `Response` they get back. Games and presenters speak
in `Message`s whose text is a `Text` (an i18n key + parameters); the App
localises them per recipient into `Outbound`s, so adapters never translate.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Actor:
    """Who: stable across restarts, per platform."""

    platform: str  # "telegram" | "discord" | "console"
    user_id: str
    name: str
    locale: str | None = None
    is_admin: bool = False  # a chat admin (adapters may fill it); e.g. Kegeln treats admins like the scorer
    # posted on behalf of a chat, not by a person (a Telegram anonymous admin posting as the group, a
    # member posting as a channel): `user_id` is that chat's id; such an actor never takes a seat in a game
    as_chat: bool = False


@dataclass(frozen=True)
class Chat:
    """Where: a group/channel, or the private chat with one user."""

    platform: str
    chat_id: str
    private: bool
    locale: str | None = None  # the chat's default language (e.g. a Discord guild locale)
    # a group's title as the platform shows it (Telegram: the group's title; Discord: "guild #channel";
    # the console: "#table"): user-controlled text, which the App cleans and caps before it keeps it.
    # Not part of the chat's identity: two Chats of one id are the same chat whatever title they carry
    title: str | None = field(default=None, compare=False)

    @property
    def group(self) -> str:
        """The chat whose settings (language, time zone) this one shares: see `group_of`."""
        return group_of(self.chat_id)


# A table inside a group (a Telegram forum topic) is a chat of its own, "<group id>/<table id>": its
# games, boards, lists and bounds are its own, its settings are its group's. Any other id is its own group.
TABLE_SEP = "/"


def group_of(chat_id: str) -> str:
    """The group a chat id belongs to: a table's group ("-100123/45" -> "-100123"), else the id itself."""
    return chat_id.split(TABLE_SEP, 1)[0]


@dataclass(frozen=True)
class Inbound:
    """One thing a user did: a plain text, a command, or a button press.

    `action` with `text` is a button-driven input (e.g. a Discord modal
    submit): the text answers the action, as if typed in private.
    """

    actor: Actor
    chat: Chat
    text: str | None = None
    command: str | None = None  # canonical name without "/" and "@Bot": "duel"
    args: tuple[str, ...] = ()
    action: str | None = None  # a pressed button's opaque id
    event_id: str | None = None  # platform update id, for idempotency
    migrate_to: str | None = None  # the platform moved this chat to a new id (a Telegram supergroup)
    # a chat action taken privately (a forwarded deep link): whether the platform says the actor is in
    # the chat it names (None: not asked, or not known); the App decides what that means
    member: bool | None = None
    bots: tuple[str, ...] = ()  # user ids mentioned in `args` that the platform says are (other) bot accounts
    # (user id, name) of the users mentioned in `args`, named as the platform names them in this very message
    # (a Telegram text mention's user, an @username as typed; a Discord member's display name): how the App
    # names someone this chat has not seen — never by a bare id, never by a name from another chat
    named: tuple[tuple[str, str], ...] = ()
    # the adapter verified that `action` was issued by the bot to be taken privately (a Telegram deep
    # link's MAC): only so does a chat action count from a private chat (bot/app/routing.py `check_origin`)
    signed: bool = False
    # the message this came from, where the platform lets its author edit it ("<chat>:<message>"): a move is
    # taken from one message at most once, however often it is edited (stored with the move instead of `event_id`)
    message: str | None = None
    # a correction of `message` (a platform's edit): when it was edited; `event_id` is the edit's own id
    edited: str | None = None
    # the adapter could not delete this message as `Response.delete_inbound` asked: "rights" (the bot lacks
    # the permission), "old" (past the platform's window for deleting) or "failed"; `text` is the message's,
    # still visible in the chat. The App decides what that means (a secret the group saw is ruled out)
    undeleted: str | None = None
    # the permissions the platform says the bot lacks to post where this came from (Discord: "view_channel",
    # "send_messages", in a thread "send_messages_in_threads"): a game asked for there is refused, to the
    # actor alone, naming the permission (bot/app/permissions.py)
    cannot_post: tuple[str, ...] = ()
    # the platform says nobody can play in this chat any more: "closed" (a Telegram forum topic its
    # admins closed) or "deleted" (it is gone); the App ends the chat's running games and tells their players
    closed: str | None = None
    # whether the bot receives every plain message of this chat (None: the platform does not say, or
    # cannot tell for this inbound); False under Telegram's privacy mode: only commands, replies to the
    # bot and mentions reach it, so a plain guess typed there never arrives
    reads_all: bool | None = None


@dataclass(frozen=True)
class Text:
    """A localisable text: catalog key + parameters. `lang` set: the text is in that language whoever
    reads it (e.g. a word game's answer in the game's language); a reader of another language sees
    their translation beside it."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    lang: str | None = None


@dataclass(frozen=True)
class DayMonth:
    """A day of every year (the day a club's seasons start), as a text parameter: shown as day and month
    in the reader's language, without a year ("September 1", "1. September", "1 сентября")."""

    month: int
    day: int


@dataclass(frozen=True)
class Button:
    """`prompt` set: the button leads to private text input for `action` (see OutButton).
    `settles`: an accepted press of it settles the message it sits on — none of that keyboard
    applies any more (a challenge answered, a rematch asked for); the presenter that makes the
    button says so, and adapters that can take a used keyboard away (Telegram) read it."""

    label: Text
    action: str  # opaque id, <= 64 bytes
    url: str | None = None
    prompt: Text | None = None
    settles: bool = False


@dataclass(frozen=True)
class Message:
    """What a presenter says: neutral, not yet localised.

    `to` is a group `Chat` or one player (`Actor`) privately. A private message
    may carry a `fallback`, posted in the group instead when the platform
    cannot reach the player privately (its buttons then lead to private input).
    """

    to: Chat | Actor
    text: Text
    buttons: tuple[tuple[Button, ...], ...] = ()
    image: bytes | None = None
    edit_key: str | None = None
    fallback: Message | None = None
    file: tuple[str, bytes] | None = None  # an attachment: (file name, content), e.g. a CSV export
    only_for_actor: bool = False  # a reply meant for the actor alone (a refusal, help) where the platform can
    mention: tuple[str, ...] = ()  # platform user ids who must act now: the platform notifies them (Discord pings)
    # the group a private message concerns (a group game's message to one player): a reader with no
    # language of their own reads it in that group's language
    about: Chat | None = None
    # the names of `mention`'s users, in its order, where a platform mentions a user by a name it links
    # (Telegram's text_mention); empty: such a platform mentions no one (Discord pings by id alone)
    mention_names: tuple[str, ...] = ()

    def notify(self, *user_ids: str) -> Message:
        """This message with `mention` set: the players it asks to act (a challenge, a turn, a decision)."""
        return replace(self, mention=tuple(dict.fromkeys(user_ids)))

    def named(self, *names: str) -> Message:
        """This message with the names of its `mention`ed users (one each, in its order)."""
        assert len(names) == len(self.mention)
        return replace(self, mention_names=tuple(names))


@dataclass(frozen=True)
class OutButton:
    """A rendered button. `prompt` set: pressing it asks the user for text
    privately (Telegram deep link, Discord modal); the answer comes back as an
    Inbound with this `action` and the typed `text`. `settles`: as `Button.settles`."""

    label: str
    action: str
    url: str | None = None
    prompt: str | None = None
    settles: bool = False


# Markers in `Outbound.marked` around the parts of a text that are parameters, not catalog text:
USER_TEXT = ("\ue000", "\ue001")  # a one-line string parameter: a name, a word, a typed text
BLOCK = ("\ue002", "\ue003")  # a multi-line parameter: a table, a list of lines


@dataclass(frozen=True)
class Outbound:
    """A rendered message, ready for an adapter to send. `marked`: the same text with its string
    parameters between `USER_TEXT` markers and its multi-line ones between `BLOCK` markers, for a
    platform that formats text (Discord's markdown escapes user text and sets tables monospace);
    None when nothing was marked (adapters then use `text`)."""

    to: Chat | Actor
    text: str
    buttons: tuple[tuple[OutButton, ...], ...] = ()
    image: bytes | None = None
    edit_key: str | None = None
    fallback: Outbound | None = None
    file: tuple[str, bytes] | None = None  # an attachment: (file name, content)
    marked: str | None = None
    only_for_actor: bool = False  # a reply meant for the actor alone where the platform can (Discord: ephemeral)
    mention: tuple[str, ...] = ()  # user ids to notify (Discord: `<@id>` and a ping for exactly them)
    mention_names: tuple[str, ...] = ()  # their names, where given (Telegram: text mentions of exactly them)


@dataclass(frozen=True)
class Response:
    """Everything the App wants done in answer to one Inbound.

    `notice`: a short answer for the actor alone (the answer to a button press:
    Telegram callback alert, Discord ephemeral reply; the console prints it
    privately). `delete_inbound`: the inbound message held something that must
    not stay in a group (a secret typed in the open); delete it if allowed.
    """

    messages: tuple[Outbound, ...] = ()
    notice: str | None = None
    delete_inbound: bool = False


@dataclass(frozen=True)
class CommandInfo:
    """A command for platform menus: canonical name and localised description."""

    name: str
    description: str
    options: tuple[str, ...] = ()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # option → its allowed values
    option_descriptions: Mapping[str, str] = field(default_factory=dict)  # option → localised description
    aliases: tuple[str, ...] = ()  # the command's localised names in this menu's language (first: preferred)
    group_only: bool = False  # works only in a group: a platform may leave it out of private menus
