"""A match whose players are names within one chat (`Match.local`: a Kegel club's members, as its plugin
declares, `GamePlugin.rated_in_chat`) is rated in that chat only: no scope across chats, no newcomer
discount, no farming pair — decided by the match, so core/ratings.py names no game."""

from __future__ import annotations

from core import ratings
from core.ratings import EVERYWHERE, Match, Rated


def test_a_local_match_is_rated_in_its_chat_alone() -> None:
    local = Match((("sven",), ("birgit",)), (1.0, 2.0), local=True)
    shared = Match((("a",), ("b",)), (1.0, 2.0))
    assert ratings.scopes("c", local) == ("c",) and ratings.scopes("c", shared) == ("c", EVERYWHERE)
    assert ratings.pair_key(local) is None and ratings.pair_key(shared) == frozenset({"a", "b"})
    assert ratings.weights(local, {"sven": ratings.NEW}, {"sven": 0.0}, 1.0) == {}


def test_the_rebuild_keeps_a_local_match_in_its_chat() -> None:
    local = Match((("sven",), ("birgit",)), (1.0, 2.0), local=True)
    current, history = ratings.rebuild([Rated("p", "c", "club", 1, 10.0, local)])
    assert {k[1] for k in current} == {"c"} and all(s.chat_id == "c" for s in history)
