"""Core rules of Бык-корова (docs/rules.md §3): answers, lobby, rounds, scoring, skips, votes, two players, solo."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.texts.i18n import Catalogs
from bot.texts.option_words import option_vocabulary
from core import serial
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Outcome
from core.games.words import GAME, rules
from core.games.words.actions import Begin, GuessWord, Join, Leave, SetWord, Skip, Vote
from core.games.words.events import (
    Abandoned,
    ClassicAnswer,
    Guessed,
    Lobby,
    Reminded,
    Skipped,
    SoloGaveUp,
    SoloSolved,
    Voted,
)
from core.games.words.options import parse_options
from core.games.words.presenter import present
from core.games.words.rules import apply, classic, due_action, follow_up, new_solo, results
from core.games.words.state import GIVE_UP_PENALTY, Mode, Options, Phase, State, WordsOutcome, active, guessers, seated
from core.lexicon import is_word_of, normalise
from core.messages import Chat
from core.scoring import bulls_cows
from tests.games.words.helpers import P, begun, ctx, lexicon, lobby, uid, with_word

OPTION_WORDS = option_vocabulary(Catalogs())  # every catalog's option words, as the App reads them


@pytest.mark.parametrize(("secret", "guess", "answer"), [
    ("рост", "трос", ClassicAnswer.COW),  # the seed's anagram example
    ("соль", "соло", ClassicAnswer.BULL),  # the seed's bull example
    ("соло", "соль", ClassicAnswer.BULL),
    ("рост", "рост", ClassicAnswer.GOT),
    ("бык", "кот", ClassicAnswer.COW),
    ("кот", "еж" + "а", ClassicAnswer.MISS),
    ("crane", "crane", ClassicAnswer.GOT),
    ("crane", "trace", ClassicAnswer.BULL),  # r, a?, e at the end
    ("crane", "tiger", ClassicAnswer.COW),
    ("lemon", "start", ClassicAnswer.MISS),
    ("haus", "maus", ClassicAnswer.BULL),
    ("stone", "notes", ClassicAnswer.COW),  # an anagram with no letter in place
    ("tjur", "kort", ClassicAnswer.COW),
])
def test_classic_answers(secret: str, guess: str, answer: ClassicAnswer) -> None:
    assert classic(secret, guess) is answer


@pytest.mark.parametrize(("secret", "guess", "a", "b"), [
    ("apple", "paper", 1, 3),  # repeated p: each letter matched at most once
    ("мама", "папа", 2, 0),
    ("sheep", "beers", 1, 2),
    ("трос", "рост", 0, 4),
])
def test_counts_mode_counts_letters_as_a_multiset(secret: str, guess: str, a: int, b: int) -> None:
    assert bulls_cows(secret, guess) == (a, b)


def test_normalisation_and_alphabets() -> None:
    assert normalise(" Ёлка ", "ru") == "елка"
    assert normalise("Ёлка", "bg") == "ёлка" and not is_word_of("ёлка", "bg")
    assert normalise("Straße", "de") == "strasse" and is_word_of("grüße", "de") is False
    assert is_word_of("grüsse", "de") and not is_word_of("grüsse", "en")
    assert is_word_of("rätt", "sv") and not is_word_of("ыы", "bg") and is_word_of("ыы", "ru")
    st = lobby("ann")  # the word game accepts by shape alone
    assert GAME.accepts_text(st, "кошка") and GAME.accepts_text(st, "Hello")
    assert not GAME.accepts_text(st, "two words")
    assert not GAME.accepts_text(st, "1234") and not GAME.accepts_text(st, "x")


# ---------------------------------------------------------------- lobby

def test_lobby_join_leave_begin() -> None:
    s = lobby("ann", "bob")
    assert [p.user_id for p in seated(s)] == ["ann", "bob"]
    with pytest.raises(GameError) as e:
        apply(s, Join("Bob"), "bob", ctx())
    assert e.value.code == "words.already_joined"
    with pytest.raises(GameError) as e:
        apply(s, Begin(), "bob", ctx())
    assert e.value.code == "words.not_opener"
    s2, ev = apply(s, Leave(), "bob", ctx())
    assert [p.user_id for p in seated(s2)] == ["ann"] and ev[0].type == "left"
    with pytest.raises(GameError) as e:
        apply(s2, Begin(), "ann", ctx())
    assert e.value.code == "words.too_few"
    s3, ev = apply(s, Leave(), "ann", ctx())  # the opener leaving closes the lobby
    assert GAME.is_over(s3) and s3.outcome is WordsOutcome.CANCELLED and results(s3) == []
    assert serial.dump(s3)["outcome"] == "cancelled" and serial.load(State, serial.dump(s3)) == s3  # stored as before
    with pytest.raises(GameError) as e:
        apply(s, GuessWord("crane"), "bob", ctx())
    assert e.value.code == "words.not_begun"


def test_begin_draws_order_and_setter_by_lot() -> None:
    seen_setters, seen_orders = set(), set()
    for seed in range(30):
        s = begun("ann", "bob", "cy", "dan", seed=seed)
        assert sorted(p.user_id for p in s.players) == ["ann", "bob", "cy", "dan"]
        assert s.phase is Phase.SETTING and s.setter in {"ann", "bob", "cy", "dan"}
        seen_setters.add(s.setter)
        seen_orders.add(tuple(p.user_id for p in s.players))
    assert len(seen_setters) == 4 and len(seen_orders) > 5
    with pytest.raises(GameError) as e:
        apply(begun("ann", "bob", "cy"), Join("Dan"), "dan", ctx())
    assert e.value.code == "words.already_begun"


# ---------------------------------------------------------------- the word and the guesses

def test_setter_word_is_validated_and_locked() -> None:
    s = begun("ann", "bob", "cy")
    other = next(u for u in active(s) if u != s.setter)
    for word, code in [("cran", "words.length"), ("cran3", "words.not_a_word"), ("zzzzz", "words.unknown")]:
        with pytest.raises(GameError) as e:
            apply(s, SetWord(word), s.setter, ctx())
        assert e.value.code == code
    with pytest.raises(GameError) as e:
        apply(s, SetWord("crane"), other, ctx())
    assert e.value.code == "words.not_setter"
    s2 = with_word(s, " Crane ")
    assert s2.secret == "crane" and s2.phase is Phase.GUESSING and s2.turn != s.setter
    with pytest.raises(GameError) as e:
        apply(s2, SetWord("slate"), s.setter, ctx())
    assert e.value.code == "words.wrong_phase"


def test_free_mode_accepts_any_letters_and_random_word_is_common() -> None:
    s = begun("ann", "bob", opts=Options(strict=False))
    assert with_word(s, "zzzzz").secret == "zzzzz"
    s2, _ = apply(begun("ann", "bob"), SetWord(None), s.setter, ctx())
    assert s2.secret in lexicon("en").common and len(s2.secret) == 5


def test_turns_refusals_keep_the_turn() -> None:
    s = with_word(begun("ann", "bob", "cy"), "crane")
    first = uid(s.turn)
    second = rules._next_guesser(s, first)
    with pytest.raises(GameError) as e:
        apply(s, GuessWord("slate"), second, ctx())
    assert e.value.code == "not_your_turn"
    with pytest.raises(GameError) as e:
        apply(s, GuessWord("slate"), s.setter, ctx())
    assert e.value.code == "words.you_set"
    for word, code in [("slat", "words.length"), ("zzzzz", "words.unknown"), ("sl4te", "words.not_a_word")]:
        with pytest.raises(GameError) as e:
            apply(s, GuessWord(word), first, ctx())
        assert e.value.code == code
    s, ev = apply(s, GuessWord("slate"), first, ctx())
    assert isinstance(ev[0], Guessed) and ev[0].answer is ClassicAnswer.BULL and s.turn == second
    with pytest.raises(GameError) as e:  # a repeated word is refused and does not use the turn
        apply(s, GuessWord("SLATE"), second, ctx())
    assert e.value.code == "words.already_said" and s.turn == second and len(s.tries) == 1


def test_guesses_go_round_in_the_lots_order() -> None:
    s = with_word(begun("ann", "bob", "cy", "dan"), "crane")
    order = [p.user_id for p in s.players]
    turns = []
    for w in ["slate", "plant", "stone", "notes", "onset", "lemon"]:
        turns.append(s.turn)
        s, _ = apply(s, GuessWord(w), s.turn, ctx())
    others = [u for u in order if u != s.setter]
    i = order.index(uid(s.setter))
    expected = [u for u in order[i + 1:] + order[:i]]
    assert turns == (expected * 2)[:6] and len(set(turns)) == len(others) == 3


def test_solver_scores_sets_next_and_points_end_the_match() -> None:
    s = with_word(begun("ann", "bob", "cy", opts=Options(goal=2)), "crane")
    solver = uid(s.turn)
    s, ev = apply(s, GuessWord("crane"), solver, ctx())
    assert [e.type for e in ev] == ["guessed", "solved", "round"]
    assert s.points[solver] == 1 and s.setter == solver and s.phase is Phase.SETTING and s.secret == ""
    while not GAME.is_over(s):  # play on until someone reaches two points
        if s.phase is Phase.SETTING:
            s = with_word(s, "apple")
        s, _ = apply(s, GuessWord("apple"), s.turn, ctx())
    winner = s.winners[0]
    assert s.points[winner] == 2 and len(s.winners) == 1
    outcomes = {r.user_id: r.outcome for r in results(s)}
    assert outcomes[winner] is Outcome.WIN and sorted(outcomes.values()).count(Outcome.LOSS) == 2


def test_rounds_mode_most_points_and_shared_first_place() -> None:
    s = with_word(begun("ann", "bob", "cy", opts=Options(mode=Mode.ROUNDS, goal=2)), "crane")
    a = uid(s.turn)
    s, _ = apply(s, GuessWord("crane"), a, ctx())  # a sets next
    s = with_word(s, "lemon")
    b = uid(s.turn)
    s, ev = apply(s, GuessWord("lemon"), b, ctx())
    assert GAME.is_over(s) and ev[-1].type == "match_over" and len(s.rounds) == 2
    assert sorted(s.winners) == sorted({a, b}) and s.points[a] == s.points[b] == 1
    rows = {r.user_id: r.outcome for r in results(s)}
    assert rows[a] is rows[b] is Outcome.DRAW


# ---------------------------------------------------------------- time, votes, leaving

def test_skip_after_the_time_is_lazy_and_moves_the_turn() -> None:
    s = with_word(begun("ann", "bob", "cy", opts=Options(turn_seconds=60)), "crane", now=1000.0)
    late = s.turn
    assert due_action(s, 1059.0) is None
    assert due_action(s, 1060.0) == Skip()
    with pytest.raises(GameError):
        apply(s, Skip(), None, ctx(1030.0))
    s2, ev = apply(s, Skip(), None, ctx(1060.0))
    assert isinstance(ev[0], Skipped) and ev[0].by == late and s2.turn != late and s2.turn_since == 1060.0
    assert due_action(s2, 1100.0) is None


def test_where_typed_words_go_unheard_a_late_guesser_is_reminded_once_before_a_skip() -> None:
    """Telegram's privacy mode (`Ctx.typed` False): a plain word may never have reached the bot, so
    the first time out tells the guesser how to guess and times them again; only then are they skipped."""
    s = with_word(begun("ann", "bob", "cy", opts=Options(turn_seconds=60)), "crane", now=1000.0)
    late = uid(s.turn)
    unheard = replace(ctx(1060.0), typed=False)
    s2, ev = apply(s, Skip(), None, unheard)
    assert ev == [Reminded(late)] and s2.turn == late
    assert due_action(s2, 1100.0) is None and due_action(s2, 1120.0) == Skip()
    s3, ev = apply(s2, Skip(), None, replace(unheard, now=1120.0))
    assert ev[0].type == "skipped" and s3.turn != late
    texts = [m.text for m in present(1, s2, [Reminded(late)], Chat("t", "g", False))]
    assert texts[0].key == "words.reminded" and texts[0].params["seconds"] == 60
    # the guesser's next turn is reminded anew
    s4, ev = apply(s3, GuessWord("slate"), s3.turn, replace(unheard, now=1130.0))
    _s5, ev = apply(s4, Skip(), None, replace(unheard, now=1190.0))
    assert ev == [Reminded(uid(s4.turn))]


def test_a_setter_who_does_not_set_is_passed_over() -> None:
    s = begun("ann", "bob", "cy", opts=Options(turn_seconds=60))
    late = s.setter
    s2, ev = apply(s, Skip(), None, ctx(1060.0))
    assert [e.type for e in ev] == ["setter_skipped", "round"] and s2.setter != late
    assert due_action(begun("ann", "bob", opts=Options(turn_seconds=60)), 5000.0) is None  # two players


def test_majority_vote_abandons_the_round() -> None:
    s = with_word(begun("ann", "bob", "cy", "dan"), "crane")
    setter, gs = uid(s.setter), guessers(s)
    with pytest.raises(GameError) as e:
        apply(s, Vote(), setter, ctx())
    assert e.value.code == "words.setter_cannot_vote"
    s, ev = apply(s, Vote(), gs[0], ctx())
    assert ev[0] == Voted(by=gs[0], votes=1, needed=2) and s.phase is Phase.GUESSING
    with pytest.raises(GameError):
        apply(s, Vote(), gs[0], ctx())
    s, ev = apply(s, Vote(), gs[1], ctx())
    assert [e.type for e in ev] == ["vote", "abandoned", "round"]
    assert isinstance(ev[1], Abandoned) and ev[1].word == "crane"
    order = [p.user_id for p in s.players]
    assert s.setter == order[(order.index(setter) + 1) % 4] and sum(s.points.values()) == 0


def test_setter_leaving_voids_the_round_and_last_player_ends_it() -> None:
    s = with_word(begun("ann", "bob", "cy"), "crane")
    setter = s.setter
    s, ev = apply(s, Leave(), setter, ctx())
    assert [e.type for e in ev] == ["left", "abandoned", "round"] and setter not in active(s)
    assert setter not in [p.user_id for p in seated(s)]
    s, ev = apply(s, Leave(), s.setter, ctx())
    assert GAME.is_over(s) and len(s.winners) == 1
    rows = {r.user_id: r.outcome for r in results(s)}
    assert sorted(rows.values()) == ["gave_up", "gave_up", "win"]


def test_idle_timeout_the_player_who_owed_the_move_is_out() -> None:
    s = with_word(begun("ann", "bob", "cy"), "crane")
    late = uid(s.turn)
    s, ev = apply(s, Timeout(), None, ctx())
    assert ev[0].type == "timed_out" and s.outcome is WordsOutcome.FINISHED and s.left == [late]
    assert {r.user_id: r.outcome for r in results(s)}[late] is Outcome.GAVE_UP
    setting = begun("ann", "bob", "cy")  # the setter owes the word
    s, _ = apply(setting, Timeout(), None, ctx())
    assert s.left == [setting.setter] and s.outcome is WordsOutcome.FINISHED


def test_idle_timeout_of_a_lobby_is_abandoned() -> None:
    s, ev = apply(lobby("ann", "bob"), Timeout(), None, ctx())
    assert ev[0].type == "timed_out" and s.outcome is WordsOutcome.TIMEOUT and results(s) == []


# ---------------------------------------------------------------- two players

def test_two_players_even_rounds_fewer_guesses_wins() -> None:
    s = with_word(begun("ann", "bob", opts=Options(mode=Mode.ROUNDS, goal=3)), "crane")
    assert s.mode is Mode.PAIR_ROUNDS and s.goal == 4  # odd rounds rounded up to even
    setters: list[str] = []
    for guesses in (["slate", "crane"], ["lemon"], ["apple", "paper", "hello"], ["tiger"]):
        setters.append(uid(s.setter))
        word = guesses[-1]
        if s.phase is Phase.SETTING:
            s = with_word(s, word)
        for g in guesses:
            s, _ = apply(s, GuessWord(g), s.turn, ctx())
    assert setters[0] == setters[2] != setters[1] == setters[3]  # roles strictly alternate
    first_guesser = setters[1]
    assert s.counts[first_guesser] == 2 + 3 and s.counts[setters[0]] == 1 + 1
    assert GAME.is_over(s) and s.winners == [setters[0]]


def test_two_players_default_points_become_rounds() -> None:
    s = begun("ann", "bob")
    assert s.mode is Mode.PAIR_ROUNDS and s.goal == 6


def test_two_players_limit_reached_loses() -> None:
    s = with_word(begun("ann", "bob", opts=Options(mode=Mode.PAIR_LIMIT, goal=3)), "crane")
    g = uid(s.turn)
    for w in ("slate", "plant"):
        s, _ = apply(s, GuessWord(w), g, ctx())
    assert not GAME.is_over(s)
    s, ev = apply(s, GuessWord("stone"), g, ctx())
    assert GAME.is_over(s) and s.loser == g and ev[-2].type == "limit_reached"
    rows = {r.user_id: r.outcome for r in results(s)}
    assert rows[g] is Outcome.LOSS and list(rows.values()).count(Outcome.WIN) == 1
    with pytest.raises(GameError) as e:
        apply(lobby("ann", "bob", "cy", opts=Options(mode=Mode.PAIR_LIMIT, goal=9)), Begin(), "ann", ctx())
    assert e.value.code == "words.limit_needs_two"


def test_two_players_give_up_costs_a_penalty() -> None:
    s = with_word(begun("ann", "bob", opts=Options(mode=Mode.ROUNDS, goal=2)), "crane")
    g = uid(s.turn)
    s, _ = apply(s, GuessWord("slate"), g, ctx())
    s, ev = apply(s, Vote(), g, ctx())
    assert ev[1].type == "abandoned" and s.counts[g] == 1 + GIVE_UP_PENALTY and s.setter == g


# ---------------------------------------------------------------- solo and options

def test_solo_against_the_bot() -> None:
    s, ev = new_solo(Options(length=4, lang="ru"), P("ann"), ctx())
    assert s.secret in lexicon("ru").common and len(s.secret) == 4 and ev[0].type == "solo"
    s.secret = "рост"
    s, ev = apply(s, GuessWord("трос"), "ann", ctx())
    assert isinstance(ev[0], Guessed) and ev[0].answer is ClassicAnswer.COW
    s2, ev = apply(s, GuessWord("рост"), "ann", ctx())
    assert GAME.is_over(s2) and ev[-1].type == "solo_solved" and ev[-1] == SoloSolved(n=2) and results(s2) == []
    _, ev = apply(s, GAME.quit_action(s, "ann", "giveup"), "ann", ctx())
    assert ev[0] == SoloGaveUp(word="рост", n=1)
    again = follow_up(s2, "again", "ann", ctx(seed=5))
    assert again is not None and again[0].phase is Phase.GUESSING


@pytest.mark.parametrize(("args", "solo", "opts"), [
    ((), False, Options(lang="de")),
    (("solo", "length", "4"), True, Options(length=4, lang="de")),
    (("length", "6", "rounds", "4", "answers", "counts", "free", "lang", "ru", "time", "90"), False,
     Options(length=6, mode=Mode.ROUNDS, goal=4, counts=True, strict=False, lang="ru", turn_seconds=90)),
    (("limit", "20",), False, Options(mode=Mode.PAIR_LIMIT, goal=20, lang="de")),
    (("Punkte", "5", "klassisch"), False, Options(goal=5, lang="de")),
    (("length 4  rounds 2",), False, Options(length=4, mode=Mode.ROUNDS, goal=2, lang="de")),
])
def test_parse_options(args: tuple[str, ...], solo: bool, opts: Options) -> None:
    assert parse_options(args, "de", OPTION_WORDS) == (solo, opts)


@pytest.mark.parametrize(("args", "code"), [
    (("length", "2"), "words.bad_length"), (("length", "9"), "words.bad_length"),
    (("lang", "fr"), "words.bad_lang"), (("rounds", "3", "points", "2"), "words.one_end"),
    (("banana",), "bad_option"), (("rounds", "x"), "bad_option"), (("time", "5"), "words.bad_time"),
    (("points", "0"), "words.bad_goal"),
])
def test_parse_options_errors(args: tuple[str, ...], code: str) -> None:
    with pytest.raises(GameError) as e:
        parse_options(args, "en", OPTION_WORDS)
    assert e.value.code == code


def test_button_verbs_keep_their_ids_and_a_stale_one_is_none() -> None:
    s = lobby("ann", "bob")
    lobby_keys = present(7, s, [Lobby()], Chat("t", "g", False))[0].buttons
    assert [b.action for row in lobby_keys for b in row] == ["g:7:join", "g:7:begin"]  # as sent before
    assert GAME.button_action(s, "join", "cy", "Cy", None) == Join("Cy")
    assert GAME.button_action(s, "begin", "ann", "Ann", None) == Begin()
    assert GAME.button_action(s, "vote", "bob", "Bob", None) == Vote()
    assert GAME.button_action(s, "random", "bob", "Bob", None) == SetWord(None)
    assert GAME.button_action(s, "p3", "bob", "Bob", None) is None
