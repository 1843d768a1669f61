"""A challenge nobody played (withdrawn, declined, expired) hides no finished game: /analyse still
analyses the player's last played game, /rematch still rematches it — and accepts the other
player's waiting rematch offer. Through the real App over a real SQLite file."""

from __future__ import annotations

import pytest

from tests.app.harness import Table, texts
from tests.app.test_rematch_offers import finished, running


async def test_analyse_looks_past_a_withdrawn_challenge(table: Table) -> None:
    await table.say("alice", "/practice 3")
    await table.say("alice", "012")
    await table.say("alice", "/giveup")
    r = await table.say("alice", "/duel <@bob>")
    assert "challenges bob" in texts(r)
    r = await table.say("alice", "/cancel")
    r = await table.say("alice", "/analyse")
    assert "Nothing to analyse" not in texts(r)
    assert "#1 012 →" in texts(r), texts(r)
    await table.say("bob", "/duel <@alice>")
    r = await table.say("alice", "/decline")  # declined: the practice game is still the last played one
    r = await table.say("alice", "/analyse")
    assert "#1 012 →" in texts(r)


@pytest.mark.parametrize("kind", ["duel", "logik"])
async def test_rematch_after_a_withdrawn_challenge_accepts_the_waiting_offer(table: Table, kind: str) -> None:
    await finished(table, kind)
    r = await table.say("bob", "/rematch")
    offered = int(table.button(r, ":accept").split(":")[1])
    r = await table.say("alice", "/duel <@carol>")
    assert "challenges carol" in texts(r), texts(r)
    await table.say("alice", "/cancel")
    r = await table.say("alice", "/rematch")
    assert "Alice accepts Bob's" in texts(r), texts(r)
    assert await running(table.app) == [(offered, "secrets")]


async def test_rematch_after_a_withdrawn_challenge_offers_a_rematch(table: Table) -> None:
    await finished(table, "duel")
    await table.say("alice", "/duel <@carol>")
    await table.say("alice", "/cancel")
    r = await table.say("alice", "/rematch")
    assert "no finished" not in texts(r).lower() and table.button(r, ":accept")
    r = await table.say("bob", "/accept")
    assert "Bob accepts Alice's" in texts(r), texts(r)


async def test_a_stranger_gets_no_rematch_of_a_game_they_did_not_play(table: Table) -> None:
    await finished(table, "duel")
    await table.say("carol", "/duel <@dave>")
    await table.say("carol", "/cancel")
    r = await table.say("carol", "/rematch")
    assert "accepts" not in texts(r) and not any(b for m in r.messages for row in m.buttons for b in row)
