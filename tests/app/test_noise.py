"""Less noise (docs/retention.md "Less noise"): `/posts noise results` drops exactly the group chatter
(`bot/retention/noise.py` CHATTER) — who is playing the daily, streaks, practice bests — and nothing
else: results, moves, answers and private messages stay; another chat keeps its chatter; only an
admin sets it; `/posts noise all` brings the chatter back."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, group_texts, texts
from tests.games.daily.test_morning_post import NOON, secret


async def noise(app: App, value: str, *, admin: bool = True) -> str:
    who = Actor(PLATFORM, "root", "Root", "en", is_admin=admin)
    return texts(await app.handle(Inbound(who, GROUP, command="posts", args=("noise", value))))


async def test_results_only_drops_the_chatter_and_nothing_else(app: App, clock: Clock) -> None:
    clock.now = NOON
    table = Table(app)
    assert "Only a chat admin" in await noise(app, "results", admin=False)
    assert "In the group: results only" in await noise(app, "results")
    r = await table.say("alice", "/daily")
    assert "is playing today's" not in group_texts(r)
    assert "Today's 1A2B daily" in texts(r)  # the player's own private start stays
    r = await table.dm("alice", await secret(app, "2026-11-30"))
    assert "Alice solved the 1A2B daily" in group_texts(r)  # the result stays
    clock.now += 86400
    await table.say("alice", "/daily")
    r = await table.dm("alice", await secret(app, "2026-12-01"))
    assert "Alice solved the 1A2B daily" in group_texts(r) and "days in a row" not in group_texts(r)

    r = await table.say("bob", "/practice 3")
    assert "picked a secret code" in group_texts(r)
    other = Table(app, Chat(PLATFORM, "group-2", False))  # another chat keeps everything
    r2 = await other.say("carol", "/daily")
    assert "Carol is playing today's" in group_texts(r2)

    assert "In the group: everything" in await noise(app, "all")
    r = await table.say("dave", "/daily")
    assert "Dave is playing today's" in group_texts(r)


async def test_a_practice_best_is_chatter_but_the_crack_is_not(app: App) -> None:
    table = Table(app)
    await noise(app, "results")
    await table.say("bob", "/practice 3")
    row = await app.store.last_game(PLATFORM, GROUP.chat_id, "bob")
    assert row is not None
    r = await table.say("bob", str(row.state["secret"]))
    assert "cracked" in group_texts(r) and "best" not in group_texts(r).lower()
    await noise(app, "all")
    await table.say("bob", "/practice 3")
    row = await app.store.last_game(PLATFORM, GROUP.chat_id, "bob")
    assert row is not None
    r = await table.say("bob", str(row.state["secret"]))
    assert "best" in group_texts(r).lower()
