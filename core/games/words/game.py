"""The word game (Бык-корова) through the App's game interface (core/games/base.py): one class that
answers each question of the interface from the game's modules (rules, presenter, exposed)."""

from __future__ import annotations

from collections.abc import Sequence

from core.errors import GameError
from core.games import base
from core.games.actions import Cancel, Exposed, GiveUp
from core.games.base import Ctx, Event, Game, Player, ResultRow, Verb
from core.games.words import exposed, presenter, rules
from core.games.words.actions import Begin, GuessWord, Join, Leave, SetWord, Vote, WordsVerb
from core.games.words.events import EVENTS
from core.games.words.state import AUTONYMS, Mode, Phase, State, awaiting_word, players, seated
from core.messages import Chat, Message, Text


class Words(Game[State]):
    kind = "words"
    state_type = State
    events = (*EVENTS, exposed.WordSeen)
    follows_up = True
    secret_in_group = "private.word_in_group"

    # ---------------------------------------------------------------- the state machine
    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        return exposed.apply(state, action, actor, ctx)

    def present(self, game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
        return exposed.present(game_id, state, events, chat)

    def board(self, game_id: int, state: State, chat: Chat) -> Message:
        return presenter.board(game_id, state, chat)

    def players(self, state: State) -> list[Player]:
        return players(state)

    def seated(self, state: State) -> list[Player]:
        return seated(state)

    def is_over(self, state: State) -> bool:
        return base.is_over(state)

    def results(self, state: State) -> list[ResultRow]:
        return rules.results(state)

    def last_activity(self, state: State) -> float:
        return base.last_activity(state)

    # ---------------------------------------------------------------- capabilities
    def due_action(self, state: State, now: float) -> object | None:
        return rules.due_action(state, now)

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

    def follow_up(self, old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
        return rules.follow_up(old, verb, user_id, ctx)
