"""Higher or lower: a game that exists only in the tests, to show that a new game is one package.

`rules` is the pure game (it would live in core/games/hilo/), `plugin` its bot-side half and `texts/` its
catalogs in the five languages (they would live in bot/games/hilo/): registering the plugin is all it takes —
the loader finds its texts beside it (bot/texts/i18n.py `text_folders`), and the catalog and language checks
(tests/test_catalogs.py, tests/test_language_classes.py, tests/test_languages.py) read them like a shipped game's."""
