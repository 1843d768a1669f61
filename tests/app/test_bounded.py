"""The App's caches stay bounded (bot/process/bounded.py) and a forgotten entry is read again correctly."""

from __future__ import annotations

from bot.app.app import App
from bot.process.bounded import Bounded
from tests.app.harness import Table


def test_bounded_forgets_the_least_recently_stored() -> None:
    cache: Bounded[str, int] = Bounded(2)
    cache["a"], cache["b"] = 1, 2
    cache["a"] = 3  # stored again: now the newest
    cache["c"] = 4
    assert list(cache.items()) == [("a", 3), ("c", 4)]


async def test_caches_stay_bounded_and_forgotten_languages_are_read_again(app: App, table: Table) -> None:
    app.known.bound(3)
    app.localiser._chat_langs.size = app.localiser._locales.size = 3
    await table.say("alice", "/lang de")
    for i in range(10):
        await table.say(f"user{i}", "/help", table.group.__class__(table.group.platform, f"group-{i}", False))
    assert app.known.users_kept() == 3 and len(app.localiser._chat_langs) <= 3 and len(app.localiser._locales) <= 3
    assert ("test", "group-1") not in app.localiser._chat_langs  # forgotten: the next answer reads it again
    r = await table.say("bob", "/help")
    assert "Die Spiele, die ich hier anbiete" in r.messages[0].text  # still German
