"""Issue 23.4: what one chat learns of a player from another. In a chat Zed never joined, `/stats`,
`/rating` and `/logikstats`-like lookups by mention (a typed id too) or by name say "unknown", and
`/duel <@id>` does not put his stored name into that chat. Through the App on real SQLite."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Chat
from tests.app.harness import PLATFORM, Table, texts
from tests.app.test_duel_flow import played_out, start_duel

ELSEWHERE = Chat(PLATFORM, "group-zed", private=False)


async def test_a_player_of_another_chat_is_unknown_here(app: App, table: Table) -> None:
    home = Table(app, group=ELSEWHERE)
    await home.say("zed", "/duel <@bob>")  # zed plays in his own chat only
    _gid, first, second = await start_duel(home)  # alice–bob there too; zed's own duel waits
    await played_out(home, first, second)
    assert "Zed" in texts(await home.say("bob", "/stats <@zed>"))  # his own chat knows him
    for ask in ("/stats <@zed>", "/stats Zed", "/rating duel <@zed>", "/stats logik <@zed>"):
        out = texts(await table.say("mallory", ask))
        assert "I do not know" in out and "📊" not in out and "📈" not in out, (ask, out)
    r = await table.say("mallory", "/duel <@zed>")
    assert "Zed" not in texts(r), texts(r)  # not his stored name: this chat never saw him
    # once he has acted here, he is known here
    await table.say("zed", "/stats")
    assert "I do not know" not in texts(await table.say("mallory", "/stats <@zed>"))
