"""The data the package ships beside its code — catalogs, word lists, solver trees — found with
importlib.resources, so an installed wheel reads its own copy from any working folder.

They live in bot/data/ (packaged as package data, pyproject.toml): the readers are in bot/ (i18n,
dictionary, solver_book), and core/ reads no file, so core never needs them. What the bot writes
(database, pictures, caches) goes in the state folder instead (bot/process/state.py), never here.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

DATA: Traversable = resources.files("bot") / "data"
LOCALES: Traversable = DATA / "locales"  # <lang>.toml: the shared user-facing texts (bot/texts/i18n.py)
GAMES_DIR: Traversable = resources.files("bot") / "games"  # each game's own texts: <game>/texts/<lang>.toml
CLUB_TEXTS: Traversable = resources.files("bot") / "club" / "texts"  # the club wing's texts: <lang>.toml
WORDS: Traversable = DATA / "wordlists"  # <lang>.txt and <lang>.blocked: the bot's own words (bot/solver/dictionary.py)
TREES: Traversable = DATA / "solver-trees"  # perfect-, openings-, strong-<space>.txt.gz (bot/solver/book.py)
