"""The bot's day is the real UTC date in end-to-end tests that run the bot with the real clock
(console processes, the Discord client): a test about "today's" daily must not start seconds
before the date changes."""

import time


def clear_of_midnight(margin: float = 30.0) -> None:
    left = 86400 - time.time() % 86400
    if left < margin:
        time.sleep(left + 1)
