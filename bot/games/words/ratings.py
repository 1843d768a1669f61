"""How a finished word match counts for the ratings (core/ratings.py): a ranking of who took part."""

from __future__ import annotations

from bot.storage.base import NewResult
from core.games.base import Outcome
from core.games.words.state import Mode, State, WordsOutcome, is_pair, movers
from core.ratings import Match, ranked_match


def rated_match(state: State, results: list[NewResult]) -> Match | None:
    """A finished match is a ranking by points (a two-player variant: its winner first, as it
    counts guesses); those who left rank below everyone who stayed. Only who made a move — a
    guess, or a word set for the others — takes part: a second account that joins and leaves
    hands out nothing. Solo practice and timed-out or cancelled matches are not rated."""
    if state.mode is Mode.SOLO or state.outcome is not WordsOutcome.FINISHED or not results:
        return None
    pair = is_pair(state)
    moved = movers(state)
    won = (Outcome.WIN, Outcome.DRAW)
    scores = {r.user_id: (float("-inf") if r.user_id in state.left else
                          float(r.outcome in won) if pair else float(state.points.get(r.user_id, 0)))
              for r in results if r.user_id in moved}
    return ranked_match(scores, {r.user_id: r.name for r in results})
