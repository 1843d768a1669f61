"""Log hygiene: the bot token and message texts must never reach the logs.

PTB logs the API URL (which contains the token), every call's parameters and
every incoming update (which contain private texts, i.e. secrets) at DEBUG; httpx logs each request
URL at INFO. Those loggers are raised to a safe level and a filter redacts the
token from anything that still passes through them.
"""

from __future__ import annotations

import logging

REDACTED = "<token>"

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


class RedactingFilter(logging.Filter):
    """Rewrites a record so that neither its message nor its traceback holds the token."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: keep it, unformatted
            return True
        if record.exc_info and record.exc_info[1] is not None:
            message = f"{message} ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
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
    installed = []
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
