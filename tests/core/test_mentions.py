"""Each presenter names the player who must act in `Message.mention` (a platform notifies them), and
nobody where nobody must act: a challenge aimed at someone, a turn, the duel's last chance, the word
setter asked in the group, the Kegeln scorer deciding a tie."""

from __future__ import annotations

from core.codes import CodeRules
from core.games import words
from core.games.actions import Guess
from core.games.duel import presenter as duel_presenter
from core.games.duel import rules as duel
from core.games.kegeln import actions, presenter, rules
from core.games.kegeln.events import Tie
from core.games.logik import presenter as logik_presenter
from core.games.logik import rules as logik
from core.games.words.actions import GuessWord, SetWord
from core.games.words.events import NewRound
from core.messages import Message
from tests.games.duel.test_duel import CHAT, A, B, ctx, playing
from tests.games.kegeln.test_rules import tied_game
from tests.games.logik import common as lc
from tests.games.words.helpers import begun
from tests.games.words.helpers import ctx as words_ctx


def by_key(msgs: list[Message]) -> dict[str, tuple[str, ...]]:
    return {m.text.key: m.mention for m in msgs}


def test_duel_mentions_the_challenged_the_player_to_move_and_the_last_chance() -> None:
    s, ev = duel.new(CodeRules(4), A, B, ctx())
    assert by_key(duel_presenter.present(1, s, ev, CHAT)) == {"duel.challenged": ("b",)}
    s, ev = duel.new(CodeRules(4), A, None, ctx())
    assert by_key(duel_presenter.present(1, s, ev, CHAT)) == {"duel.challenged_open": ()}  # nobody in particular

    s = playing("1234", "5678", starter="a")
    s, ev = duel.apply(s, Guess("9876"), "a", ctx())
    assert by_key(duel_presenter.present(1, s, ev, CHAT)) == {"duel.guess_next": ("b",)}
    s, ev = duel.apply(s, Guess("9870"), "b", ctx())
    s, ev = duel.apply(s, Guess("5678"), "a", ctx())  # Alice cracks Bob's: Bob's last chance
    said = by_key(duel_presenter.present(1, s, ev, CHAT))
    assert said["duel.last_chance"] == ("b",) and said["duel.guess"] == ()

    s, ev = duel.apply(s, Guess("9012"), "b", ctx())  # missed: Alice wins
    assert all(m.mention == () for m in duel_presenter.present(1, s, ev, CHAT))  # the end: nobody must act


def test_logik_mentions_the_challenged_and_who_still_owes_a_row() -> None:
    s, ev = logik.new(lc.A, lc.B, 10, lc.LETTERS, lc.ctx())
    assert by_key(logik_presenter.present(1, s, ev, lc.CHAT)) == {"logik.challenged": ("b",)}
    s = lc.playing("12345", "54321")
    s, ev = logik.apply(s, Guess("11111"), "a", lc.ctx())
    assert by_key(logik_presenter.present(1, s, ev, lc.CHAT)) == {"logik.submitted": ("b",)}
    s, ev = logik.apply(s, Guess("22222"), "b", lc.ctx())
    assert all(m.mention == () for m in logik_presenter.present(1, s, ev, lc.CHAT))  # revealed: both move again


def test_words_mentions_the_guesser_whose_turn_it_is_and_the_setter_in_the_fallback() -> None:
    s = begun("alice", "bob", "dave")
    round_msgs = words.GAME.present(1, s, [NewRound(n=1, setter=s.setter or "")], CHAT)
    prompt = next(m for m in round_msgs if m.fallback is not None)
    assert prompt.fallback is not None and prompt.fallback.mention == (s.setter,)
    assert all(m.mention == () for m in round_msgs)  # the announcement and the private prompt itself

    s, ev = words.GAME.apply(s, SetWord("crane"), s.setter, words_ctx())
    said = by_key(words.GAME.present(1, s, ev, CHAT))
    assert said["words.guessing"] == (s.turn,)
    first = s.turn
    s, ev = words.GAME.apply(s, GuessWord("slate"), first, words_ctx())
    assert by_key(words.GAME.present(1, s, ev, CHAT))["words.guess_next"] == (s.turn,) and s.turn != first


def test_kegeln_tie_mentions_the_scorer_and_the_decision_nobody() -> None:
    s = tied_game()
    (tie,) = presenter.present(3, s, [Tie(tied=s.tied)], CHAT)
    assert tie.mention == ("s",)
    s, ev = rules.apply(s, actions.Decide(1), "s", ctx())
    assert all(m.mention == () for m in presenter.present(3, s, ev, CHAT))
