"""The word-game solver (core/solver/words.py) against the word game's own answer functions."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.solver.dictionary import lexicon
from core.games.words.events import ClassicAnswer
from core.games.words.rules import classic
from core.lexicon import ALPHABETS
from core.scoring import bulls_cows
from core.solver import EASY, STRONG
from core.solver.words import CLASSIC, WordSolver, play_word
from tests.app.harness import Table, texts

LANGS = ("en", "ru", "de", "bg", "sv")


@cache
def solver(lang: str, length: int, counts: bool, common: bool = False) -> WordSolver:
    lex = lexicon(lang)
    words = sorted(w for w in (lex.common if common else lex.words) if len(w) == length)
    return WordSolver(words, ALPHABETS[lang], counts)


def game_feedback(s: WordSolver, secret: str, guess: str) -> int:
    """What the word game (core/games/words/rules.py) answers, packed the solver's way."""
    if s.counts_mode:
        return s.pack_counts(*bulls_cows(secret, guess))
    return s.pack_classic(classic(secret, guess).value)


def test_classic_answers_are_the_games() -> None:
    assert tuple(a.value for a in ClassicAnswer) == CLASSIC
    s = solver("ru", 4, False)
    for secret, guess, want in [("рост", "трос", "cow"), ("соль", "соло", "bull"), ("соль", "соль", "got"),
                                ("соль", "мука", "miss")]:
        assert s.unpack(s.answer(secret, guess)) == want == classic(secret, guess).value


def test_counts_multiset_with_repeats() -> None:
    s = solver("ru", 5, True)
    assert s.unpack(s.answer("барак", "араба")) == bulls_cows("барак", "араба")
    assert s.unpack(s.answer("ааааа", "баааб")) == (3, 0)  # any letters of the alphabet, not only words


@settings(max_examples=200, deadline=None)
@given(lang=st.sampled_from(LANGS), length=st.sampled_from([3, 5, 7]), counts=st.booleans(), data=st.data())
def test_feedback_equals_the_game_on_real_words(lang: str, length: int, counts: bool, data: st.DataObject) -> None:
    s = solver(lang, length, counts)
    n = len(s.all)
    g = data.draw(st.integers(0, n - 1))
    cands = np.array(sorted(data.draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=20))))
    got = s.feedback(g, cands)
    block = s.feedback_block(np.array([g]), cands)[0]
    for c, fb, fb2 in zip(cands, got, block, strict=True):
        want = game_feedback(s, s.words[c], s.words[g])
        assert int(fb) == int(fb2) == want == s.answer(s.words[c], s.words[g])


@settings(max_examples=300, deadline=None)
@given(counts=st.booleans(), data=st.data())
def test_feedback_equals_the_game_with_repeated_letters(counts: bool, data: st.DataObject) -> None:
    """Random strings over a few Russian letters: many repeats, every multiset case."""
    s = solver("ru", 5, counts)
    letters = st.text(alphabet="аобк", min_size=5, max_size=5)
    secret, guess = data.draw(letters), data.draw(letters)
    assert s.answer(secret, guess) == game_feedback(s, secret, guess)
    # a guess outside the word list, against real candidates
    cands = s.all[:300]
    want = [game_feedback(s, s.words[c], guess) for c in cands]
    assert s.feedback(guess, cands).tolist() == want


def test_seeded_block_against_the_game() -> None:
    rnd = random.Random(7)
    for lang in ("en", "ru"):
        for counts in (False, True):
            s = solver(lang, 5, counts)
            gs = np.array(sorted(rnd.sample(range(len(s.all)), 40)))
            cs = np.array(sorted(rnd.sample(range(len(s.all)), 200)))
            block = s.feedback_block(gs, cs)
            want = [[game_feedback(s, s.words[c], s.words[g]) for c in cs] for g in gs]
            assert block.tolist() == want


@settings(max_examples=80, deadline=None)
@given(lang=st.sampled_from(["en", "ru"]), counts=st.booleans(), data=st.data())
def test_filtering_never_drops_the_secret(lang: str, counts: bool, data: st.DataObject) -> None:
    s = solver(lang, 5, counts)
    n = len(s.all)
    secret = s.words[data.draw(st.integers(0, n - 1))]
    guesses = [s.words[i] for i in data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5))]
    history = [(g, game_feedback(s, secret, g)) for g in guesses]
    left = s.remaining(history)
    assert secret in left
    for w in left[:50]:  # and every word left is consistent with every answer
        assert all(game_feedback(s, w, g) == fb for g, fb in history)


def test_unknown_letters_and_lengths_are_refused() -> None:
    s = solver("en", 5, False)
    with pytest.raises(ValueError):
        s.feedback("hällo")
    with pytest.raises(ValueError):
        s.feedback("four")
    with pytest.raises(ValueError):
        s.guess([], "medium")
    with pytest.raises(ValueError):
        s.guess([], EASY)  # easy needs an injected rng


# Measured on the 1,283 common 4-letter English words (wordfreq 3.1.1): classic mean 7.32, worst 9;
# counts mean 4.88, worst 7.
@pytest.mark.parametrize(("counts", "mean_max", "worst_max"), [(False, 7.35, 9), (True, 4.9, 7)])
def test_strong_finds_every_common_four_letter_word(counts: bool, mean_max: float, worst_max: int) -> None:
    s = solver("en", 4, counts, common=True)
    assert len(s.all) > 1000
    lens = []
    for w in s.words[:len(s.all)]:
        line = play_word(s, w, STRONG)
        assert line[-1] == w and len(set(line)) == len(line)
        lens.append(len(line))
    assert max(lens) <= worst_max
    assert sum(lens) / len(lens) <= mean_max, Counter(lens)


def test_strong_is_deterministic_and_never_repeats() -> None:
    a, b = WordSolver(solver("en", 5, False).words[:3000], ALPHABETS["en"], False), solver("en", 5, False)
    assert a.strong([]) == WordSolver(a.words, ALPHABETS["en"], False).strong([])
    first = b.strong([])
    secret = "house"
    h = [(first, game_feedback(b, secret, first))]
    assert b.strong(h) != first and b.strong(h) == b.strong(list(h))


@pytest.mark.parametrize("counts", [False, True])
def test_easy_guesses_are_consistent(counts: bool) -> None:
    s = solver("ru", 5, counts, common=True)
    rnd = random.Random(3)
    for secret in rnd.sample(s.words[:len(s.all)], 20):
        history: list[tuple[str, int]] = []
        while not history or history[-1][0] != secret:
            g = s.easy(history, rnd)
            assert all(game_feedback(s, g, w) == fb for w, fb in history)  # g could be the secret
            history.append((g, game_feedback(s, secret, g)))
            assert len(history) <= len(s.all)  # a consistent guess that is not the secret is ruled out
    line1 = play_word(s, s.words[5], EASY, random.Random(9))
    assert line1 == play_word(s, s.words[5], EASY, random.Random(9))  # deterministic per seed


def test_hint_material_from_a_game_history() -> None:
    """Guesses outside the candidate list (any dictionary word) still filter the candidates."""
    common = solver("en", 5, True, common=True)
    full = solver("en", 5, True)
    outside = next(w for w in full.words if w not in set(common.words))
    secret = common.words[10]
    h = [(outside, game_feedback(common, secret, outside))]
    assert secret in common.remaining(h) and common.count(h) < len(common.all)


# ---------------------------------------------------------------- /hint in /words solo, through the App

@pytest.mark.parametrize(("answers", "lang"), [("classic", "en"), ("counts", "ru")])
async def test_hint_in_words_solo_practice(table: Table, answers: str, lang: str) -> None:
    r = await table.say("ann", f"/words solo length 4 answers {answers} lang {lang}")
    gid = (await table.app.store.seated_games("test", "ann"))[0].id
    secret = (await table.state(gid))["secret"]
    s = solver(lang, 4, answers == "counts", common=True)
    r = await table.say("ann", "/hint")
    first = s.strong([])
    assert texts(r) == f"💡 Ann: {len(s.all)} words still fit. A strong next guess: {first}", texts(r)
    history: list[tuple[str, int]] = []
    for _ in range(12):  # follow the hints: they find the word
        word = texts(r).rsplit(" ", 1)[1]
        history.append((word, game_feedback(s, secret, word)))
        r = await table.say("ann", word)
        if word == secret:
            break
        r = await table.say("ann", "/hint")
        n = s.count(history)
        assert f": {n} word{'' if n == 1 else 's'} still fit" in texts(r), texts(r)
    assert history[-1][0] == secret
    assert (await table.state(gid))["phase"] == "finished"
    r = await table.say("ann", "/hint")  # the game is over: refused
    assert "/hint works in your running practice game" in texts(r)


async def test_no_hint_in_a_group_word_game(table: Table) -> None:
    r = await table.say("ann", "/words")
    await table.press("bob", table.button(r, ":join"))
    await table.say("ann", "/begin")
    r = await table.say("ann", "/hint")
    assert "/hint works in your running practice game" in texts(r)
