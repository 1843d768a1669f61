"""What a plain message is, the same for every game: a short run of digits is a typed code
(`core.codes.looks_like_code`) and the catalog languages' words ask for a random secret
(`bot.app.routing.asks_random`): routing asks each once per message, not once per game."""

from __future__ import annotations

from bot.app.routing import asks_random
from core.codes import looks_like_code
from core.games.base import Game


def test_codes_and_random_words() -> None:
    assert looks_like_code(" 0123 ") and looks_like_code("12")
    assert not any(looks_like_code(t) for t in ("7", "123456789", "١٢٣", "12a"))
    assert asks_random("Zufall") and asks_random("случайно") and not asks_random("randomly")


def test_no_game_says_it_otherwise() -> None:
    """No per-game hook any more: a game that wanted its own would have to be asked again per message."""
    assert not hasattr(Game, "reads_as_code") and not hasattr(Game, "asks_random")
