"""Two dailies running at once (yesterday's and today's, or two kinds): /giveup asks which one — in
private and in the group — with a button per attempt naming its day, and ends only the one chosen;
/board shows each; the end of yesterday's (given up or timed out) names its day, not "today's".
Through the real App over a real SQLite file."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from bot.app.app import App
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, texts
from tests.games.daily.test_daily import NOON, private_to, wrong_codes
from tests.games.daily.test_daily_alongside import open_app

DAY2 = datetime(2026, 12, 1, 0, 30, tzinfo=ZoneInfo("UTC")).timestamp()  # 12.5 hours after NOON: a new day
ALICE_DM = Chat(PLATFORM, "dm-alice", private=True)


def quit_buttons(r: Response) -> dict[str, str]:
    return {b.label: b.action for m in r.messages for row in m.buttons for b in row
            if b.action.endswith((":giveup", ":resign"))}


async def secrets(app: App) -> dict[tuple[str, str], str]:
    from bot.storage.sql import Query
    rows = await app.store.fetch(Query("SELECT day, puzzle, secret FROM daily_puzzles"))
    return {(str(d), str(p)): str(s) for d, p, s in rows}


async def yesterday_and_today(table: Table, clock: Clock) -> tuple[int, int]:
    await table.say("alice", "/daily")
    first = (await secrets(table.app))[("2026-11-30", "1a2b")]
    await table.dm("alice", wrong_codes(first)[0])
    clock.now = DAY2
    await table.say("alice", "/daily")
    rows = await table.app.store.seated_games(PLATFORM, "alice")
    ids = sorted(r.id for r in rows if r.kind == "daily")
    assert len(ids) == 2
    return ids[0], ids[1]


async def test_giveup_privately_asks_which_and_ends_only_that_one(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app)
        old, new = await yesterday_and_today(table, clock)
        r = await table.dm("alice", "/giveup")
        assert "Which one do you want to end with /giveup?" in texts(r)
        shown = quit_buttons(r)
        assert shown == {f"🗓 1A2B daily of Nov 30, 2026 (#{old})": f"g:{old}:giveup",
                         f"🗓 1A2B daily of Dec 1, 2026 (#{new})": f"g:{new}:giveup"}
        assert not (await app.store.get_game(old)).over  # type: ignore[union-attr]  # nothing ended yet
        r = await table.dm("alice", "/board")  # each of them, by day
        assert "Your 1A2B daily of Nov 30, 2026" in texts(r) and "Your 1A2B daily of Dec 1, 2026" in texts(r)
        # pressed privately: yesterday's ends, named by its day; today's runs on
        r = await table.send(Inbound(Actor(PLATFORM, "alice", "Alice", "en"), ALICE_DM, action=f"g:{old}:giveup",
                                     event_id="quit-old"))
        code = (await secrets(app))[("2026-11-30", "1a2b")]
        assert f"You gave up. The code of the 1A2B daily of Nov 30, 2026 was {code}." in private_to(r, "alice")
        assert "Today's code" not in texts(r)
        assert (await app.store.get_game(old)).over  # type: ignore[union-attr]
        assert not (await app.store.get_game(new)).over  # type: ignore[union-attr]
        r = await table.dm("alice", "/giveup")  # one left: no question
        assert "The code of the 1A2B daily of Dec 1, 2026 was" in private_to(r, "alice")
    finally:
        await app.close()


async def test_giveup_in_the_group_with_two_kinds_asks_and_nobody_else_can_answer(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app)
        await table.say("alice", "/daily")
        await table.say("alice", "/daily logik")
        r = await table.say("alice", "/giveup")
        shown = quit_buttons(r)
        assert len(shown) == 2 and "Which one do you want to end with /giveup?" in texts(r)
        logik = next(a for label, a in shown.items() if "Logik" in label)
        gid = int(logik.split(":")[1])
        # someone else presses it, in the group and forged from their private chat: refused, nothing ends
        r = await table.press("mallory", logik)
        assert r.notice and "gave up" not in texts(r)
        r = await table.send(Inbound(Actor(PLATFORM, "mallory", "Mallory", "en"), Chat(PLATFORM, "dm-mallory", True),
                                     action=logik, event_id="forged"))
        assert r.notice and "gave up" not in texts(r)
        assert not (await app.store.get_game(gid)).over  # type: ignore[union-attr]
        r = await table.press("alice", logik)
        assert "did not solve the Logik daily" in texts(r) and (await app.store.get_game(gid)).over  # type: ignore[union-attr]
        r = await table.say("alice", "/giveup")  # the 1A2B one is left: ended without a question
        assert "did not solve the 1A2B daily" in texts(r)
    finally:
        await app.close()


async def test_yesterdays_time_out_names_its_day(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app)
        await yesterday_and_today(table, clock)
        clock.now = NOON + app.idle_timeout + 60  # yesterday's idle for a day; today's started at DAY2
        out = await app.runner.sweep()
        told = [o.text for o in out if isinstance(o.to, Actor) and o.to.user_id == "alice"]
        assert len(told) == 1 and "timed out" in told[0] and "of the 1A2B daily of Nov 30, 2026 was" in told[0], told
        assert "Today's" not in told[0]
    finally:
        await app.close()
