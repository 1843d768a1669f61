"""Trust comes from a role only (core/club/roles.py, bot/club/roles.py): three games of two made-up names buy
a plain member nothing — no /termin set or cancelled, no season start moved, no merge; a chat admin appoints a
scorer (who then may) and takes the role back (who then may not); only an admin appoints."""

from __future__ import annotations

from bot.app.app import App
from core.club.roles import Act, Role, may
from tests.app.conftest import Clock
from tests.app.harness import texts
from tests.club.test_termin_app import Club, at, rows
from tests.games.kegeln.test_app import start

FAKE = ("7 10", "3 10", "5 10", "4", "2", "1")  # six throws: what "trust" took before


async def fake_games(club: Club, who: str, n: int = 3) -> None:
    for _ in range(n):
        await start(club, "/kegeln high 2 Xaver Yvo Zora", who=who)
        for throw in FAKE:
            await club.say(who, f"/wurf {throw}")


def test_the_rules_name_roles_only() -> None:
    assert may(Act.PLAN, {Role.ADMIN}) and may(Act.PLAN, {Role.SCORER}) and may(Act.PLAN, {Role.TREASURER})
    assert may(Act.SEASON, {Role.SCORER}) and not may(Act.SEASON, {Role.TREASURER})
    assert may(Act.MERGE, {Role.SCORER}) and not may(Act.MERGE, set())
    assert may(Act.APPOINT, {Role.ADMIN}) and not may(Act.APPOINT, {Role.SCORER, Role.TREASURER})
    assert may(Act.ROSTER, {Role.TREASURER}) and not may(Act.ROSTER, {Role.SCORER})
    assert not any(may(act, set()) for act in Act)  # nobody without a role, whatever they played


async def test_three_fake_games_buy_nothing(app: App, clock: Clock) -> None:
    club = Club(app)  # alice is the chat's admin
    clock.now = at(2026, 12, 2, 12)
    r = await club.say("alice", "/termin 12.12. 19:30 Gasthof Krone")
    assert "Next club evening" in texts(r)
    await start(club, "/kegeln high 2 Klaus Birgit", who="alice")
    for throw in ("7 10", "3 10", "5", "4"):
        await club.say("alice", f"/wurf {throw}")
    await fake_games(club, "mallory")
    for text in ("/termin cancel", "/termin 13.12. 19:30", "/saison 01-02"):
        r = await club.say("mallory", text)
        assert "Only a chat admin" in texts(r), (text, texts(r))
    r = await club.say("mallory", "/kegelmerge Xaver Klaus")  # Klaus: a real member, of alice's game
    assert not any(m.buttons for m in r.messages), texts(r)
    assert ("Only a chat admin" in texts(r)  # (or: her games are casual, Xaver is nobody in the club's records)
            or "No finished Kegeln game here with Xaver" in texts(r)), texts(r)
    assert await rows(app, "SELECT starts, cancelled FROM kegel_evening_dates") == [(at(2026, 12, 12, 19, 30), None)]
    assert await rows(app, "SELECT COUNT(*) FROM kegeln_seasons") == [(0,)]
    # nor can mallory appoint herself
    r = await club.say("mallory", "/verein scorer mallory")
    assert "Only a chat admin appoints" in texts(r), texts(r)


async def test_an_appointed_scorer_may_and_loses_it_with_the_role(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    await club.say("bob", "hello")  # the scorer role goes only to someone who has written here
    r = await club.say("alice", "/verein scorer bob")
    assert "Bob is now one of the club's scorers" in texts(r), texts(r)
    r = await club.say("bob", "/termin 12.12. 19:30 Gasthof Krone")  # no game played at all
    assert "Next club evening" in texts(r), texts(r)
    r = await club.say("bob", "/saison 09-01")
    assert "09" in texts(r) or "Sep" in texts(r), texts(r)
    r = await club.say("alice", "/verein")
    assert "Scorers: Bob" in texts(r), texts(r)
    r = await club.say("alice", "/verein scorer remove Bob")
    assert "Bob is no longer one of the club's scorers" in texts(r), texts(r)
    r = await club.say("bob", "/termin cancel")
    assert "Only a chat admin" in texts(r), texts(r)


async def test_the_treasurer_plans_the_evening(app: App, clock: Clock) -> None:
    club = Club(app)
    clock.now = at(2026, 12, 2, 12)
    await club.say("carol", "hi")
    await club.say("alice", "/kasse on")
    r = await club.say("alice", "/kasse treasurer carol")
    assert "Carol" in texts(r), texts(r)
    r = await club.say("carol", "/termin 12.12. 19:30")
    assert "Next club evening" in texts(r), texts(r)
    r = await club.say("carol", "/saison 09-01")  # the season is the scorers'
    assert "Only a chat admin or one of the club's scorers" in texts(r), texts(r)
