"""The group's language reaches its players privately: a player with no language of their own (no
/lang of theirs, no platform locale, as on the console) reads what concerns a group — its daily played
privately, the answers to buttons pressed there — in the group's language. Their own language, where
they have one, still wins; another group's language never leaks in. The real App over a real SQLite
file."""

from __future__ import annotations

import dataclasses

from bot.app.app import App
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.club.harness import appoint
from tests.games.daily.test_daily import private_to, secret_of, wrong_codes
from tests.games.daily.test_daily_alongside import open_app

OTHER = Chat(PLATFORM, "group-2", private=False)


def notice(r: Response) -> str:
    return r.notice or ""


async def german_group(app: App) -> Table:
    table = Table(app, locale=None)  # nobody has a language of their own
    r = await table.say("ute", "/lang de")
    assert "Deutsch" in texts(r)
    return table


async def test_the_daily_played_privately_speaks_the_groups_language(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = await german_group(app)
        r = await table.say("alice", "/daily")
        assert "Tagesrätsel vom 30.11.2026" in private_to(r, "alice"), private_to(r, "alice")
        secret = await secret_of(app)
        r = await table.dm("alice", wrong_codes(secret)[0])  # a guess sent privately
        assert "#1/10" in private_to(r, "alice")
        r = await table.dm("alice", "/board")  # asked privately: still the group's language
        assert "Dein 1A2B-Tagesrätsel" in private_to(r, "alice"), texts(r)
        r = await table.dm("alice", "12")  # a refusal, privately, of the group's game
        assert "Ziffern" in texts(r), texts(r)
        r = await table.dm("alice", "/giveup")
        assert "Du hast aufgegeben" in private_to(r, "alice")
        # another group (no language set) is not German; nor is a player with a language of their own
        other = Table(app, group=OTHER, locale=None)
        r = await other.say("carol", "/daily")
        assert "Today's 1A2B daily" in private_to(r, "carol")
        own = Table(app, locale="sv")
        r = await own.say("sven", "/daily")
        assert "Dagens 1A2B-gåta" in private_to(r, "sven")
    finally:
        await app.close()


async def test_a_private_lang_of_ones_own_wins(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = await german_group(app)
        await table.dm("bob", "/lang sv")
        r = await table.say("bob", "/daily")
        assert "Dagens 1A2B-gåta" in private_to(r, "bob")
    finally:
        await app.close()


async def test_answers_to_buttons_pressed_in_the_group(table: Table, clock: Clock) -> None:
    table = await german_group(table.app)
    await appoint(table, "ute")  # the club's scorer
    for setup in ("/kegeln hoch 2 Anna Ben", "/kegeln hoch 2 Anne Cem"):
        await table.say("ute", setup)
        for throw in ("5 10", "4 10", "1 1", "2 1"):
            r = await table.say("ute", f"/wurf {throw}")
    # Ute merges as a chat admin: two short games alone buy no merge rights (docs/kegeln.md)
    asker = dataclasses.replace(table.actor("ute"), is_admin=True)
    r = await table.send(Inbound(asker, table.group, command="kegelmerge", args=("Anne", "Anna"), event_id="ute-merge"))
    yes = table.button(r, "-yes")
    r = await table.press("bob", yes)
    assert notice(r) == "Diese Frage kann nur Ute beantworten.", notice(r)
    r = await table.press("bob", "kegeln:group-1:0000000000-yes")
    assert notice(r).startswith("Diese Bestätigung ist veraltet"), notice(r)
    await table.say("ute", "/kegeln hoch 2 Anna Ben")
    r = await table.say("ute", "/wurf 5")
    r = await table.press("bob", table.button(r, ":undo"))
    assert notice(r).startswith("Das darf nur der Schreiber Ute"), notice(r)
    # a player whose platform names a language reads the answer to their press in it
    english = Actor(PLATFORM, "eve", "Eve", "en")
    r = await table.send(Inbound(english, table.group, action=yes, event_id="eve-1"))
    assert notice(r) == "Only Ute can answer this question.", notice(r)
