"""What a plain message is, each game says (`Game.reads_as_code`, `Game.asks_random`): by default a short
run of digits is a typed code and the catalog languages' words ask for a random secret."""

from __future__ import annotations

from bot.games.registry import GAMES


def test_every_game_reads_codes_and_random_words_alike_by_default() -> None:
    for kind, game in GAMES.items():
        assert game.reads_as_code(" 0123 ") and game.reads_as_code("12"), kind
        assert not any(game.reads_as_code(t) for t in ("7", "123456789", "١٢٣", "12a")), kind
        assert game.asks_random("Zufall") and game.asks_random("случайно") and not game.asks_random("randomly"), kind
