"""Deep-link tokens: a button action carried through `t.me/<bot>?start=<token>`.

Telegram lets a `/start` payload hold only `[A-Za-z0-9_-]{1,64}`, so an
action id is encoded reversibly (urlsafe base64, no padding) behind a short
marker. Decoding needs no server-side state, so a deep link still works after
a restart. An action too long to fit is kept in a small in-memory table
instead (App action ids are short; this is only a safety net).
"""

from __future__ import annotations

import base64
import binascii
import re

PREFIX = "a_"  # marks our tokens, so an arbitrary /start payload is not mistaken for one
TABLE_PREFIX = "k_"
MAX_TOKEN = 64
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_table: dict[str, str] = {}
_reverse: dict[str, str] = {}


def encode(action: str) -> str:
    """Return a /start payload that `decode` turns back into `action`."""
    raw = base64.urlsafe_b64encode(action.encode("utf-8")).rstrip(b"=").decode("ascii")
    token = PREFIX + raw
    if len(token) <= MAX_TOKEN:
        return token
    if action not in _reverse:
        key = f"{TABLE_PREFIX}{len(_table) + 1}"
        _table[key] = action
        _reverse[action] = key
    return _reverse[action]


def decode(token: str) -> str | None:
    """The action behind a /start payload, or None if it is not one of ours."""
    if not _TOKEN_RE.match(token):
        return None
    if token.startswith(TABLE_PREFIX):
        return _table.get(token)
    if not token.startswith(PREFIX):
        return None
    raw = token[len(PREFIX):]
    try:
        data = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        action = data.decode("utf-8")
    except (binascii.Error, ValueError):
        return None
    if not action or not action.isprintable():
        return None
    return action
