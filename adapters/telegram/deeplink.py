"""Deep links: `t.me/<bot>?start=<payload>` leads a player from a group to the private chat.

The private flow needs two things only, each with its own payload and nothing else in it:

- "enter your secret for game N" (a prompt button posted in a group because the player could not
  be messaged privately): `s_<id>_<mac>`, decoded only ever to `g:<id>:secret`;
- "play today's daily puzzle of chat X" (the daily puzzle's play button in a group):
  `d_<chat id>_<puzzle>_<mac>`, decoded only ever to `daily:<chat id>:<puzzle>`. It names no day and
  no player: whoever follows it plays (or resumes, or is told they have played) their own attempt
  at that chat's puzzle of the day.

- A payload cannot be forged: the key is derived from the bot token (a per-installation secret
  kept in the settings, so links survive restarts), the MAC is compared in constant time, and the two
  kinds are signed over different texts, so one kind's MAC never fits the other;
- a valid link followed by another user is harmless: the App takes `g:<id>:secret` from a private
  chat only from a player that game waits for, and `daily:…` only as the follower's own attempt
  (`bot/routing.py` `check_origin`).

Telegram lets a `/start` payload hold only `[A-Za-z0-9_-]{1,64}`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

PREFIX = "s_"
MAC_BYTES = 12  # 96 bits: 16 characters of urlsafe base64
_ACTION_RE = re.compile(r"^g:([1-9][0-9]{0,17}):secret$")
_TOKEN_RE = re.compile(r"^s_([1-9][0-9]{0,17})_([A-Za-z0-9_-]{16})$")
DAILY_PREFIX = "d_"
# a chat id: a group's, or a forum topic's "<group>/<topic>" (written "<group>t<topic>" in a payload,
# which takes no "/"; the MAC is over the chat id as the action writes it)
_DAILY_ACTION_RE = re.compile(r"^daily:(-?[1-9][0-9]{0,17}(?:/[1-9][0-9]{0,9})?):([a-z0-9]{1,8})$")
_DAILY_TOKEN_RE = re.compile(r"^d_(-?[1-9][0-9]{0,17}(?:t[1-9][0-9]{0,9})?)_([a-z0-9]{1,8})_([A-Za-z0-9_-]{16})$")


def linked_chat(action: str) -> int | None:
    """The chat a decoded daily-puzzle link names (whose membership the App may ask about); None for
    any other action."""
    daily = _DAILY_ACTION_RE.match(action)
    return int(daily.group(1).split("/")[0]) if daily is not None else None  # a topic's group


def key_for(bot_token: str) -> bytes:
    """The signing key of one installation: derived from its bot token, never sent anywhere."""
    return hmac.new(bot_token.encode("utf-8"), b"club-game-bot deep links v1", hashlib.sha256).digest()


class DeepLinks:
    """Signs and checks /start payloads with one installation's key."""

    def __init__(self, key: bytes) -> None:
        if len(key) < 16:
            raise ValueError("a deep-link key needs at least 16 bytes")
        self._key = key

    def _mac(self, game_id: str) -> str:
        digest = hmac.new(self._key, f"secret:{game_id}".encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:MAC_BYTES]).decode("ascii")

    def _daily_mac(self, chat_id: str, puzzle: str) -> str:
        digest = hmac.new(self._key, f"daily:{chat_id}:{puzzle}".encode("ascii"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:MAC_BYTES]).decode("ascii")

    def encode(self, action: str) -> str | None:
        """The /start payload for `action`, or None: only a game's secret entry and a chat's daily
        puzzle can be linked."""
        daily = _DAILY_ACTION_RE.match(action)
        if daily is not None:
            chat_id, puzzle = daily.groups()
            written = chat_id.replace("/", "t")
            return f"{DAILY_PREFIX}{written}_{puzzle}_{self._daily_mac(chat_id, puzzle)}"
        match = _ACTION_RE.match(action)
        if match is None:
            return None
        return f"{PREFIX}{match.group(1)}_{self._mac(match.group(1))}"

    def decode(self, token: str) -> str | None:
        """The action behind a payload we signed; None for anything else (forged, altered, foreign)."""
        daily = _DAILY_TOKEN_RE.match(token)
        if daily is not None:
            written, puzzle, mac = daily.groups()
            chat_id = written.replace("t", "/")
            if not hmac.compare_digest(mac.encode("ascii"), self._daily_mac(chat_id, puzzle).encode("ascii")):
                return None
            return f"daily:{chat_id}:{puzzle}"
        match = _TOKEN_RE.match(token)
        if match is None:
            return None
        game_id, mac = match.groups()
        if not hmac.compare_digest(mac.encode("ascii"), self._mac(game_id).encode("ascii")):
            return None
        return f"g:{game_id}:secret"
