"""The club as a club on Discord, end to end (issue 34): the real discord.py client against the strict
stand-in and the real App on a real SQLite file. Dave manages the server (a chat admin: the interaction's
Manage Server permission) and keeps the cash box; he appoints Alice the club's scorer with /verein. Her
evening books its fines; Mallory's game beside it — the issue's attack, `/kegeln high 2 Mallory Klaus`
thrown 9/0/9/0 — is casual: it says so, books nothing and changes no record or rating."""

from __future__ import annotations

from bot.app.app import App
from bot.storage.sql import Query

from .conftest import MakeAdapter
from .model import CHANNEL_ID, User
from .standin import StandIn
from .test_e2e_cash import MANAGE_GUILD, run


async def everything(standin: StandIn, mark: int) -> str:
    """Every text the bot posted or edited in the channel since `mark`."""
    await standin.settle()
    return "\n".join(c.content for c in standin.calls[mark:] if c.status < 300 and c.content)


async def test_a_club_evening_and_a_casual_game_beside_it(standin: StandIn, make_adapter: MakeAdapter,
                                                          app: App) -> None:
    alice, mallory = standin.add_user("Alice"), standin.add_user("Mallory")
    dave = standin.add_user("Dave", permissions=str(int(User.permissions) | MANAGE_GUILD))
    await make_adapter(app.handle, app.command_menu())
    assert "The cash box is on (EUR)" in (await run(standin, dave, "kasse", {"what": "on"})).content
    refused = await run(standin, mallory, "verein", {"what": f"scorer <@{mallory.id}>"})
    assert refused.ephemeral and "Only a chat admin appoints" in refused.content, refused.content
    await run(standin, alice, "verein", {})  # the bot knows her name once she has acted here
    appointed = await run(standin, dave, "verein", {"what": f"scorer <@{alice.id}>"})
    assert "Alice is now one of the club's scorers" in appointed.content, appointed.content

    await run(standin, alice, "kegeln", {"mode": "high", "places": "2", "names": "Birgit Klaus"})
    for pins, position in (("0", "10"), ("5", "10"), ("3", "1"), ("5", "1")):
        await run(standin, alice, "wurf", {"pins": pins, "position": position})
    book = Query("SELECT member, SUM(amount) FROM kegel_cash_book GROUP BY member ORDER BY member")
    before = [tuple(r) for r in await app.store.fetch(book)]
    assert before == [("birgit", 60)], before  # her Pumpe and last place
    records = Query("SELECT (SELECT COUNT(*) FROM kegeln_members), (SELECT COUNT(*) FROM ratings)")
    kept = [tuple(r) for r in await app.store.fetch(records)]

    mark = len(standin.calls)
    await run(standin, mallory, "kegeln", {"mode": "high", "places": "2", "names": "Mallory Klaus"})
    for pins, position in (("9", "10"), ("0", "10"), ("9", "1"), ("0", "1")):
        await run(standin, mallory, "wurf", {"pins": pins, "position": position})
    shown = await everything(standin, mark)
    assert "A casual game: Mallory is not one of the club's scorers" in shown, shown
    assert "Casual game — counts nothing for the club" in shown, shown
    assert [tuple(r) for r in await app.store.fetch(book)] == before  # Klaus owes nothing
    assert [tuple(r) for r in await app.store.fetch(records)] == kept
    roster = (await run(standin, mallory, "verein", {}, CHANNEL_ID)).content
    assert "Klaus" in roster and "Mallory" not in roster, roster
