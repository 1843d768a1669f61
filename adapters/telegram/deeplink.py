"""Deep links: `t.me/<bot>?start=<payload>` leads a player from a group to the private chat.

The private flow needs two things only, each with its own payload and nothing else in it. Both are
button ids of core/buttons.py, which builds and parses them; this module only signs them:

- "enter your secret for game N" (a prompt button posted in a group because the player could not
  be messaged privately): `s_<id>_<mac>`, decoded only ever to `GameButton(N, Verb.SECRET)`;
- "act on chat X" (a game's button that names a chat, `ChatButton`: the daily puzzle's "play
  today's puzzle of this chat"): `c_<kind>_<chat id>_<arg>_<mac>`, decoded only ever to that
  `ChatButton`. It names no day and no player: whoever follows it acts for themselves (plays, or
  resumes, or is told they have played their own attempt at that chat's puzzle of the day). A game
  may declare a one-letter prefix for its chat buttons' links instead (`GamePlugin.link_prefix`, handed
  to `DeepLinks` as `short`, kind → letter): `<letter>_<chat id>_<arg>_<mac>`. The daily puzzle's, the
  one chat button there was before links carried a kind, so keeps the form its links have always had,
  `d_…` (the links already posted keep working, and a forum topic's still fits in 64 characters).

- A payload cannot be forged: the key is derived from the bot token (a per-installation secret
  kept in the settings, so links survive restarts), the MAC is compared in constant time, and the two
  kinds are signed over different texts, so one kind's MAC never fits the other;
- a valid link followed by another user is harmless: the App takes a game's secret entry from a
  private chat only from a player that game waits for, and a chat's button only as the follower's
  own (`bot/app/routing.py` `check_origin`).

Telegram lets a `/start` payload hold only `[A-Za-z0-9_-]{1,64}`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Mapping

from core.buttons import ChatButton, GameButton, Verb, parse

PREFIX = "s_"
MAC_BYTES = 12  # 96 bits: 16 characters of urlsafe base64
MAX_PAYLOAD = 64
_TOKEN_RE = re.compile(r"^s_([1-9][0-9]{0,17})_([A-Za-z0-9_-]{16})$")
CHAT_PREFIX = "c_"
# a chat id: a group's, or a forum topic's "<group>/<topic>" (written "<group>t<topic>" in a payload,
# which takes no "/"; the MAC is over the chat button's id as core/buttons.py writes it)
_CHAT = r"(-?[1-9][0-9]{0,17}(?:/[1-9][0-9]{0,9})?)"
_CHAT_WRITTEN = r"(-?[1-9][0-9]{0,17}(?:t[1-9][0-9]{0,9})?)"
_CHAT_ID_RE = re.compile(_CHAT)
_ARG_RE = re.compile(r"[a-z0-9]{1,8}")
_KIND_RE = re.compile(r"[a-z]{1,8}")
_CHAT_TOKEN_RE = re.compile(rf"^c_([a-z]{{1,8}})_{_CHAT_WRITTEN}_([a-z0-9]{{1,8}})_([A-Za-z0-9_-]{{16}})$")
_SHORT_TOKEN_RE = re.compile(rf"^([a-z])_{_CHAT_WRITTEN}_([a-z0-9]{{1,8}})_([A-Za-z0-9_-]{{16}})$")
TAKEN = frozenset({PREFIX[0], CHAT_PREFIX[0]})  # letters no game's short prefix may be


def _linkable_chat(action: str) -> ChatButton | None:
    """The chat button an action is, where a payload can carry it (a group's or topic's id, a short
    argument, a short kind); else None."""
    button = parse(action)
    if not isinstance(button, ChatButton) or not _KIND_RE.fullmatch(button.kind):
        return None
    if not _CHAT_ID_RE.fullmatch(button.chat) or not _ARG_RE.fullmatch(button.arg):
        return None
    return button


def _chat_token(token: str, short: Mapping[str, str]) -> tuple[ChatButton, str] | None:
    """The chat button a chat payload names, and its MAC (not yet checked); `short`: letter → kind."""
    if (m := _CHAT_TOKEN_RE.match(token)) is not None:
        kind, written, arg, mac = m.groups()
    elif (m := _SHORT_TOKEN_RE.match(token)) is not None and m.group(1) in short:
        letter, written, arg, mac = m.groups()
        kind = short[letter]
    else:
        return None
    return ChatButton(kind, written.replace("t", "/"), arg), mac


def linked_chat(action: str) -> int | None:
    """The chat a decoded chat link names (whose membership the App may ask about: a topic's group);
    None for any other action."""
    button = _linkable_chat(action)
    return int(button.group) if button is not None else None


def key_for(bot_token: str) -> bytes:
    """The signing key of one installation: derived from its bot token, never sent anywhere."""
    return hmac.new(bot_token.encode("utf-8"), b"club-game-bot deep links v1", hashlib.sha256).digest()


class DeepLinks:
    """Signs and checks /start payloads with one installation's key."""

    def __init__(self, key: bytes, short: Mapping[str, str] | None = None) -> None:
        """`short`: the games' one-letter link prefixes, kind → letter (`GamePlugin.link_prefix`)."""
        if len(key) < 16:
            raise ValueError("a deep-link key needs at least 16 bytes")
        short = dict(short or {})
        if any(not re.fullmatch(r"[a-z]", p) or p in TAKEN for p in short.values()) or \
                len(set(short.values())) < len(short):
            raise ValueError(f"short link prefixes are distinct letters other than {sorted(TAKEN)}: {short}")
        self._key = key
        self._short = short  # kind → letter
        self._kinds = {p: k for k, p in short.items()}  # letter → kind

    def _mac(self, game_id: str) -> str:
        digest = hmac.new(self._key, f"secret:{game_id}".encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:MAC_BYTES]).decode("ascii")

    def _chat_mac(self, button: ChatButton) -> str:
        digest = hmac.new(self._key, str(button).encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:MAC_BYTES]).decode("ascii")

    def encode(self, action: str) -> str | None:
        """The /start payload for `action`, or None: only a game's secret entry and a chat's button
        can be linked."""
        chat = _linkable_chat(action)
        if chat is not None:
            written = chat.chat.replace("/", "t")
            letter = self._short.get(chat.kind)
            head = f"{letter}_" if letter else f"{CHAT_PREFIX}{chat.kind}_"
            payload = f"{head}{written}_{chat.arg}_{self._chat_mac(chat)}"
            return payload if len(payload) <= MAX_PAYLOAD else None
        button = parse(action)
        if not isinstance(button, GameButton) or button.app_verb is not Verb.SECRET or str(button) != action:
            return None
        if not _TOKEN_RE.match(f"{PREFIX}{button.game}_{'A' * 16}"):
            return None
        return f"{PREFIX}{button.game}_{self._mac(str(button.game))}"

    def decode(self, token: str) -> str | None:
        """The action behind a payload we signed; None for anything else (forged, altered, foreign)."""
        chat = _chat_token(token, self._kinds)
        if chat is not None:
            button, mac = chat
            if not hmac.compare_digest(mac.encode("ascii"), self._chat_mac(button).encode("ascii")):
                return None
            return str(button)
        match = _TOKEN_RE.match(token)
        if match is None:
            return None
        game_id, mac = match.groups()
        if not hmac.compare_digest(mac.encode("ascii"), self._mac(game_id).encode("ascii")):
            return None
        return str(GameButton(int(game_id), Verb.SECRET))
