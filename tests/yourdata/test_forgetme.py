"""/forgetme through the real App on a real database: after games of several kinds, no column of any table
holds the player's id, name or username; the other players' /stats read the same; the confirmation button
works only for the player who asked, where they asked, in time."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from bot.app import achievements
from bot.app.app import App
from bot.app.ratings_rebuild import rebuild
from bot.storage.sql import Query
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, group_texts, texts
from tests.club.harness import appoint
from tests.club.test_season import game
from tests.yourdata.players import (
    ZEB_ID,
    ZEB_NAME,
    ZEB_NEEDLES,
    People,
    daily_solved,
    kegeln_scored,
    logik_won,
    practice_won,
    rated_duel,
    traces,
)

RATINGS = Query("SELECT chat_id, kind, user_id, name, mu, sigma, games FROM ratings ORDER BY 1, 2, 3")


async def confirm(t: People, who: str = "zeb") -> str:
    r = await t.say(who, "/forgetme")
    assert "this erases your data" in texts(r)
    return t.button(r, "")  # the one button: forget:<nonce>


async def stats_of(t: People, who: str) -> str:
    return texts(await t.say(who, "/stats"))


async def test_forgetme_leaves_no_trace_and_the_others_stats_stay(app: App, db: str, clock: Clock) -> None:
    t = People(app)
    await rated_duel(t, "alice", "zeb")
    await logik_won(t, "zeb", "alice")
    await practice_won(t, "zeb")
    await daily_solved(t, "zeb")
    await kegeln_scored(t, "zeb")
    await daily_solved(t, "alice")
    await t.say("zeb", "/lang de", Chat(PLATFORM, ZEB_ID, private=True))  # a setting of their private chat
    assert await traces(app, db, ZEB_NEEDLES)  # the scan finds them before
    alice_before = await stats_of(t, "alice")
    top_before = texts(await t.say("alice", "/top duel"))
    kegel_before = texts(await t.say("alice", "/kegelstats"))

    r = await t.press("zeb", await confirm(t))
    assert "I have forgotten you" in texts(r)
    assert await traces(app, db, ZEB_NEEDLES) == []
    assert await stats_of(t, "alice") == alice_before
    assert texts(await t.say("alice", "/kegelstats")) == kegel_before  # the club's records stay
    top_after = texts(await t.say("alice", "/top duel"))
    assert top_after == top_before.replace(ZEB_NAME, "former player")  # named neutrally, in the reader's language
    t.locale = "de"
    assert "ehemaliger Spieler" in texts(await t.say("carol", "/top duel"))
    # the stored games say the same as the tables: a rebuild of the ratings changes nothing
    ratings_now = await app.store.fetch(RATINGS)
    await rebuild(app)
    assert await app.store.fetch(RATINGS) == ratings_now and len(ratings_now) >= 4
    assert await achievements.replay(app) == await achievements.stored(app.store)  # and of the achievements


async def test_a_running_game_is_resigned_first(app: App, db: str) -> None:
    t = People(app)
    r = await t.say("carol", f"/duel <@{ZEB_ID}>")
    accept = t.button(r, ":accept")
    game_id = int(accept.split(":")[1])
    await t.press("zeb", accept)
    await t.dm("carol", "1234")
    await t.dm("zeb", "5678")
    r = await t.press("zeb", await confirm(t))
    row = await app.store.get_game(game_id)
    assert row is not None and row.over and row.state["outcome"] == "resigned"
    assert "resigns" in group_texts(r) and "Carol" in group_texts(r)
    assert await traces(app, db, ZEB_NEEDLES) == []
    # Carol's win stands, against a former player
    assert "duel: 1 · 1/0/0" in (await stats_of(t, "carol"))


async def test_only_the_asker_here_and_in_time(app: App, db: str, clock: Clock) -> None:
    t = People(app)
    await practice_won(t, "zeb")
    button = await confirm(t)
    # another player's press, a forged nonce, a press from another chat: refused, nothing erased
    assert "Only the player who sent /forgetme here" in texts(await t.press("alice", button))
    assert "no longer valid" in texts(await t.press("zeb", "forget:" + "0" * 16))
    elsewhere = People(app, group=Chat(PLATFORM, "group-2", private=False))
    assert "Only the player who sent /forgetme here" in texts(await elsewhere.press("zeb", button))
    clock.now += 601
    assert "has expired" in texts(await t.press("zeb", button))
    await t.say("alice", "/forgetme")  # anyone's request clears the expired ones: no user id kept for nothing
    waiting = await app.store.fetch(Query("SELECT user_id FROM forget_requests"))
    assert [r[0] for r in waiting] == ["alice"]
    assert await app.store.user_name(PLATFORM, ZEB_ID) == ZEB_NAME
    assert await traces(app, db, (ZEB_NAME,))
    # a new /forgetme replaces the old button; it works once
    old, new = button, await confirm(t)
    assert "no longer valid" in texts(await t.press("zeb", old))
    assert "I have forgotten you" in texts(await t.press("zeb", new))
    assert await traces(app, db, ZEB_NEEDLES) == []
    # it works once (pressing again is writing to the bot again: they are a new user from then on)
    assert "no longer valid" in texts(await t.press("zeb", new))


async def test_the_token_is_one_per_player_and_not_their_id(app: App, db: str) -> None:
    t = People(app)
    await rated_duel(t, "alice", "zeb")
    await t.press("zeb", await confirm(t))
    tokens = {r[0] for r in await app.store.fetch(Query("SELECT user_id FROM results WHERE user_id <> 'alice'"))}
    history = {r[0] for r in await app.store.fetch(Query(
        "SELECT user_id FROM rating_history WHERE user_id <> 'alice'"))}
    assert len(tokens) == 1 and tokens == history
    token = tokens.pop()
    assert re.fullmatch(r"former-[0-9a-f]{16}", token) and ZEB_ID not in token
    assert GROUP.chat_id  # the group's rows keep their chat


async def test_a_kegel_evening_they_score_goes_on(app: App, db: str) -> None:
    """The scorer is no player: their game goes on under the token, and a chat admin keeps score."""
    t = People(app)
    await t.say("zeb", "/kegeln high 2 Birgit Klaus")
    await t.say("zeb", "/wurf 7 10")
    game = await app.store.last_game(PLATFORM, GROUP.chat_id, ZEB_ID)
    assert game is not None
    await t.press("zeb", await confirm(t))
    assert await traces(app, db, ZEB_NEEDLES) == []
    row = await app.store.get_game(game.id)
    assert row is not None and not row.over and row.version > game.version  # a move read before would conflict
    admin = Actor(PLATFORM, "carol", "Carol", "en", is_admin=True)
    r = await t.send(Inbound(admin, GROUP, command="wurf", args=("5", "10"), event_id="e-admin-1"))
    assert "Klaus: 5 pins" in texts(r), texts(r)


async def test_a_challenge_to_them_and_their_own_open_one_end_too(app: App, db: str) -> None:
    t = People(app)
    r = await t.say("alice", f"/duel <@{ZEB_ID}>")  # aimed at Zeb, not answered
    aimed = int(t.button(r, ":accept").split(":")[1])
    elsewhere = People(app, group=Chat(PLATFORM, "group-2", private=False))
    await elsewhere.say("zeb", "/logik")  # Zeb's own open challenge in another group
    own = await app.store.last_game(PLATFORM, "group-2", ZEB_ID)
    assert own is not None and not own.over
    await t.press("zeb", await confirm(t))
    for game_id in (aimed, own.id):
        row = await app.store.get_game(game_id)
        assert row is not None and row.over, row
    assert await traces(app, db, ZEB_NEEDLES) == []


async def test_a_club_evening_they_set_and_answered_keeps_its_count(app: App, db: str, clock: Clock) -> None:
    """The evenings' tables (bot/club/evenings/storage.py) name accounts: anonymised, the list stays."""
    t = People(app)
    clock.now = datetime(2026, 12, 2, 12, tzinfo=UTC).timestamp()
    zeb_admin = Actor(PLATFORM, ZEB_ID, ZEB_NAME, "en", is_admin=True)
    await t.send(Inbound(zeb_admin, GROUP, command="termin", args=("12.12.", "19:30"), event_id="e-termin"))
    await t.press("zeb", "kegeln:group-1:t1y")
    await t.press("alice", "kegeln:group-1:t1y")
    assert await traces(app, db, ZEB_NEEDLES)
    await t.press("zeb", await confirm(t))
    assert await traces(app, db, ZEB_NEEDLES) == []
    shown = texts(await t.say("alice", "/termin"))
    assert "Coming (2): " in shown and "former player" in shown and "Alice" in shown


async def test_the_cash_box_they_kept_keeps_its_lines(app: App, db: str) -> None:
    """The cash box (bot/club/cash/storage.py): the treasurer and who booked are accounts; the
    members' lines and balances are the club's and stay as they were."""
    t = People(app)
    zeb_admin = Actor(PLATFORM, ZEB_ID, ZEB_NAME, "en", is_admin=True)
    r = await t.send(Inbound(zeb_admin, GROUP, command="kasse", args=("on",), event_id="e-cash-on"))
    assert f"Treasurer: {ZEB_NAME}" in texts(r), texts(r)
    await appoint(t, "alice")  # her game is the club's: its fines are booked
    await game(t, "high", {"Birgit": (0, 9), "Klaus": (5, 5)})
    r = await t.send(Inbound(zeb_admin, GROUP, command="kasse", args=("pay", "Birgit", "0,10"), event_id="e-pay"))
    assert "Birgit" in texts(r) and "0.10" in texts(r), texts(r)
    balances = texts(await t.say("alice", "/kasse"))
    assert await traces(app, db, ZEB_NEEDLES)
    await t.press("zeb", await confirm(t))
    assert await traces(app, db, ZEB_NEEDLES) == []
    after = texts(await t.say("alice", "/kasse"))
    assert after == balances.replace(ZEB_NAME, "former player")
