"""Practice bests through the App on real SQLite: one best per (length, repeats) as the rules keep
them, and every answer says which of the two it is (a best with repeats and one without must not
read like two different bests of the same thing)."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Response
from tests.app.harness import Table, texts


async def crack(table: Table, app: App, options: str, wrong: int) -> Response:
    """A practice game with `options`, cracked after `wrong` wrong guesses."""
    await table.say("alice", f"/practice {options}")
    row = await app.store.last_game("test", table.group.chat_id, "alice")
    assert row is not None
    secret = row.state["secret"]
    length = len(secret)
    pool = [c for c in ("012", "345", "678", "123", "456") if c != secret[:3]]
    for guess in pool[:wrong]:
        r = await table.say("alice", (guess + "9876")[:length])
        assert "→" in texts(r), texts(r)
    return await table.say("alice", secret)


async def test_bests_name_their_setting(table: Table, app: App) -> None:
    r = await crack(table, app, "3", wrong=2)  # 3 attempts, all digits different
    assert "🏅 New personal best for Alice with 3 digits, all digits different: 3!" in texts(r)
    r = await crack(table, app, "3 repeats", wrong=1)  # 2 attempts with repeats: a best of its own
    assert "🏅 New personal best for Alice with 3 digits, repeated digits allowed: 2!" in texts(r)
    r = await crack(table, app, "3", wrong=3)  # 4 attempts: not better than 3
    assert "🏅 Alice's best with 3 digits, all digits different: 3." in texts(r)
    stats = texts(await table.say("alice", "/stats")).splitlines()
    i = stats.index("Practice bests (fewest attempts):")
    assert stats[i + 1:i + 3] == ["3 digits, all digits different: 3 (Genius)",  # then its achievements
                             "3 digits, repeated digits allowed: 2 (Genius)"]


async def test_bests_in_german(table: Table, app: App) -> None:
    german = Table(app, locale="de", group=table.group)
    r = await crack(german, app, "4 doppelt", wrong=0)
    assert "Neue persönliche Bestleistung für Alice mit 4 Ziffern, doppelte Ziffern erlaubt: 1!" in texts(r)
    stats = texts(await german.say("alice", "/stats"))
    assert "4 Ziffern, doppelte Ziffern erlaubt: 1 (Genie)" in stats
