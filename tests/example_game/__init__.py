"""Higher or lower: a game that exists only in the tests, to show that a new game is one package.

`rules` is the pure game (it would live in core/games/hilo/), `plugin` its bot-side half (it would
live in bot/games/hilo.py); registering both and giving the catalogs its keys is all it takes."""
