"""Log hygiene: the bot token and message texts must never reach the logs.

PTB logs the API URL (which contains the token), every call's parameters and
every incoming update (which contain private texts, i.e. secrets) at DEBUG; httpx logs each request
URL at INFO. Those loggers are raised to a safe level and a filter redacts the
token from anything that still passes through them.

Some records carry update data at any level: a batch PTB cannot parse is logged at CRITICAL with
the raw JSON ("Received data was [...]"), the webhook logs the body it could not read. So the
filter also withholds every log argument that may hold data (anything but numbers, exceptions and
short plain words: a dict, a list, an Update, a JSON string) and, on such a record, keeps only the
type of the exception (its message may quote a value).
"""

from __future__ import annotations

import datetime as dtm
import logging
from collections.abc import Mapping
from typing import Any

from telegram.error import TelegramError

from adapters import logged

REDACTED = "<token>"
WITHHELD = "<data withheld>"
_PLAIN_TYPES = (int, float, type(None), dtm.datetime, dtm.timedelta, TelegramError)
_MAX_PLAIN = 120

# PTB logger names (see telegram._utils.logging.get_logger); a filter on a
# parent logger does not see its children's records, so each is listed.
# Loggers that would print the token or message texts below WARNING/INFO.
_QUIET = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "telegram.Bot": logging.INFO,
    "telegram.ext.Application": logging.INFO,  # "Processing update ..." holds message texts
    "telegram.ext.ExtBot": logging.INFO,
    "telegram.request.BaseRequest": logging.INFO,
    "telegram.request.HTTPXRequest": logging.INFO,
}
_FILTERED = (
    "telegram",
    "telegram.ext",
    "telegram.Bot",
    "telegram.ext.ExtBot",
    "telegram.ext.Application",
    "telegram.ext.Updater",
    "telegram.ext.AIORateLimiter",
    "telegram.request.BaseRequest",
    "telegram.request.HTTPXRequest",
    "httpx",
    "httpcore",
)


def redact(value: object, token: str) -> str:
    """`str(value)` with the token (and the secret half of it) blanked out."""
    text = str(value)
    if token:
        text = text.replace(token, REDACTED)
        secret = token.split(":", 1)[-1]
        if len(secret) >= 8:
            text = text.replace(secret, REDACTED)
    return text


def shown(chat_id: int | str | None) -> str:
    """A chat as the log shows it: a group by its id, a private chat (a positive id: its user's own)
    by the keyed hash that names its user (adapters/logged.py)."""
    return "-" if chat_id is None else logged.chat("telegram", chat_id, str(chat_id).isdigit())


def _plain(arg: Any) -> bool:
    """A log argument that cannot hold a message text: a number, a time, a Telegram error, or a
    short word without structure (an endpoint name, a description)."""
    if isinstance(arg, _PLAIN_TYPES):
        return True
    return isinstance(arg, str) and len(arg) <= _MAX_PLAIN and not any(c in arg for c in "{}[]\n'\"")


def withhold_data(record: logging.LogRecord) -> bool:
    """Replace the arguments that may carry update data by a marker; True if any was."""
    args = record.args
    if not args:
        return False
    if isinstance(args, Mapping):  # logging passes a lone dict argument as the mapping itself
        record.args = (WITHHELD,)
        return True
    if all(_plain(a) for a in args):
        return False
    record.args = tuple(a if _plain(a) else _kind(a) if isinstance(a, BaseException) else WITHHELD
                        for a in args)
    return True


def _kind(exc: BaseException) -> str:
    """An exception as its type alone: outside Telegram's own errors (an API description, a
    network failure) the message may quote a value from an update."""
    return type(exc).__name__


class RedactingFilter(logging.Filter):
    """Rewrites a record so that neither its message nor its traceback holds the token or
    update data."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        withheld = withhold_data(record)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: keep its template only
            message, record.args = str(record.msg), None
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            told = isinstance(exc, TelegramError) and not withheld
            message = f"{message} ({type(exc).__name__}: {exc})" if told else f"{message} ({_kind(exc)})"
            record.exc_info = None
            record.exc_text = None
        record.msg = redact(message, self.token)
        record.args = None
        return True


def install(token: str) -> list[tuple[logging.Logger, logging.Filter]]:
    """Quiet the chatty loggers and attach the redacting filter; returns what to uninstall."""
    for name, level in _QUIET.items():
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET or logger.level < level:
            logger.setLevel(level)
    installed: list[tuple[logging.Logger, logging.Filter]] = []
    for name in _FILTERED:
        logger = logging.getLogger(name)
        flt = RedactingFilter(token)
        logger.addFilter(flt)
        installed.append((logger, flt))
    return installed


def uninstall(installed: list[tuple[logging.Logger, logging.Filter]]) -> None:
    """Remove the filters `install` attached (the levels stay: they are safe)."""
    for logger, flt in installed:
        logger.removeFilter(flt)
