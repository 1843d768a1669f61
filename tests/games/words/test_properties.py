"""Hypothesis: the classic answer agrees with the counts, states round-trip through JSON, and no
sequence of actions crashes the game with anything but a GameError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core import serial
from core.errors import GameError
from core.games.actions import Cancel, GiveUp, Timeout
from core.games.words import GAME
from core.games.words.actions import Begin, GuessWord, Join, Leave, SetWord, Skip, Vote
from core.games.words.events import ClassicAnswer
from core.games.words.presenter import board, present
from core.games.words.rules import apply, classic, due_action, results
from core.games.words.state import LANGUAGES, Mode, Options, Phase, State, guessers
from core.messages import Chat
from core.scoring import bulls_cows
from tests.games.words.helpers import EN, ctx, lobby

CHAT = Chat("test", "g", False)
pairs = st.integers(3, 6).flatmap(lambda n: st.tuples(st.text("abcde", min_size=n, max_size=n),
                                                        st.text("abcde", min_size=n, max_size=n)))


@given(pairs)
def test_classic_agrees_with_counts_and_is_symmetric(pair: tuple[str, str]) -> None:
    secret, guess = pair
    a, b = bulls_cows(secret, guess)
    answer = classic(secret, guess)
    assert answer is classic(guess, secret)
    assert 0 <= a + b <= len(secret)
    if answer is ClassicAnswer.GOT:
        assert a == len(secret)
    elif answer is ClassicAnswer.BULL:
        assert 0 < a < len(secret) or secret != guess
    elif answer is ClassicAnswer.COW:
        assert a == 0 and b > 0
    else:
        assert a == b == 0 and not set(secret) & set(guess)


USERS = ["ann", "bob", "cy", "dan"]
actions = st.one_of(
    st.builds(Join, st.sampled_from(["X"])),
    st.just(Leave()), st.just(Begin()), st.just(Vote()), st.just(Skip()), st.just(GiveUp()),
    st.just(Cancel()), st.just(Timeout()),
    st.builds(SetWord, st.one_of(st.none(), st.sampled_from(EN), st.text(max_size=8))),
    st.builds(GuessWord, st.one_of(st.sampled_from(EN), st.text(max_size=8))),
)
Step = tuple[object, str | None, int]  # an action, who makes it, seconds later
steps = st.lists(st.tuples(actions, st.sampled_from([*USERS, None]), st.integers(0, 400)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(steps, st.sampled_from([Mode.POINTS, Mode.ROUNDS, Mode.PAIR_LIMIT]), st.booleans())
def test_any_sequence_keeps_a_valid_round_tripping_state(seq: list[Step], mode: Mode, counts: bool) -> None:
    s = lobby("ann", "bob", opts=Options(mode=mode, goal=2, counts=counts, turn_seconds=60))
    now = 1000.0
    for action, actor, dt in seq:
        now += dt
        if due_action(s, now) is not None:
            s, _ = apply(s, Skip(), None, ctx(now))
        try:
            new, events = apply(s, action, actor, ctx(now))
        except GameError:
            continue
        present(1, new, events, CHAT)
        board(1, new, CHAT)
        assert serial.load(State, serial.dump(new)) == new
        s = new
        if GAME.is_over(s):
            results(s)
            break
        if s.phase is Phase.GUESSING:
            assert s.turn in guessers(s) and len(s.secret) == s.opts.length


CATALOGS = None


@settings(max_examples=60, deadline=None)
@given(steps, st.sampled_from(LANGUAGES), st.booleans())
def test_every_message_renders_in_every_catalog_language(seq: list[Step], lang: str, counts: bool) -> None:
    from bot.texts.i18n import Catalogs

    global CATALOGS
    CATALOGS = CATALOGS or Catalogs()
    s = lobby("ann", "bob", "cy", opts=Options(lang="en", counts=counts, strict=False, turn_seconds=60))
    s.opts = Options(lang=lang, counts=counts, strict=False, turn_seconds=60, length=5)
    now = 1000.0
    for action, actor, dt in seq:
        now += dt
        try:
            s2, events = apply(s, action, actor, ctx(now))
        except GameError:
            continue
        for m in [*present(1, s2, events, CHAT), board(1, s2, CHAT)]:
            for msg in (m, m.fallback) if m.fallback else (m,):
                for cat in CATALOGS.languages:
                    text = CATALOGS.render(msg.text, cat)
                    assert text != msg.text.key and "{" not in text, (cat, msg.text)
                    for row in msg.buttons:
                        assert all(CATALOGS.render(b.label, cat) != b.label.key for b in row)
        s = s2
        if GAME.is_over(s):
            break
