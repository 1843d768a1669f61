"""The roster (/verein) through the App on a real SQLite file: kept by a chat admin or the treasurer, never a
plain member; a member asks to be linked and an admin or the treasurer confirms; a second account cannot take
a confirmed member; the club schema's migration seeds the roster from the records kept before it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.app.app import App
from bot.club import storage
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, texts
from tests.club.harness import as_chair
from tests.club.test_termin_app import Club


async def roster(app: App) -> list[storage.Member]:
    return await storage.roster(app.store, PLATFORM, GROUP.chat_id)


async def test_an_admin_keeps_the_roster_a_plain_member_cannot(app: App) -> None:
    club = Club(app)  # alice: the chat's admin
    r = await club.say("bob", "/verein add Mallory, Eve")
    assert "Only a chat admin or the treasurer (–) keeps the club's roster" in texts(r), texts(r)
    assert await roster(app) == []
    r = await club.say("alice", "/verein add Klaus, Birgit Maier, klaus")
    assert "New in the club (2): Klaus, Birgit Maier." in texts(r), texts(r)
    r = await club.say("alice", "/verein add KLAUS")
    assert "They are all members already." in texts(r)
    r = await club.say("alice", "/verein add Кlaus")  # a Cyrillic К: a twin nobody could tell apart
    assert "mixes letters of two alphabets" in texts(r), texts(r)
    r = await club.say("bob", "/verein remove Klaus")
    assert "Only a chat admin or the treasurer" in texts(r)
    r = await club.say("bob", "/verein")
    assert "The club: 2 members\n• Birgit Maier\n• Klaus\n🎳 Scorers: nobody\n💼 Treasurer: nobody" in texts(r), \
        texts(r)
    r = await club.say("alice", "/verein remove klaus")
    assert "Klaus is off the roster" in texts(r)
    assert [m.name for m in await roster(app)] == ["Birgit Maier"]
    r = await club.say("alice", "/verein fly")
    assert "“fly” is nothing /verein does" in texts(r)


async def test_the_treasurer_keeps_it_and_german_words_work(app: App) -> None:
    club = Club(app)
    await club.say("carol", "hi")
    await club.say("alice", "/kasse on")
    await club.say("alice", "/kasse treasurer carol")
    r = await club.say("carol", "/verein neu Sven")  # the German word, in an English chat
    assert "New in the club: Sven." in texts(r), texts(r)
    r = await club.say("carol", "/verein scorer carol")  # the treasurer does not appoint scorers
    assert "Only a chat admin appoints" in texts(r)


async def test_a_member_links_themself_once_confirmed(app: App) -> None:
    club = Club(app)
    await club.say("alice", "/verein add Klaus")
    r = await club.say("bob", "/verein link Klaus")
    assert "Bob asks to be linked to Klaus" in texts(r), texts(r)
    assert await storage.linked_member(app.store, PLATFORM, GROUP.chat_id, "bob") is None  # asked, not yet
    assert "Klaus (🔗 asked for" in texts(await club.say("bob", "/verein"))
    r = await club.say("mallory", "/verein confirm Klaus")  # not hers to confirm
    assert "Only a chat admin or the treasurer" in texts(r)
    r = await club.say("alice", "/verein confirm Klaus")
    assert "Confirmed: Klaus is linked" in texts(r), texts(r)
    linked = await storage.linked_member(app.store, PLATFORM, GROUP.chat_id, "bob")
    assert linked is not None and linked.name == "Klaus"
    r = await club.say("mallory", "/verein link Klaus")  # a second account cannot become Klaus
    assert "Klaus is linked to another account already" in texts(r), texts(r)
    r = await club.say("mallory", "/verein unlink Klaus")
    assert "Only a chat admin or the treasurer" in texts(r)
    r = await club.say("bob", "/verein unlink Klaus")  # his own link
    assert "Klaus is no longer linked" in texts(r)
    assert await storage.linked_member(app.store, PLATFORM, GROUP.chat_id, "bob") is None


async def test_an_admin_links_a_member_to_an_account(app: App) -> None:
    club = Club(app)
    await club.say("dora", "hello")
    await club.say("alice", "/verein add Dora Maier")
    r = await club.say("alice", "/verein link Dora Maier dora")
    assert "Dora Maier is now linked to Dora." in texts(r), texts(r)
    linked = await storage.linked_member(app.store, PLATFORM, GROUP.chat_id, "dora")
    assert linked is not None and linked.name == "Dora Maier"
    r = await club.say("alice", "/verein link Nobody dora")
    assert "“Nobody” is not on the club's roster" in texts(r), texts(r)


async def test_the_migration_seeds_the_roster_from_the_records(db: str, clock: Clock) -> None:
    """A database from before the club's tables: its members' names become the roster, nothing else changes."""
    app = await App.open(db, seed=1, clock=clock)
    club = Club(app)
    await club.say("alice", "/kegeln high 2 Klaus Birgit")
    for throw in ("7 10", "3 10", "5", "4"):
        await club.say("alice", f"/wurf {throw}")
    await app.close()
    with sqlite3.connect(db) as conn:  # back to before the club schema
        conn.executescript("DROP TABLE club_roles; DROP TABLE club_members;"
                           " DELETE FROM schema_versions WHERE owner = 'club';")
        conn.execute("UPDATE kegeln_members SET name = 'KLAUS' WHERE member = 'klaus'")
        kept = conn.execute("SELECT * FROM kegeln_members ORDER BY member").fetchall()
    app = await App.open(db, seed=1, clock=clock)
    try:
        assert sorted(m.name for m in await roster(app)) == ["Birgit", "KLAUS"]
        assert "no longer" not in await as_chair(Club(app), "remove", "Birgit")
    finally:
        await app.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT * FROM kegeln_members ORDER BY member").fetchall() == kept
    assert Path(db).exists()
