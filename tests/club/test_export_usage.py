"""/kegelexport with a word that is no season answers with /kegelexport's own examples, not /saison's."""

from __future__ import annotations

from tests.app.harness import Table, texts


async def test_kegelexport_foo_shows_its_own_usage(table: Table) -> None:
    r = await table.say("alice", "/kegelexport foo")
    assert "/kegelexport 2025" in texts(r) and "/saison" not in texts(r), texts(r)
    r = await table.say("alice", "/saison foo")  # /saison keeps its own
    assert "/saison 2025" in texts(r)
    table.locale = "de"
    r = await table.say("alice", "/kegelexport nächstes")
    assert "/kegelexport 2025" in texts(r) and "Saison als Jahr" in texts(r)
