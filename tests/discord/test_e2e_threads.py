"""Threads and forum posts through the real discord.py client, the stand-in and the real App on a
real SQLite file (issue 22, item 9): a game asked for in a thread or a forum post lives there —
its own chat, posts to the thread's channel id, none to the parent — and where the bot lacks Send
Messages in Threads it says so to the asker alone (ephemeral, or by DM), never silence, and starts
nothing. A button of the thread's game pressed in the parent channel changes nothing."""

from __future__ import annotations

from bot.app.app import App
from core.games.duel import rules as duel

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .test_e2e_games import act, game_id_of, has_button, said

ALICE_SECRET, BOB_SECRET = "1234", "5678"


def posted_in(calls: list[Call], channel: int) -> list[Call]:
    """Seen by everyone in `channel` (a post there, or a public interaction reply there)."""
    return [c for c in calls if c.status < 300 and c.in_channel(channel)]


async def duel_in(standin: StandIn, app: App, where: int, alice: User, bob: User) -> int:
    """Alice challenges Bob in `where`, Bob accepts, both set their secret by DM; → the game id."""
    calls = await act(standin, standin.slash(where, alice, "duel", {"opponent": bob, "length": 4}),
                      has_button("accept"))
    (challenge,) = [c for c in posted_in(calls, where) if has_button("accept")(c)]
    game = game_id_of(challenge, "accept")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:accept")
    await act(standin, standin.press(where, bob, mid, f"g:{game}:accept"))
    for user, secret in ((alice, ALICE_SECRET), (bob, BOB_SECRET)):
        await act(standin, standin.say(None, user, secret))
    return game


async def test_a_duel_in_a_thread_lives_in_the_thread(standin: StandIn, make_adapter: MakeAdapter, app: App) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    thread = await standin.open_thread(CHANNEL_ID, "duel night")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    game = await duel_in(standin, app, thread, alice, bob)
    row = await app.store.get_game(game)
    assert row is not None and row.chat_id == str(thread)  # the thread is the game's chat
    from core import serial

    state = serial.load(duel.State, row.state)
    starter, second = (alice, bob) if state.turn == str(alice.id) else (bob, alice)
    target = {alice.id: BOB_SECRET, bob.id: ALICE_SECRET}
    # guesses typed in the thread are answered in the thread
    calls = await act(standin, standin.say(thread, starter, target[starter.id]))
    assert any(target[starter.id] in c.content for c in posted_in(calls, thread))
    calls = await act(standin, standin.say(thread, second, "0987"))
    assert any(has_button("rematch")(c) for c in posted_in(calls, thread))  # over, with its rematch
    everything = standin.calls[mark:]
    assert posted_in(everything, CHANNEL_ID) == []  # nothing of it in the parent channel
    assert not [c for c in everything if c.status >= 400]

    # the parent channel is another chat: a game there at the same time is a game of its own
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "practice", {"length": "4"}))
    assert posted_in(calls, CHANNEL_ID) and not posted_in(calls, thread)


async def test_kegeln_in_a_forum_post_keeps_its_standings_in_the_post(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    scorer = standin.add_user("Alice")
    forum = standin.add_forum("kegelabend")
    await make_adapter(app.handle, app.command_menu())
    post = await standin.open_thread(forum, "Freitag")
    calls = await act(standin, standin.slash(post, scorer, "kegeln", {"mode": "high", "places": 3,
                                                                     "names": "Anna Ben"}))
    standings = [c for c in calls if c.channel_id == post and c.method == "POST" and c.status == 200]
    assert standings and "Hausnummern #" in standings[0].content
    calls = await act(standin, standin.slash(post, scorer, "wurf", {"pins": "7", "position": "hundreds"}))
    edits = [c for c in calls if c.method == "PATCH" and c.channel_id == post and c.status == 200]
    assert edits, [(c.method, c.path, c.status) for c in calls]  # the post's standings, edited in place
    assert posted_in(standin.calls, forum) == []


async def test_without_send_messages_in_threads_the_asker_alone_is_told(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice", locale="de"), standin.add_user("Bob")
    standin.deny(CHANNEL_ID, "send_messages_in_threads")  # as the invite used to leave it out
    thread = await standin.open_thread(CHANNEL_ID, "no posting here")
    await make_adapter(app.handle, app.command_menu())

    # a slash command: an ephemeral answer naming the permission, in the asker's language; no game
    mark = len(standin.calls)
    token = await standin.slash(thread, alice, "duel", {"opponent": bob, "length": 4})
    await standin.wait_for(said, after=mark)
    await standin.settle()
    shown = [c for c in standin.calls[mark:] if said(c)]
    assert len(shown) == 1 and shown[0].interaction_token == token and shown[0].ephemeral
    assert "„Nachrichten in Threads senden“" in shown[0].content, shown[0].content
    assert not [c for c in standin.calls[mark:] if c.channel_id == thread]  # never tried to post
    assert await app.store.seated_games("discord", str(alice.id), str(thread)) == []

    # typed in the thread: the bot cannot answer there, so it tells the asker by DM
    mark = len(standin.calls)
    calls = await act(standin, standin.say(thread, bob, f"!duel {alice.mention}"))
    dms = standin.dms_to(bob, after=mark)
    assert len(dms) == 1 and "Send Messages in Threads" in dms[0].content, [c.content for c in calls]
    assert posted_in(calls, thread) == [] and posted_in(calls, CHANNEL_ID) == []
    # a guess typed there reaches no game and gets no answer (there is nothing to answer)
    mark = len(standin.calls)
    await standin.say(thread, bob, "1234")
    await standin.settle(0.3)
    assert not [c for c in standin.calls[mark:] if said(c)]

    # the parent channel, where the bot may post, plays as ever
    calls = await act(standin, standin.slash(CHANNEL_ID, alice, "practice", {"length": "4"}))
    assert posted_in(calls, CHANNEL_ID)


async def test_a_forum_post_without_the_permission_is_refused_too(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    scorer = standin.add_user("Alice")
    forum = standin.add_forum("kegelabend")
    standin.deny(forum, "send_messages_in_threads")
    await make_adapter(app.handle, app.command_menu())
    post = await standin.open_thread(forum, "Freitag")
    calls = await act(standin, standin.slash(post, scorer, "kegeln", {"mode": "high", "places": 3,
                                                                     "names": "Anna Ben"}))
    shown = [c for c in calls if said(c)]
    assert len(shown) == 1 and shown[0].ephemeral and "Send Messages in Threads" in shown[0].content
    assert await app.store.seated_games("discord", str(scorer.id), str(post)) == []


async def test_the_thread_games_button_pressed_in_the_parent_channel_changes_nothing(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    """A cheat: the thread's challenge accepted from the parent channel (a forged press there)."""
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    thread = await standin.open_thread(CHANNEL_ID, "duel night")
    await make_adapter(app.handle, app.command_menu())
    calls = await act(standin, standin.slash(thread, alice, "duel", {"opponent": bob, "length": 4}),
                      has_button("accept"))
    game = game_id_of(next(c for c in calls if has_button("accept")(c)), "accept")
    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:accept")
    before = await app.store.get_game(game)
    calls = await act(standin, standin.press(CHANNEL_ID, bob, mid, f"g:{game}:accept"))
    refusals = [c for c in calls if said(c)]
    assert refusals and all(c.ephemeral for c in refusals)  # a refusal to Bob alone
    assert "another chat" in refusals[0].content, refusals[0].content
    assert [c for c in calls if said(c) and not c.ephemeral] == []
    after = await app.store.get_game(game)
    assert before is not None and after is not None and after.state == before.state  # still open
