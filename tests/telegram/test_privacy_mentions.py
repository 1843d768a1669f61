"""Privacy mode's own messages are guesses (issue 35): in privacy mode a group delivers a plain message
to the bot only when it mentions the bot by @username ("messages that either start with the '/' symbol
or mention the bot by username", BotFather's /setprivacy; https://core.telegram.org/bots/features#privacy-mode)
— so `@Bot 8901` and `2345 @Bot` are exactly what players send there, and each is the guess it
carries. The stand-in delivers by that rule (tests/telegram/standin_identity.py `delivered`)."""

from __future__ import annotations

import discord
import pytest

from adapters.discord.inbound import strip_bot_mention
from adapters.telegram.inbound import without_bot_mention
from tests.telegram.standin_objects import BOT_USERNAME
from tests.telegram.test_e2e_app import BOB, GROUP, sent
from tests.telegram.test_identity import ClockedClub, post, quiet, texts

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
__all__ = ["quiet"]  # the fixture: the bot in privacy mode, no admin


async def test_a_guess_that_mentions_the_bot_is_the_guess_before_or_after(quiet: ClockedClub) -> None:
    club = quiet
    calls = await club.act(post(club, GROUP, BOB, "/practice"))
    assert sent(calls, GROUP.id)
    for text, code in ((f"@{BOT_USERNAME} 8901", "8901"), (f"2345 @{BOT_USERNAME}", "2345"),
                       (f"@{BOT_USERNAME.lower()}   6789", "6789")):
        answer = texts(await club.act(post(club, GROUP, BOB, text)), GROUP.id)
        assert f"{code} →" in answer, (text, answer)
    assert club.standin.unheard == []  # all of them reached the bot (privacy mode let them through)


@pytest.mark.parametrize(("typed", "seen"), [
    ("@Bot 8901", "8901"), ("2345 @Bot", "2345"), ("@Bot   6789  ", "6789"), ("12 @Bot 34", "12 34"),
    ("@Bot", ""), ("4321", "4321"),
])
def test_telegram_and_discord_take_a_mention_of_the_bot_alike(typed: str, seen: str) -> None:
    """The bot's mention goes wherever it stands in a plain message, on both platforms (issue 35)."""
    bot = discord.Object(id=99)
    assert without_bot_mention(typed, "Bot") == seen
    assert strip_bot_mention(typed.replace("@Bot", "<@99>"), bot).strip() == seen

