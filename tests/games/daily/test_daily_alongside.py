"""A daily attempt next to the chat's other games, through the real App over a real SQLite file
(docs/daily.md "Next to other games"): the attempt does not take the player's seat in the chat, so a
player plays the daily privately and a duel in the group at once; private input goes to the game
that asked last, or to the only one it fits, and a truly ambiguous input is asked back, naming the
games."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, group_texts, texts
from tests.games.daily.test_daily import NOON, private_to, secret_of, wrong_codes


async def open_app(db: str, clock: Clock, seed: int = 42) -> App:
    clock.now = NOON
    return await App.open(db, seed=seed, clock=clock, idle_timeout=3600 * 24)


async def test_a_daily_privately_and_a_duel_in_the_group_at_once(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app)
        await table.say("alice", "/daily")
        secret = await secret_of(app)
        wrong = [c for c in wrong_codes(secret) if c not in ("1234", "5678")]
        r = await table.dm("alice", wrong[0])
        assert "#1/10" in private_to(r, "alice")

        # Bob challenges Alice in the group while her daily runs: she accepts
        r = await table.say("bob", "/duel <@alice>")
        assert "challenges Alice" in texts(r)
        r = await table.press("alice", table.button(r, ":accept"))
        assert "Finish your running game" not in texts(r) and r.notice is None
        # the duel asked last: her next 4-digit code is the duel's secret, not a daily guess
        r = await table.dm("alice", "1234")
        assert "locked" in texts(r) and "#2/10" not in texts(r)
        r = await table.dm("bob", "5678")
        # the duel waits for no code of hers any more: the next private code is her daily guess
        r = await table.dm("alice", wrong[1])
        assert "#2/10" in private_to(r, "alice")

        # the group's /board is the duel's; a code typed in the group goes to the duel (public by its rules)
        r = await table.say("alice", "/board")
        assert "Duel #" in group_texts(r)
        r = await table.say("alice", "9012")
        assert not r.delete_inbound and "played privately" not in texts(r)
        # /board in the group shows the group's game (the duel), /board privately the daily
        r = await table.dm("alice", "/board")
        assert "Your 1A2B daily" in texts(r)

        # while a duel runs, its players start a daily of the chat too
        r = await table.say("bob", "/daily")
        assert "Today's 1A2B daily" in private_to(r, "bob")
        # the daily ends; the duel goes on
        r = await table.dm("alice", secret)
        assert "Alice solved the 1A2B daily" in group_texts(r)
        r = await table.say("alice", "/giveup")
        assert "gave up" in texts(r).lower() or "resign" in texts(r).lower()
    finally:
        await app.close()


async def test_a_code_that_fits_only_one_waiting_game_goes_there(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app)
        r = await table.say("bob", "/duel <@alice> 5")
        await table.press("alice", table.button(r, ":accept"))
        await table.say("alice", "/daily")  # asked last: the daily
        r = await table.dm("alice", "13579")  # 5 digits: only the duel's secret fits
        assert "locked" in texts(r)
        secret = await secret_of(app)
        r = await table.dm("alice", wrong_codes(secret)[0])
        assert "#1/10" in private_to(r, "alice")
    finally:
        await app.close()


async def test_two_dailies_and_a_duel_after_a_restart_are_asked_back_by_name(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    other = Chat(PLATFORM, "group-2", private=False)
    try:
        table = Table(app)
        await table.say("alice", "/daily")
        await table.say("alice", "/daily", other)
        r = await table.dm("alice", "0123")  # two dailies: a code cannot tell them apart
        assert "Which one" in texts(r) and "duels" not in texts(r)
        assert [b.label for row in r.messages[0].buttons for b in row] == [
            "🗓 1A2B daily of Nov 30, 2026 (#1)", "🗓 1A2B daily of Nov 30, 2026 (#2)"]
        r = await table.say("bob", "/duel <@alice>")
        await table.press("alice", table.button(r, ":accept"))
    finally:
        await app.close()
    fresh = await open_app(db, clock, seed=7)  # nothing asked since the restart: all three wait
    try:
        table = Table(fresh)
        r = await table.dm("alice", "0123")
        asked = texts(r)
        assert "duels" not in asked and "Which one" in asked
        labels = [b.label for row in r.messages[0].buttons for b in row]
        assert len(labels) == 3
        assert sum("1A2B daily" in x for x in labels) == 2 and sum("1A2B duel #" in x for x in labels) == 1
        assert "#1/10" not in asked  # no attempt spent on a guess
        # the button chooses; the code sent again goes there
        choice = next(b.action for row in r.messages[0].buttons for b in row if "duel #" in b.label)
        await table.send(Inbound(table.actor("alice"), Chat(PLATFORM, "dm-alice", True), action=choice))
        r = await table.dm("alice", "0123")
        assert "locked" in texts(r)
    finally:
        await fresh.close()


async def test_a_chat_link_followed_by_someone_outside_the_chat_is_refused(db: str, clock: Clock) -> None:
    """The rule is the App's: an adapter only says whether the follower is in the chat
    (`Inbound.member`); False refuses the attempt, None (not known) lets it be."""
    app = await open_app(db, clock)
    try:
        table = Table(app)
        dm = Chat(PLATFORM, "dm-dave", True)
        r = await table.send(Inbound(table.actor("dave"), dm, action="daily:group-1:1a2b", signed=True,
                                     member=False, event_id="m1"))
        assert r.notice and "not a member of that group" in r.notice
        r = await table.say("alice", "/daily board")
        assert "Nobody here has played" in texts(r)
        r = await table.send(Inbound(table.actor("erin"), Chat(PLATFORM, "dm-erin", True),
                                     action="daily:group-1:1a2b", signed=True, member=None,
                                     event_id="m2"))
        assert "Today's 1A2B daily" in texts(r)
    finally:
        await app.close()


async def test_nothing_the_group_or_the_others_see_shows_the_code_or_a_guess(db: str, clock: Clock) -> None:
    """A cheater's tour: while Alice plays (and after she has finished, while the others still play)
    everything the group and the other players are shown — /board, /analyse, /stats, /top, /rematch,
    /daily board and table, her buttons pressed by others, refusals, a guess typed in the group, the
    timeout of an attempt — holds neither the code nor any of her guesses (guesses and their answers
    would narrow the code down). Only she is shown them, privately."""
    app = await open_app(db, clock)
    try:
        table = Table(app)
        r = await table.say("alice", "/daily")
        guess_button = table.button(r, ":secret")
        play_button = table.button(r, ":1a2b")
        secret = await secret_of(app)
        guesses = wrong_codes(secret)[:3]
        for code in guesses:
            await table.dm("alice", code)
        r = await table.dm("alice", guesses[0])  # a repeated guess: the refusal names it, privately only
        assert "already" in texts(r) and all(isinstance(m.to, Actor) or m.to.private for m in r.messages)
        for typed in (guesses[1], f"/guess {guesses[2]}", secret):  # typed in the group by mistake
            r = await table.say("alice", typed)
            assert r.delete_inbound, typed

        def others_tour() -> list[tuple[str, str]]:
            return [(who, cmd) for who in ("bob", "dave") for cmd in (
                "/board", "/analyse", "/stats", "/stats alice", "/top", "/rematch", "/daily board",
                "/daily table", "/hint", "/giveup", "/guess 0123")]

        async def tour() -> None:
            for who, cmd in others_tour():
                await table.say(who, cmd)
            await table.press("bob", guess_button)
            await table.send(Inbound(table.actor("bob"), Chat(PLATFORM, "dm-bob", True), action=guess_button,
                                     event_id=f"tour-{len(table.sent)}"))
            await table.dm("bob", "/board")
            await table.dm("bob", "/analyse")

        await tour()
        await table.press("carol", play_button)  # Carol plays too, and lets her attempt time out
        r = await table.dm("alice", secret)
        assert "Alice solved" in group_texts(r)
        await tour()
        clock.now += app.idle_timeout + 1
        timed_out = await app.runner.sweep()
        assert any("Carol did not solve" in o.text for o in timed_out)

        shown = [m for m in [*table.sent, *timed_out]
                 if not (isinstance(m.to, Actor) and m.to.user_id == "alice")
                 and not (isinstance(m.to, Chat) and m.to.chat_id == "dm-alice")
                 and not (isinstance(m.to, Actor) and m.to.user_id == "carol" and "timed out." in m.text)]
        seen = "\n".join(m.text + " " + " ".join(f"{b.label} {b.action} {b.url or ''}"
                                                 for row in m.buttons for b in row) for m in shown)
        assert "Alice solved the 1A2B daily" in seen and "Alice — solved in 4" in seen
        for code in (secret, *guesses):
            assert code not in seen, code
    finally:
        await app.close()
