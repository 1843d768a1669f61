"""The scorer's pin pad on Discord, end to end (discord.py against the strict stand-in, the real App on a
SQLite file): the standings message carries the pins 0–9, then the places, so a throw is two presses and
the one message is edited in place; within Discord's components (at most 5 action rows of 5 buttons),
six places in two rows; typing stays possible; a non-scorer's press and a press replayed in another channel
change nothing."""

from __future__ import annotations

from bot.app.app import App
from core import serial
from core.games.kegeln.state import State

from .conftest import MakeAdapter
from .model import CHANNEL_ID, OTHER_CHANNEL_ID
from .standin import StandIn
from .test_e2e_kegeln import custom_ids, start


def rows(standin: StandIn, mid: int) -> list[list[str]]:
    """The message's action rows as custom ids (its current version)."""
    return [[c.get("custom_id", "") for c in row["components"]] for row in standin.messages[mid]["components"]]


async def state_of(app: App, game: int) -> State:
    row = await app.store.get_game(game)
    assert row is not None
    loaded: State = serial.load(State, row.state)
    return loaded


async def test_a_throw_is_two_presses_on_the_one_message(standin: StandIn, make_adapter: MakeAdapter,
                                                          app: App) -> None:
    scorer, member = standin.add_user("Alice"), standin.add_user("Bob")
    await make_adapter(app.handle, app.command_menu())
    game, _ = await start(standin, app, scorer, 6, "Anna Ben Cleo")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:n7")
    pad = [[f"g:{game}:n{n}" for n in range(5)], [f"g:{game}:n{n}" for n in range(5, 10)]]
    assert rows(standin, mid) == pad
    labels = [c["label"] for row in standin.messages[mid]["components"] for c in row["components"]]
    assert labels == [str(n) for n in range(10)]

    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:n7")  # press 1: the pins
    await standin.wait_for(lambda c: c.status < 300 and f"g:{game}:p5" in c.custom_ids(), after=mark)
    await standin.settle()
    assert rows(standin, mid) == [[f"g:{game}:p5", f"g:{game}:p4", f"g:{game}:p3"],
                                  [f"g:{game}:p2", f"g:{game}:p1", f"g:{game}:p0"], [f"g:{game}:undo"]]
    assert len(rows(standin, mid)) <= 5 and all(len(r) <= 5 for r in rows(standin, mid))

    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:p5")  # press 2: the place
    await standin.wait_for(lambda c: c.status < 300 and "Anna: 7 pins" in c.content, after=mark)
    await standin.settle()
    assert rows(standin, mid) == [*pad, [f"g:{game}:undo"]]  # the same message, the pad again
    assert "Anna 7_____" in standin.messages[mid]["content"]
    posted = [c for c in standin.calls[mark:] if c.method == "POST" and c.channel_id == CHANNEL_ID]
    assert not [c for c in posted if any(cid.startswith(f"g:{game}:") for cid in c.custom_ids())], \
        "a second message with the game's buttons"

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, scorer, "wurf", {"pins": "3", "position": "100000"})  # typing still works
    await standin.wait_for(lambda c: c.status < 300 and "Ben: 3 pins" in c.content, after=mark)
    await standin.settle()
    assert "Ben  3_____" in standin.messages[mid]["content"]

    before = await state_of(app, game)
    for channel, who in ((CHANNEL_ID, member), (OTHER_CHANNEL_ID, scorer), (None, scorer)):
        mark = len(standin.calls)
        await standin.press(channel, who, mid, f"g:{game}:n9")  # not the scorer; another channel; a DM
        await standin.settle()
        assert await state_of(app, game) == before, (channel, who)
    assert f"g:{game}:n9" in custom_ids(standin, mid)
