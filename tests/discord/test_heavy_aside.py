"""Heavy work off the path that orders a channel's answers (issue 35): while the solver thinks about
an /analyse, a guess typed next in the same channel is answered at once; the analysis is still about
the game that was the player's last finished one when asked.

The real App on a SQLite file behind the real discord.py client on the stand-in; the solver runs for
real, in threads of an executor held shut until the test opens it (tests/solver/test_thinking.py)."""

from __future__ import annotations

from core import serial
from core.games.practice import rules as practice
from tests.solver.test_app import _set_secret
from tests.solver.test_thinking import Recording, until

from .conftest import MakeAdapter, OpenApp
from .model import CHANNEL_ID
from .standin import StandIn


async def test_a_guess_after_an_analyse_in_the_same_channel_is_not_kept_waiting(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp
) -> None:
    from bot.solver.thinking import Thinker

    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob")
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())

    async def said(user: object, text: str, expect: str) -> None:
        mark = len(standin.calls)
        await standin.say(CHANNEL_ID, user, text)  # type: ignore[arg-type]
        await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and expect in c.content, after=mark)

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "practice", {"length": 4})
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status == 200, after=mark)
    (row,) = await app.store.seated_games("discord", str(alice.id))
    await app.store.run(_set_secret(row.id, "1234"))
    await said(alice, "1243", "1243")
    await said(alice, "5678", "5678")
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, alice, "giveup")
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "1234" in c.content, after=mark)
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, bob, "practice", {"length": 4})
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status == 200, after=mark)

    rec = Recording()
    rec.gate.clear()
    app.thinker = Thinker(executor=rec)
    try:
        mark = len(standin.calls)
        await standin.slash(CHANNEL_ID, alice, "analyse")
        await until(lambda: len(rec.submitted) == 1)  # the solver is thinking (held)
        await said(bob, "9876", "9876")  # Bob's guess, in the same channel, answered meanwhile
        mark_new = len(standin.calls)
        await standin.slash(CHANNEL_ID, alice, "practice", {"length": 4})  # Alice's next game begins
        await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status == 200, after=mark_new)
        assert not [c for c in standin.calls[mark:] if "#1 1243" in c.content]  # still thinking
    finally:
        rec.gate.set()
    analysis = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "#1 1243" in c.content,
                                      timeout=10, after=mark)
    assert "#2 5678" in analysis.content
    bobs = [r for r in await app.store.seated_games("discord", str(bob.id)) if not r.over]
    assert [a.code for a in serial.load(practice.State, bobs[0].state).attempts] == ["9876"]
    rec.shutdown()
