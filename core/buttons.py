"""A button's id — the opaque text a platform hands back when it is pressed (`Button.action`, a deep
link's payload decoded) — built and parsed here only, as one of three typed ids:

- `GameButton(game, verb, arg)`: a game's button, `g:<game id>:<verb><arg>` — `g:12:secret`,
  `g:12:rematch`, Hausnummern's `g:12:p3` (verb `p`, argument 3). The App's own verbs are `Verb`; a
  game's own go to its `button_action`;
- `ChatButton(kind, chat, arg)`: a game's button that names a chat rather than a game,
  `<kind>:<chat id>:<arg>` — "play today's daily puzzle of this chat" (`GamePlugin.chat_action`);
- `LangButton(code)`: the language menu's, `lang:<code>`;
- `ForgetButton(nonce)`: /forgetme's confirmation, `forget:<nonce>` (the nonce names a stored request:
  who asked, where, until when — bot/yourdata/forget.py).

The texts are the ones every earlier version wrote, so a button on a message sent before still works.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Verb(StrEnum):
    """The button verbs (`g:<game>:<verb>`) the App itself understands; a game's own verbs go to its
    `button_action`."""

    SECRET = "secret"  # asked privately for one's secret (a deep link / modal)
    RANDOM = "random"  # a random secret
    AGAIN = "again"  # play again alone (a new game like the finished one)
    REMATCH = "rematch"  # the same pair again, the match score kept
    ACCEPT = "accept"
    DECLINE = "decline"
    GIVEUP = "giveup"  # /giveup or /resign of this game, chosen by button (the player runs several)
    RESIGN = "resign"


GAME_SCHEME = "g"
LANG_SCHEME = "lang"
FORGET_SCHEME = "forget"
_VERB = re.compile(r"[a-z]+")
_SPOKEN = re.compile(r"([a-z]+)([0-9]{0,18})")  # a verb as a game writes it: letters, then its argument
_GAME = re.compile(r"g:([0-9]{1,24}):([a-z]+)([0-9]{0,18})")  # bounded: no int() of a huge number
_CHAT = re.compile(r"([a-z][a-z0-9_]*):([^:]+):([^:]*)")
_LANG = re.compile(r"lang:([^:]*)")
_FORGET = re.compile(r"forget:([0-9a-f]{16})")


@dataclass(frozen=True)
class GameButton:
    """A button of one game: its id, the verb, and the verb's argument (a number) if it takes one."""

    game: int
    verb: str
    arg: int | None = None

    def __post_init__(self) -> None:
        if not _VERB.fullmatch(self.verb) or self.game < 0 or (self.arg is not None and self.arg < 0):
            raise ValueError(f"not a game button: {self.game!r} {self.verb!r} {self.arg!r}")

    @classmethod
    def of(cls, game: int, spoken: str) -> GameButton:
        """A button from a verb as a game writes it, its argument attached (`"p3"`: verb p, argument 3)."""
        m = _SPOKEN.fullmatch(spoken)
        if m is None:
            raise ValueError(f"not a button verb: {spoken!r}")
        return cls(game, m.group(1), int(m.group(2)) if m.group(2) else None)

    @property
    def spoken(self) -> str:
        """The verb with its argument, as the game's `button_action` reads it (`"p3"`, `"rematch"`)."""
        return self.verb if self.arg is None else f"{self.verb}{self.arg}"

    @property
    def app_verb(self) -> Verb | None:
        """The App's own verb this button names (taking no argument), or None for a game's own."""
        return Verb(self.verb) if self.arg is None and self.verb in Verb._value2member_map_ else None

    def __str__(self) -> str:
        return f"{GAME_SCHEME}:{self.game}:{self.spoken}"


@dataclass(frozen=True)
class ChatButton:
    """A game's button that names a chat (`kind` the game's, `chat` the chat id) and an argument."""

    kind: str
    chat: str
    arg: str

    def __post_init__(self) -> None:
        if self.kind in (GAME_SCHEME, LANG_SCHEME, FORGET_SCHEME) or not _CHAT.fullmatch(str(self)):
            raise ValueError(f"not a chat button: {self.kind!r} {self.chat!r} {self.arg!r}")

    @property
    def group(self) -> str:
        """The chat's group (a forum topic's chat id is `<group>/<topic>`)."""
        return self.chat.split("/")[0]

    def __str__(self) -> str:
        return f"{self.kind}:{self.chat}:{self.arg}"


@dataclass(frozen=True)
class LangButton:
    """A choice of the language menu."""

    code: str

    def __str__(self) -> str:
        return f"{LANG_SCHEME}:{self.code}"


@dataclass(frozen=True)
class ForgetButton:
    """/forgetme's confirmation: the nonce of the request it confirms (16 hex digits)."""

    nonce: str

    def __post_init__(self) -> None:
        if not _FORGET.fullmatch(str(self)):
            raise ValueError(f"not a forget button: {self.nonce!r}")

    def __str__(self) -> str:
        return f"{FORGET_SCHEME}:{self.nonce}"


ButtonId = GameButton | ChatButton | LangButton | ForgetButton


def parse(action: str) -> ButtonId | None:
    """The typed id of a pressed button's text; None for a text no button of ours carries."""
    if (m := _GAME.fullmatch(action)) is not None:
        return GameButton(int(m.group(1)), m.group(2), int(m.group(3)) if m.group(3) else None)
    if (m := _LANG.fullmatch(action)) is not None:
        return LangButton(m.group(1))
    if (m := _FORGET.fullmatch(action)) is not None:
        return ForgetButton(m.group(1))
    if (m := _CHAT.fullmatch(action)) is not None and m.group(1) not in (GAME_SCHEME, LANG_SCHEME, FORGET_SCHEME):
        return ChatButton(m.group(1), m.group(2), m.group(3))
    return None
