"""Hausnummern on Discord, end to end through the real discord.py client, the strict stand-in and
the real App on a real SQLite file: every button the App offers reaches Discord within its limits
(5 rows × 5 buttons), so a 6-place game and a 6-way tie are played by buttons alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.app.app import App
from core.games.kegeln.state import Phase, State
from core.messages import OutButton, Response

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn


def custom_ids(standin: StandIn, mid: int) -> list[str]:
    """Every custom id on the stand-in's current version of message `mid` (edits applied)."""
    return Call("GET", "", {"components": standin.messages[mid]["components"]}).custom_ids()


async def start(standin: StandIn, app: App, scorer: User, places: int, names: str) -> tuple[int, Any]:
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, scorer, "kegeln", {"mode": "high", "places": places, "names": names})
    await standin.wait_for(lambda c: "Hausnummern #" in c.content, after=mark)
    await standin.settle()
    (row,) = await app.store.seated_games("discord", str(scorer.id), str(CHANNEL_ID))
    return row.id, row


async def throw_by_button(standin: StandIn, scorer: User, game: int, pins: int, position: int) -> None:
    """/wurf with the pins only, then the position button on the standings message (a last free
    place is taken without asking)."""
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, scorer, "wurf", {"pins": str(pins)})
    answer = await standin.wait_for(lambda c: c.status < 300 and c.in_channel(CHANNEL_ID), after=mark)
    wanted = f"g:{game}:p{position}"
    if not any(re.fullmatch(rf"g:{game}:p\d", cid) for cid in answer.custom_ids()):
        await standin.settle()
        return
    mid, cid = standin.message_with_button(lambda cid: cid == wanted)
    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, scorer, mid, cid)
    await standin.wait_for(lambda c: c.status < 300 and c.in_channel(CHANNEL_ID), after=mark)
    await standin.settle()


async def test_a_six_place_game_offers_every_position_button(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    scorer = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    game, _ = await start(standin, app, scorer, 6, "Anna Ben")

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, scorer, "wurf", {"pins": "7"})
    offer = await standin.wait_for(lambda c: c.status < 300 and f"g:{game}:p0" in c.custom_ids(), after=mark)
    # all six places (hundred-thousands … ones) and Undo, within 5 rows of 5
    assert {f"g:{game}:p{p}" for p in range(6)} | {f"g:{game}:undo"} <= set(offer.custom_ids())
    assert len(offer.components) <= 5 and all(len(r["components"]) <= 5 for r in offer.components)
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:p0")
    await standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:p0")  # the ones: the button that was missing
    await standin.wait_for(lambda c: c.status < 300 and "Anna: 7 pins → ones." in c.content, after=mark)
    await standin.settle()

    # the rest of the game by buttons: Ben, then alternately, every place filled
    order = [(3, 0)] + [(p, 5 - i) for i in range(5) for p in (9, 2)]  # Ben's ones, then the high places
    for pins, position in order:
        await throw_by_button(standin, scorer, game, pins, position)
    result = await standin.wait_for(lambda c: "Winner" in c.content)
    assert "Anna" in result.content and "Ben" in result.content
    assert kegeln_state(await app.store.get_game(game)).phase is Phase.FINISHED


async def test_a_six_way_tie_is_decided_by_the_sixth_players_button(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    scorer = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fiete"]
    game, _ = await start(standin, app, scorer, 2, " ".join(names))
    for position in (1, 0):
        for _ in names:
            await throw_by_button(standin, scorer, game, 5, position)

    tie = await standin.wait_for(lambda c: c.status < 300 and f"g:{game}:w5" in c.custom_ids())
    ids = tie.custom_ids()
    assert {f"g:{game}:w{e}" for e in range(6)} | {f"g:{game}:undo"} <= set(ids)  # nobody and Undo lost
    assert len(tie.components) <= 5 and all(len(r["components"]) <= 5 for r in tie.components)

    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:w5")
    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:w5")
    decided = await standin.wait_for(lambda c: c.status < 300 and "named the winner" in c.content, after=mark)
    assert "Fiete" in decided.content
    state = kegeln_state(await app.store.get_game(game))
    assert state.winner == 5 and state.decided


def kegeln_state(row: Any) -> State:
    from core import serial

    state: State = serial.load(State, row.state)
    return state


async def test_more_choices_than_buttons_fit_become_a_select_menu(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """30 plain buttons and a link: a select menu (≤ 25 options, alone in its row) carries the
    choices beyond the buttons; choosing an option comes back as that button's action."""
    seen: list[str] = []

    async def handle(inbound: Any) -> Response:
        if inbound.action:
            seen.append(inbound.action)
        return Response()

    adapter = await make_adapter(handle, {})
    from core.messages import Chat, Outbound

    chat = Chat("discord", str(CHANNEL_ID), private=False)
    rows = tuple((OutButton(f"choice {i}", f"g:1:w{i}"),) for i in range(30))
    await adapter.send([Outbound(chat, "pick one", (*rows, (OutButton("docs", "x", url="https://example.org"),)))])
    posted = await standin.wait_for(lambda c: c.status < 300 and c.content == "pick one")
    menus = [c for r in posted.components for c in r["components"] if c["type"] == 3]
    values = [o["value"] for m in menus for o in m["options"]]
    assert values == [f"g:1:w{i}" for i in range(30)]  # every choice, in order
    assert any(c.get("url") == "https://example.org" for r in posted.components for c in r["components"])

    user = standin.add_user("Alice")
    mid = int(standin.messages_by_content("pick one"))
    await standin.choose(CHANNEL_ID, user, mid, menus[1]["custom_id"], "g:1:w27")
    await standin.settle()
    assert seen == ["g:1:w27"]


async def test_the_standings_message_is_edited_in_place_after_a_restart(
    standin: StandIn, make_adapter: MakeAdapter, app: App, tmp_path: Path
) -> None:
    """Which message shows a game's standings is kept in a file next to the database: after the
    adapter restarts, the next throw edits that message instead of posting a new one (whose
    predecessor would keep live buttons)."""
    from adapters.editmap import JsonEditMap

    scorer = standin.add_user("Alice")
    edits = tmp_path / "club.discord-edits.json"
    first = await make_adapter(app.handle, app.command_menu(), edit_map=JsonEditMap(edits))
    game, _ = await start(standin, app, scorer, 3, "Anna Ben")
    (standings,) = [c for c in standin.calls if c.method == "POST" and c.channel_id == CHANNEL_ID
                    and "Hausnummern #" in c.content and c.status < 300]
    mid = standin.messages_by_content(standings.content)
    await throw_by_button(standin, scorer, game, 7, 2)
    await first.stop()

    await make_adapter(app.handle, app.command_menu(), edit_map=JsonEditMap(edits))
    mark = len(standin.calls)
    await throw_by_button(standin, scorer, game, 5, 1)
    posted = [c for c in standin.calls[mark:] if c.method == "POST" and c.channel_id == CHANNEL_ID]
    assert not [c for c in posted if any(cid.startswith(f"g:{game}:") for cid in c.custom_ids())], \
        "a second standings message with the game's buttons"
    assert any(c.method == "PATCH" and c.path.endswith(f"/messages/{mid}") for c in standin.calls[mark:])
