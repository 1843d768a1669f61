"""A small fixed lexicon and a context for core tests of the word game."""

from __future__ import annotations

import random

from core.games.base import Ctx, Player
from core.games.words.actions import Begin, Join, SetWord
from core.games.words.rules import apply, new
from core.games.words.state import Options, State
from core.lexicon import Lexicon

EN = ["crane", "slate", "plant", "crate", "trace", "cater", "react", "stone", "notes", "onset", "lemon", "melon",
      "apple", "paper", "hello", "world", "about", "house", "mouse", "tiger", "zebra", "sheep", "bread", "beard"]
RU = ["рост", "трос", "сорт", "соль", "соло", "лось", "кот", "ток", "еж", "елка", "мама", "папа", "слон", "пила"]


def lexicon(lang: str) -> Lexicon:
    words = {"en": EN, "ru": RU}.get(lang, [])
    return Lexicon(lang, frozenset(words), tuple(sorted(words)))


def ctx(now: float = 1000.0, seed: int = 1) -> Ctx:
    return Ctx(now, random.Random(seed), lexicon)


def P(uid: str) -> Player:
    return Player(uid, uid.capitalize())


def lobby(*ids: str, opts: Options | None = None) -> State:
    s, _ = new(opts or Options(), P(ids[0]), ctx())
    for uid in ids[1:]:
        s, _ = apply(s, Join(uid.capitalize()), uid, ctx())
    return s


def begun(*ids: str, opts: Options | None = None, seed: int = 1) -> State:
    s = lobby(*ids, opts=opts)
    s, _ = apply(s, Begin(), ids[0], ctx(seed=seed))
    return s


def with_word(s: State, word: str, now: float = 1000.0) -> State:
    s, _ = apply(s, SetWord(word), s.setter, ctx(now))
    return s


def uid(user_id: str | None) -> str:
    """A user id the test knows is there (whose turn it is, who sets)."""
    assert user_id is not None
    return user_id
