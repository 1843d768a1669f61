"""The player who must act is notified: through the real discord.py client, the strict stand-in and
the real App, a challenge aimed at someone, a turn in the word game and a Kegeln tie put `<@id>` of
exactly that player into the content and allow exactly that user in `allowed_mentions`; a message
where nobody must act pings no one."""

from __future__ import annotations

from bot.app.app import App
from core.games.words import state as words

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call
from .standin import StandIn
from .test_e2e_games import act, game_id_of, has_button, in_channel, load, said
from .test_e2e_kegeln import start, throw_by_button


def pings_exactly(call: Call, user_id: int) -> None:
    mentions = call.message["allowed_mentions"]
    assert f"<@{user_id}>" in call.content, call.content
    assert [str(u) for u in mentions.get("users", [])] == [str(user_id)], mentions
    assert mentions.get("parse", []) == [] and mentions.get("roles", []) == [], mentions
    assert not mentions.get("replied_user", False), mentions


def pings_nobody(call: Call) -> None:
    mentions = call.message["allowed_mentions"]
    assert not mentions.get("users") and mentions.get("parse", []) == [], mentions
    assert "<@" not in call.content, call.content


async def test_a_challenge_pings_exactly_the_challenged_player(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    await make_adapter(app.handle, app.command_menu())
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "duel", {"opponent": bob, "length": 4}),
                      has_button("accept"))
    (challenge,) = [c for c in in_channel(standin, calls) if has_button("accept")(c)]
    pings_exactly(challenge, bob.id)
    assert f"<@{alice.id}>" not in challenge.content

    # Bob declines: nobody has to do anything now
    game = game_id_of(challenge, "decline")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:decline")
    calls = await act(standin, standin.press(CHANNEL_ID, bob, mid, f"g:{game}:decline"))
    (declined,) = [c for c in in_channel(standin, calls) if said(c)]
    pings_nobody(declined)


async def test_an_open_challenge_pings_no_one(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "duel", {"length": 4}), has_button("accept"))
    (challenge,) = [c for c in in_channel(standin, calls) if has_button("accept")(c)]
    pings_nobody(challenge)


async def test_the_word_game_pings_whose_turn_it_is(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    users = [standin.add_user(n) for n in ("Alice", "Bob", "Dave")]
    alice, bob, dave = users
    await make_adapter(app.handle, app.command_menu())
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "words", {"options": "length 5"}),
                      has_button("join"))
    (lobby,) = [c for c in in_channel(standin, calls) if has_button("join")(c)]
    pings_nobody(lobby)
    await act(standin, standin.slash(CHANNEL_ID, bob, "join"))
    await act(standin, standin.slash(CHANNEL_ID, dave, "join"))
    await act(standin, standin.slash(CHANNEL_ID, alice, "begin"), has_button("random"))
    state = await load(app, game_id_of(lobby, "join"), words)
    by_id = {str(u.id): u for u in users}
    setter = by_id[state.setter]

    calls = await act(standin, standin.say(None, setter, "crane"), lambda c: said(c) and c.in_channel(CHANNEL_ID))
    state = await load(app, state_id := game_id_of(lobby, "join"), words)
    first = by_id[state.turn]
    (guessing,) = [c for c in in_channel(standin, calls) if has_button("vote")(c)]
    pings_exactly(guessing, first.id)

    calls = await act(standin, standin.say(CHANNEL_ID, first, "slate"), lambda c: said(c) and "slate" in c.content)
    second = by_id[(await load(app, state_id, words)).turn]
    (guessed,) = [c for c in in_channel(standin, calls) if "slate" in c.content]
    pings_exactly(guessed, second.id)


async def test_a_kegeln_tie_pings_exactly_the_scorer(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    scorer = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    game, _ = await start(standin, app, scorer, 2, "Anna Ben")
    for position in (1, 0):
        for _ in range(2):
            await throw_by_button(standin, scorer, game, 5, position)
    tie = await standin.wait_for(lambda c: c.status < 300 and f"g:{game}:w1" in c.custom_ids())
    pings_exactly(tie, scorer.id)

    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:w1")
    calls = await act(standin, standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:w1"))
    decided = [c for c in in_channel(standin, calls) if "named the winner" in c.content]
    assert decided
    pings_nobody(decided[0])


def test_only_discord_user_ids_are_mentioned() -> None:
    """The computer opponent ("bot") and console names are no Discord users: never written as `<@…>`."""
    from adapters.discord.markdown import content, to_ping
    from core.messages import Chat, Outbound

    out = Outbound(Chat("discord", "1", False), "your turn", mention=("bot", "Alice", "930000000000000002"))
    assert to_ping(out) == [930000000000000002]
    assert content(out) == "<@930000000000000002> your turn"
    assert content(Outbound(Chat("discord", "1", False), "nobody", mention=("bot",))) == "nobody"
