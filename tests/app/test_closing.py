"""A chat nobody can play in any more (`Inbound.closed`, bot/app/closing.py) through the real App over a real
SQLite file: its running games end as abandoned and their players are told privately (the group as the
fallback); a private daily attempt goes on; other chats' games, private chats and unknown reasons are
left alone; one platform update ends all of the chat's games and is taken once."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table
from tests.games.daily.test_daily import NOON

GROUP = Chat(PLATFORM, "club", private=False, title="Club")
TOPIC = Chat(PLATFORM, "club/7", private=False, title="Club › 1A2B")
OTHER = Chat(PLATFORM, "club/8", private=False, title="Club › Kegeln")
SYSTEM = Actor(PLATFORM, "0", "Platform")


async def running(app: App, who: str) -> dict[str, str]:
    """chat id -> kind of the player's running games."""
    return {r.chat_id: r.kind for r in await app.store.seated_games(PLATFORM, who)}


async def test_a_closed_chat_ends_its_games_and_tells_their_players(db: str, clock: Clock) -> None:
    clock.now = NOON
    app = await App.open(db, seed=42, clock=clock)
    try:
        table = Table(app, group=TOPIC)
        await table.say("alice", "/practice")
        await table.say("bob", "/practice")
        await table.say("carol", "/daily")  # played privately: goes on
        await table.say("alice", "/practice", OTHER)
        before = await running(app, "carol")

        ignored = await app.handle(Inbound(SYSTEM, TOPIC, closed="archived", event_id="x1"))
        assert not ignored.messages and await running(app, "alice") == {TOPIC.chat_id: "practice",
                                                                          OTHER.chat_id: "practice"}
        r = await app.handle(Inbound(SYSTEM, TOPIC, closed="deleted", event_id="x2"))
        told = {m.to.user_id: m for m in r.messages if isinstance(m.to, Actor)}
        assert set(told) == {"alice", "bob"} and len(r.messages) == 2
        assert "deleted" in told["alice"].text and "1A2B practice" in told["alice"].text
        fallback = told["bob"].fallback
        assert fallback is not None and fallback.to == GROUP and "Bob" in fallback.text
        assert await running(app, "alice") == {OTHER.chat_id: "practice"}
        assert await running(app, "bob") == {}
        assert await running(app, "carol") == before

        again = await app.handle(Inbound(SYSTEM, TOPIC, closed="deleted", event_id="x2"))  # redelivered
        assert not again.messages
        private = await app.handle(Inbound(SYSTEM, Chat(PLATFORM, "dm-alice", True), closed="closed"))
        assert not private.messages and await running(app, "alice") == {OTHER.chat_id: "practice"}
    finally:
        await app.close()
