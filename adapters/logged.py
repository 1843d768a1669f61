"""How an adapter's log names a person or a private chat: never by the raw id (issue 35, docs/retention.md).

A private chat's id is its user's own on Telegram, and a user's id names a person; a group's id may
stay. The bot's composition root (bot/__main__.py) hands the adapters the App's keyed hash
(bot/yourdata/logged.py `person`: an HMAC under a key drawn at each start, never stored), so the
adapters' warnings about a user and the App's lines about them show the same `u-…` and belong
together. An adapter run without it (a test, a benchmark) hashes under a key of its own, drawn here
at each start: still never the raw id.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

_OWN_KEY = secrets.token_bytes(32)


def _own(platform: str, user_id: str) -> str:
    return "u-" + hashlib.blake2b(f"{platform}\x1f{user_id}".encode(), key=_OWN_KEY, digest_size=5).hexdigest()


_person: Callable[[str, str], str] = _own


def use(hashing: Callable[[str, str], str]) -> None:
    """The keyed hash the whole process names people by (called once, at start)."""
    global _person
    _person = hashing


def person(platform: str, user_id: int | str) -> str:
    """A user as an adapter's log shows them."""
    return _person(platform, str(user_id))


def chat(platform: str, chat_id: int | str, private: bool) -> str:
    """A chat as an adapter's log shows it: a group by its id, a private chat as its person."""
    return person(platform, chat_id) if private else str(chat_id)
