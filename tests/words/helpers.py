"""A small fixed lexicon and a context for core tests of the word game."""

from __future__ import annotations

import random

from core.games import words as W
from core.games.base import Ctx, Player

EN = ["crane", "slate", "plant", "crate", "trace", "cater", "react", "stone", "notes", "onset", "lemon", "melon",
      "apple", "paper", "hello", "world", "about", "house", "mouse", "tiger", "zebra", "sheep", "bread", "beard"]
RU = ["рост", "трос", "сорт", "соль", "соло", "лось", "кот", "ток", "еж", "елка", "мама", "папа", "слон", "пила"]


def lexicon(lang: str) -> W.Lexicon:
    words = {"en": EN, "ru": RU}.get(lang, [])
    return W.Lexicon(lang, frozenset(words), tuple(sorted(words)))


def ctx(now: float = 1000.0, seed: int = 1) -> Ctx:
    return Ctx(now, random.Random(seed), lexicon)


def P(uid: str) -> Player:
    return Player(uid, uid.capitalize())


def lobby(*ids: str, opts: W.Options | None = None) -> W.State:
    s, _ = W.new(opts or W.Options(), P(ids[0]), ctx())
    for uid in ids[1:]:
        s, _ = W.apply(s, W.Join(uid.capitalize()), uid, ctx())
    return s


def begun(*ids: str, opts: W.Options | None = None, seed: int = 1) -> W.State:
    s = lobby(*ids, opts=opts)
    s, _ = W.apply(s, W.Begin(), ids[0], ctx(seed=seed))
    return s


def with_word(s: W.State, word: str, now: float = 1000.0) -> W.State:
    s, _ = W.apply(s, W.SetWord(word), s.setter, ctx(now))
    return s
