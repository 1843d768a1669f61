"""The word game (Бык-корова) as one package: `state` (its State, options and limits), `actions`, `events`,
`options` (/words parsing), `rules` (the state machine), `presenter`, `exposed`, and `game`, the class
the App plays it through; `GAME` is its one instance."""

from core.games.words.game import Words

GAME = Words()
