"""The word game (Бык-корова) through the App's game interface (core/games/base.py), a lobby game
(core/games/lobby.py): its rules and presenter (rules.py, presenter.py, exposed.py) bound as the class's
members, and what a typed message, a button or a command means in it."""

from __future__ import annotations

from core.errors import GameError
from core.games.actions import Cancel, Exposed, GiveUp
from core.games.base import Verb
from core.games.lobby import LobbyGame
from core.games.words import exposed, presenter, rules
from core.games.words import state as table
from core.games.words.actions import Begin, GuessWord, Join, Leave, SetWord, Vote, WordsVerb
from core.games.words.events import EVENTS
from core.games.words.state import AUTONYMS, Mode, Phase, State, awaiting_word
from core.messages import Text


class Words(LobbyGame[State]):
    kind = "words"
    state_type = State
    events = (*EVENTS, exposed.WordSeen)
    secret_in_group = "private.word_in_group"

    # ---------------------------------------------------------------- its rules and presenter, bound
    apply = staticmethod(exposed.apply)  # rules.apply, with a setter's word seen in the open ruled out
    present = staticmethod(exposed.present)
    board = staticmethod(presenter.board)
    players = staticmethod(table.players)
    seated = staticmethod(table.seated)
    results = staticmethod(rules.results)
    due_action = staticmethod(rules.due_action)
    follow_up = staticmethod(rules.follow_up)

    # ---------------------------------------------------------------- what a message or a button means
    def secret_prompt(self, game_id: int, state: State, user_id: str) -> Text | None:
        if not awaiting_word(state, user_id):
            return None
        return Text("words.word_prompt_again", {"game": game_id, "length": state.opts.length,
                                                 "lang": AUTONYMS[state.opts.lang]})

    def secret_action(self, text: str | None) -> SetWord:
        return SetWord(text)

    def exposed_action(self, text: str) -> Exposed:
        return Exposed(text)

    def accepts_text(self, state: State, text: str) -> bool:
        """A plain message that may be a guess: one word of letters."""
        t = text.strip()
        return 2 <= len(t) <= 16 and bool(rules.LETTERS.match(t))

    def text_action(self, state: State, user_id: str, text: str) -> GuessWord:
        return GuessWord(text)

    def button_action(self, state: State, verb: str, user_id: str, name: str, text: str | None) -> object | None:
        match verb:
            case WordsVerb.JOIN:
                return Join(name)
            case WordsVerb.LEAVE:
                return Leave()
            case WordsVerb.BEGIN:
                return Begin()
            case Verb.RANDOM:
                return SetWord(None)
            case WordsVerb.VOTE:
                return Vote()
        return None  # a stale button

    def quit_action(self, state: State, user_id: str, command: str) -> object | None:
        """/giveup: solo → give up; a group round → a vote to abandon it. /resign: leave the match."""
        if command == "giveup":
            return GiveUp() if state.mode is Mode.SOLO else Vote()
        if command == "resign":
            return Leave()
        return None

    def cancel_action(self, state: State, user_id: str) -> Cancel:
        if state.phase is not Phase.LOBBY:
            raise GameError("words.cancel_running")
        return Cancel()

    def join_action(self, state: State, user_id: str, name: str) -> Join | None:
        """/join: this game takes new players now."""
        return Join(name) if state.phase is Phase.LOBBY else None

    def leave_action(self, state: State, user_id: str) -> Leave:
        return Leave()
