"""What keeps long polling from working, said once: Telegram answers getUpdates with 409 Conflict when
another process polls with the same token ("terminated by other getUpdates request") or a webhook is
set for it ("can't use getUpdates method while webhook is active"). python-telegram-bot retries
(waiting up to 30 s between tries) and reports every refusal; a bot that logged each would write a
stream of warnings while doing nothing. `PollState` logs one clear line when such a problem starts,
one when polling works again, and holds the problem for `python -m bot health`."""

from __future__ import annotations

import logging

from telegram.error import Conflict, TelegramError

log = logging.getLogger("adapters.telegram.adapter")

# the two conflicts, as Telegram words them (https://core.telegram.org/bots/api#getupdates: "will not work
# if an outgoing webhook is set up"; one getUpdates at a time per bot), and what the operator should do
OTHER_POLLER = ("another process is polling Telegram with this bot token (409 Conflict: terminated by other "
                "getUpdates request); only one instance may poll: stop the other, or run all of them with a webhook")
WEBHOOK_SET = ("a webhook is set for this bot token, so Telegram refuses polling (409 Conflict: can't use "
               "getUpdates method while webhook is active); another deployment uses a webhook: stop it, or set "
               "TELEGRAM_WEBHOOK_URL here too")


def conflict_of(exc: TelegramError) -> str | None:
    """The operator's line for a polling conflict, else None (a network hiccup, a 5xx)."""
    if not isinstance(exc, Conflict):
        return None
    return WEBHOOK_SET if "webhook" in exc.message.lower() else OTHER_POLLER


class PollState:
    """The current polling problem (None: none), logged when it starts, changes and ends."""

    def __init__(self) -> None:
        self.problem: str | None = None

    def failed(self, exc: TelegramError) -> bool:
        """A refused getUpdates; True when it was a conflict (said once, not per retry)."""
        problem = conflict_of(exc)
        if problem is None:
            return False
        if problem != self.problem:
            log.error("Telegram: %s", problem)
        self.problem = problem
        return True

    def answered(self) -> None:
        """getUpdates answered: whatever kept polling from working is over."""
        if self.problem is not None:
            log.warning("Telegram: polling works again")
            self.problem = None
