"""App hooks shared by the two-player challenge games (1A2B duel, Logik): both go
challenge → secrets → play, so a button, a plain message or /resign means the same in each."""

from __future__ import annotations

from typing import Any

from core.errors import GameError
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret
from core.games.base import Answer, Challenge, Event, Game, Player, S


def secret_action(text: str | None) -> SetSecret:
    """Private input where a secret is expected: the code, or None for a random one."""
    return SetSecret(text)


def text_action(state: Any, user_id: str, text: str) -> Guess:
    return Guess(text)


def button_action(state: Any, verb: str, user_id: str, name: str, text: str | None) -> object | None:
    return {"accept": Accept(name), "decline": Decline(), "random": SetSecret(None)}.get(verb)


def quit_action(state: Any, user_id: str, command: str) -> object | None:
    """/resign or /giveup (the same here) gives up a running game, or withdraws one's own challenge."""
    if command not in ("resign", "giveup"):
        return None
    return Cancel() if state.phase.value == "challenge" else Resign()


# ---------------------------------------------------------------- seats of a two-player challenge
# Both games' states have `challenger`, `opponent` (None for an open challenge), `offered_by` (a
# rematch offer) and a `phase` whose values include "challenge" and "secrets".

def players(state: Any) -> list[Player]:
    return [p for p in (state.challenger, state.opponent) if p is not None]


def player(state: Any, user_id: str) -> Player:
    for p in players(state):
        if p.user_id == user_id:
            return p
    raise GameError("not_a_player")


def other(state: Any, user_id: str) -> Player:
    for p in players(state):
        if p.user_id != user_id:
            return p
    raise GameError("not_a_player")


def offerer(state: Any) -> str:
    """Who made the challenge (or offered the rematch): the other one answers it."""
    return state.offered_by or state.challenger.user_id


UNPLAYED = ("declined", "cancelled", "expired")  # how a challenge ends that nobody accepted


def unplayed_offer(state: Any) -> bool:
    """A rematch offer that ended unanswered: it carries the match on as its source game would."""
    return state.offered_by is not None and state.outcome in UNPLAYED


def seat_ids(state: Any) -> set[str]:
    return {p.user_id for p in players(state)}


def seated(state: Any) -> list[Player]:
    """Who holds a seat in the chat: only the offerer while a challenge waits for an answer."""
    if state.phase.value == "challenge":
        return [player(state, offerer(state))]
    return players(state)


def can_answer(state: Any, user_id: str) -> str | None:
    """Whether this user may accept/decline: "targeted" (aimed at them), "open", or None."""
    if state.phase.value != "challenge" or user_id == offerer(state):
        return None
    if state.opponent is None:
        return "open"
    return "targeted" if user_id in seat_ids(state) else None


def seat(state: Any, actor: str | None) -> str:
    """The actor's seat, or `not_a_player`."""
    if actor is None or actor not in seat_ids(state):
        raise GameError("not_a_player")
    return actor


def need_challenge(state: Any) -> None:
    if state.phase.value != "challenge":
        raise GameError("wrong_phase")


def accept(s: Any, actor: str | None, name: str) -> tuple[Any, list[Event]]:
    """The answer that starts the game: the opponent (or, for an open challenge, anyone but the
    offerer) takes the second seat under their own current name; both then set secrets."""
    need_challenge(s)
    if actor is None or actor == offerer(s):
        raise GameError("self_challenge")
    if s.opponent is not None and actor not in seat_ids(s):
        raise GameError("not_challenged")
    if s.opponent is None or s.opponent.user_id == actor:
        s.opponent = Player(actor, name)
    s.phase = type(s.phase)("secrets")
    return s, [Event("accepted", {"by": actor}), Event("secrets_wanted", {})]


def check_decline(s: Any, actor: str | None) -> None:
    need_challenge(s)
    if s.opponent is None or actor not in seat_ids(s) or actor == offerer(s):
        raise GameError("not_challenged")


def check_cancel(s: Any, actor: str | None) -> None:
    need_challenge(s)
    if actor != offerer(s):
        raise GameError("not_challenger")


class ChallengeGame(Game[S]):
    """The App's view shared by the two-player challenge games: the capabilities that mean the same
    in each (a secret, typed guesses, the answer buttons, /resign, the seats, the rematch link)."""

    follows_up = True

    def secret_action(self, text: str | None) -> object | None:
        return secret_action(text)

    def text_action(self, state: S, user_id: str, text: str) -> object | None:
        return text_action(state, user_id, text)

    def button_action(self, state: S, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        return button_action(state, verb, user_id, name, text)

    def quit_action(self, state: S, user_id: str, command: str) -> object | None:
        return quit_action(state, user_id, command)

    def players(self, state: S) -> list[Player]:
        return players(state)

    def seated(self, state: S) -> list[Player]:
        return seated(state)

    def can_answer(self, state: S, user_id: str) -> Answer | None:
        answer = can_answer(state, user_id)
        return Answer(answer) if answer else None

    def challenge(self, state: S) -> Challenge | None:
        s: Any = state
        if s.phase.value != "challenge":
            return None
        return Challenge(offerer(s), self.pair(state), s.offered_by is not None,
                         {p.user_id: p.name for p in players(s)})

    def pair(self, state: S) -> frozenset[str]:
        return frozenset(seat_ids(state))

    def next_game(self, state: S) -> int | None:
        found: int | None = getattr(state, "next_game", None)
        return found

    def link_next(self, state: S, game_id: int) -> bool:
        s: Any = state
        s.next_game = game_id
        return True
