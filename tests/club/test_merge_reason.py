"""/kegelmerge refused for two names who played in one game says that, whoever asks: before, a
non-scorer was told to ask the scorer, who was then refused for the real reason."""

from __future__ import annotations

from tests.app.harness import Table, texts
from tests.club.harness import appoint


async def test_two_people_of_one_game_are_refused_for_that_reason_first(table: Table) -> None:
    await appoint(table, "alice")  # the club's scorer: her games are the club's
    await table.say("alice", "/kegeln high 2 Anna Ben")
    for throw in ("7 10", "3 10", "2 1", "5 1"):
        await table.say("alice", f"/wurf {throw}")
    for who in ("bob", "alice"):  # not the scorer, and the scorer: the one reason that holds for both
        r = await table.say(who, "/kegelmerge Ben Anna")
        assert "Ben and Anna played in the same game (#1): they are two people" in texts(r), texts(r)
        assert "Only a chat admin" not in texts(r)
    await table.say("alice", "/kegeln high 2 Anni Cem")  # a typo of alice's game: bob may still not merge it
    for throw in ("7 10", "3 10", "2 1", "5 1"):
        await table.say("alice", f"/wurf {throw}")
    r = await table.say("bob", "/kegelmerge Anni Anna")
    assert "Only a chat admin or one of the club's scorers (Alice) merges members" in texts(r), texts(r)
