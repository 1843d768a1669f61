"""The 1A2B duel as the solver sees it (`VIEW`, carried by its plugin): its code space, /analyse of a finished
duel, and the computer opponent's part — its guesses, its turn, its last chance; `new_bot_duel`, a duel against it."""

from __future__ import annotations

from core.codes import CodeRules
from core.games.base import Ctx, Event, Player
from core.games.challenge import Phase, other
from core.games.duel import GAME
from core.games.duel import rules as duel
from core.solver.games import BOT, ComputerView, History, spec_for
from core.solver.spaces import Spec


class DuelView(ComputerView[duel.State]):
    analysable = True
    game = GAME

    def spec(self, state: duel.State) -> Spec:
        return spec_for(state.rules)

    def analysis(self, state: duel.State, user_id: str) -> tuple[Spec, History, str | None]:
        mine = state.attempts.get(user_id) if state.phase is Phase.FINISHED else None
        if not mine:
            return super().analysis(state, user_id)
        target = state.secrets.get(other(state, user_id).user_id)
        return self.spec(state), [(a.code, a.a, a.b) for a in mine], target

    def history(self, state: duel.State) -> History:
        return [(a.code, a.a, a.b) for a in state.attempts.get(BOT, [])]

    def last_guess(self, state: duel.State) -> bool:
        """Its last chance after the human cracked first, or the duel's guess limit."""
        return state.last_chance or len(state.attempts.get(BOT, [])) >= duel.MAX_GUESSES - 1

    def to_think(self, state: duel.State) -> bool:
        return state.turn == BOT


VIEW = DuelView()


def new_bot_duel(rules: CodeRules, human: Player, bot_name: str, ctx: Ctx) -> tuple[duel.State, list[Event]]:
    """A 1A2B duel against the bot: challenged, accepted at once, the bot's random secret set; the
    human's secret is awaited. Returns the state and the events from the acceptance on."""
    state, _ = duel.new(rules, human, Player(BOT, bot_name), ctx)
    return VIEW.accepts(state, bot_name, ctx)
