"""A scorer starting a second Kegeln game is told that they keep the score of the running one (not that
they are "in a game", which a scorer who throws nothing is not); anyone else may start one."""

from __future__ import annotations

from tests.app.harness import Table, texts


async def test_a_scorer_is_told_which_game_they_keep_the_score_of(table: Table) -> None:
    await table.say("alice", "/kegeln high 2 Anna Ben")
    r = await table.say("alice", "/kegeln low 3 Cleo Dan")
    assert "You keep the score of Hausnummern #1 here" in texts(r), texts(r)
    assert "already in a game" not in texts(r)
    r = await table.say("bob", "/kegeln low 2 Cleo Dan")  # another scorer: a game of their own
    assert "Hausnummern #2" in texts(r)
    await table.say("alice", "/cancel")
    r = await table.say("alice", "/kegeln low 2 Eva Finn")
    assert "Hausnummern #3" in texts(r)
