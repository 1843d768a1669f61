"""A tie for first place decided by typing, `/winner NAME`: for a scorer whose winner buttons are gone (an
old message, a restart of the console; /board shows them again, `presenter.tie_buttons`)."""

from __future__ import annotations

from core.errors import GameError
from core.games.kegeln.actions import Decide
from core.games.kegeln.state import Phase, State, team_members
from core.names import clean


def tied_names(state: State) -> str:
    """Who is tied, as the scorer may type them: `Anna, Ben`; teams as `[1] Anna, Ben · [2] Cleo, Dan`."""
    if not state.teams:
        return ", ".join(state.members[e].name for e in state.tied)
    return " · ".join(f"[{t + 1}] " + ", ".join(state.members[i].name for i in team_members(state, t))
                      for t in state.tied)


def typed_winner(state: State, text: str, actor: str, admin: bool = False) -> Decide:
    """`/winner Anna` (a tied member's name), in a team duel `/winner 2` (the team's number) or the
    name of one of its members: the decision, which the rules judge as the button's (only the scorer
    or an admin decides; only a tied entry wins). Anyone else is refused before any name is read."""
    if actor != state.scorer.user_id and not admin:
        raise GameError("kegeln.not_scorer", scorer=state.scorer.name)
    if state.phase is not Phase.TIE:
        raise GameError("kegeln.no_tie")
    wanted = clean(text).casefold()
    if not wanted:
        raise GameError("kegeln.winner_usage", tied=tied_names(state))
    if state.teams and wanted.isdecimal() and len(wanted) < 3:
        return Decide(int(wanted) - 1, admin)
    for i, m in enumerate(state.members):
        if m.name.casefold() == wanted:
            return Decide(m.team if state.teams and m.team is not None else i, admin)
    raise GameError("kegeln.winner_usage", tied=tied_names(state))
