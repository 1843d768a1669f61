"""How the log names a person: never by their id, only by a keyed hash of it (docs/retention.md).

The key is drawn at each start of the process and never stored, so the lines of one user within one run
belong together (an operator can follow a conversation), but nobody — not the operator with the
database, not someone with last year's log — can tell whose they are, or match them across restarts.
A private chat's id is the user's own on Telegram and the console: it is hashed the same way."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Protocol

from core.messages import Inbound

_KEY = secrets.token_bytes(32)  # this run's; never written anywhere


def person(platform: str, user_id: str) -> str:
    """A user as the log shows them: `u-` and 10 hex digits of an HMAC of the platform and id."""
    digest = hmac.new(_KEY, f"{platform}\x1f{user_id}".encode(), hashlib.sha256).hexdigest()
    return f"u-{digest[:10]}"


def chat(platform: str, chat_id: str, private: bool) -> str:
    """A chat as the log shows it: a group by its id, a private chat as its person."""
    return person(platform, chat_id) if private else chat_id


class InChat(Protocol):
    @property
    def platform(self) -> str: ...
    @property
    def chat_id(self) -> str: ...
    @property
    def private(self) -> bool: ...


def where(x: InChat) -> str:
    """A game's (or any chat's) chat as the log shows it."""
    return chat(x.platform, x.chat_id, x.private)


def who(ib: Inbound) -> tuple[str, str, str]:
    """An inbound's platform, chat and sender as the log shows them."""
    return ib.chat.platform, where(ib.chat), person(ib.actor.platform, ib.actor.user_id)
