"""The word game (Бык-корова) as one package: `state`, `actions`, `events`, `options`, `rules`,
`presenter`, `exposed` and `game` (the class the App plays it through). Their names are re-exported
here for now, so `from core.games import words` reads them."""

from core.games.words.actions import *  # noqa: F403
from core.games.words.events import *  # noqa: F403
from core.games.words.game import Words
from core.games.words.options import *  # noqa: F403
from core.games.words.presenter import *  # noqa: F403
from core.games.words.rules import *  # noqa: F403
from core.games.words.state import *  # noqa: F403

GAME = Words()
