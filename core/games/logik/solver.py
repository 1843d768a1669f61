"""Logik as the solver sees it (`VIEW`, carried by its plugin): its code space, /analyse of a finished game, and
the computer opponent's part — its rows, its last row, its turn (whenever its row of the round is not in yet);
`new_bot_logik`, a game against it."""

from __future__ import annotations

from core.games.base import Ctx, Event, Player
from core.games.challenge import Phase, other
from core.games.logik import GAME
from core.games.logik import rules as logik
from core.solver.games import BOT, ComputerView, History
from core.solver.spaces import LOGIK, Spec


class LogikView(ComputerView[logik.State]):
    analysable = True
    game = GAME

    def spec(self, state: logik.State) -> Spec:
        return LOGIK

    def analysis(self, state: logik.State, user_id: str) -> tuple[Spec, History, str | None]:
        rows = state.rows.get(user_id) if state.phase is Phase.FINISHED else None
        if not rows:
            return super().analysis(state, user_id)
        target = state.secrets.get(other(state, user_id).user_id)
        return LOGIK, [(r.code, r.black, r.white) for r in rows], target

    def history(self, state: logik.State) -> History:
        return [(r.code, r.black, r.white) for r in state.rows.get(BOT, [])]

    def last_guess(self, state: logik.State) -> bool:
        """Its last row."""
        return len(state.rows.get(BOT, [])) >= state.rows_max - 1

    def to_think(self, state: logik.State) -> bool:
        return BOT not in state.pending


VIEW = LogikView()


def new_bot_logik(human: Player, bot_name: str, rows_max: int, letters: dict[str, str],
                  ctx: Ctx) -> tuple[logik.State, list[Event]]:
    """A Logik game against the bot (the human challenges, so plays white), set up like `new_bot_duel`."""
    state, _ = logik.new(human, Player(BOT, bot_name), rows_max, letters, ctx)
    return VIEW.accepts(state, bot_name, ctx)
