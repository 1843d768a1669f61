"""Chat titles (docs/daily.md "Which chat"): adapters send a group's title with each inbound, the App
keeps the latest one per chat, and the private messages about a group's game name that group — the
"which game?" buttons, the daily's private messages, its refusals. A title is user-controlled text:
cleaned and capped, never put into another chat's messages, and shown only to players who have acted
in that chat. Through the real App over a real SQLite file."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table, group_texts, texts
from tests.games.daily.test_daily import NOON, private_to, secret_of, wrong_codes

ELBE = Chat(PLATFORM, "group-1", private=False, title="Kegelclub Elbe")
SKAT = Chat(PLATFORM, "group-2", private=False, title="Skatrunde")
BUERO = Chat(PLATFORM, "group-3", private=False, title="Büro")


async def open_app(db: str, clock: Clock, seed: int = 42) -> App:
    clock.now = NOON
    return await App.open(db, seed=seed, clock=clock, idle_timeout=3600 * 24)


def dm(who: str) -> Chat:
    return Chat(PLATFORM, f"dm-{who}", True)


async def test_which_game_buttons_and_the_dailys_private_messages_name_the_chat(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        r = await table.say("alice", "/daily")
        assert "Today's 1A2B daily of Kegelclub Elbe (Nov 30, 2026)" in private_to(r, "alice")
        assert "Kegelclub Elbe" not in group_texts(r)  # the group knows its own name
        r = await table.say("alice", "/daily", SKAT)
        assert "Today's 1A2B daily of Skatrunde (Nov 30, 2026)" in private_to(r, "alice")
        r = await table.say("bob", "/duel <@alice>", BUERO)
        await table.send(Inbound(table.actor("alice"), BUERO, action=table.button(r, ":accept"), event_id="acc"))
    finally:
        await app.close()
    fresh = await open_app(db, clock, seed=7)  # after a restart nothing has asked: all three games wait
    try:
        table = Table(fresh, group=ELBE)
        r = await table.dm("alice", "0123")  # asked back, by chat
        assert "Which one" in texts(r)
        labels = {b.label for row in r.messages[0].buttons for b in row}
        assert labels == {"🗓 1A2B daily of Kegelclub Elbe, Nov 30, 2026 (#1)",
                          "🗓 1A2B daily of Skatrunde, Nov 30, 2026 (#2)",
                          "1A2B duel #3 in Büro"}
    finally:
        await fresh.close()


async def test_the_latest_title_counts_and_hostile_titles_are_cleaned_and_capped(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        await table.say("alice", "/daily")
        renamed = Chat(PLATFORM, "group-1", private=False, title="\u202eKegel\u200bclub " + "x" * 200 + "\n/giveup")
        await table.say("bob", "hello", renamed)
        r = await table.dm("alice", "/daily")
        shown = private_to(r, "alice")
        assert "Your 1A2B daily of Kegelclub xxx" in shown
        assert "\u202e" not in shown and "\u200b" not in shown and "\n/giveup" not in shown
        assert "x" * 41 not in shown and "…" in shown
    finally:
        await app.close()


async def test_a_title_reaches_only_players_who_acted_in_that_chat(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        await table.say("alice", "/daily")
        # Carol never wrote in the club's chat: a forwarded, signed link plays its daily (the platform
        # did not say whether she is a member), but its title is not told to her
        r = await table.send(Inbound(Actor(PLATFORM, "carol", "Carol", "en"), dm("carol"),
                                     action="daily:group-1:1a2b", event_id="fw", signed=True))
        assert "Today's 1A2B daily (Nov 30, 2026)" in private_to(r, "carol")
        assert "Kegelclub Elbe" not in texts(r)
        # nothing sent into another group carries the club's title
        r = await table.say("carol", "/daily", SKAT)
        assert "Kegelclub Elbe" not in group_texts(r)
        r = await table.dm("carol", "0123")  # two dailies wait: asked back, Skatrunde's by its title only
        labels = [b.label for m in r.messages for row in m.buttons for b in row]
        assert labels == ["🗓 1A2B daily of Nov 30, 2026 (#2)", "🗓 1A2B daily of Skatrunde, Nov 30, 2026 (#3)"]
    finally:
        await app.close()


async def test_a_finished_attempts_old_buttons_and_codes_say_what_happened(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        r = await table.say("alice", "/daily")
        guess = table.button(r, ":secret")
        secret = await secret_of(app)
        wrong = wrong_codes(secret)
        await table.dm("alice", wrong[0])
        await table.dm("alice", wrong[1])
        r = await table.dm("alice", secret)
        assert "Alice solved the 1A2B daily" in group_texts(r)
        # the old 🎯 button, privately and as a modal answer: what happened, not "no secret expected"
        r = await table.send(Inbound(table.actor("alice"), dm("alice"), action=guess, event_id="old1"))
        assert r.notice == ("You have already played today's 1A2B daily of Kegelclub Elbe: solved in 3 "
                            "attempts. The next puzzle comes at midnight (/timezone).")
        r = await table.press("alice", guess, text=wrong[2])
        assert r.notice is not None and "daily: solved in 3 attempts" in r.notice
        # a code typed privately afterwards
        r = await table.dm("alice", wrong[2])
        assert "You have already played today's 1A2B daily of Kegelclub Elbe: solved in 3 attempts" in texts(r)
        # the next day, yesterday's button says that it was yesterday's
        clock.now = NOON + 86400
        r = await table.send(Inbound(table.actor("alice"), dm("alice"), action=guess, event_id="old2"))
        assert r.notice is not None and "That was your 1A2B daily of Nov 30, 2026" in r.notice
        assert "already" not in r.notice
    finally:
        await app.close()


async def test_a_timed_out_attempt_is_called_timed_out(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        r = await table.say("alice", "/daily")
        guess = table.button(r, ":secret")
        await table.dm("alice", wrong_codes(await secret_of(app))[0])
        clock.now += app.idle_timeout + 1
        await app.runner.sweep()
        clock.now = NOON + 3600
        r = await table.say("alice", "/daily")  # in the group: no title, the group knows its name
        assert "Your attempt at today's 1A2B daily timed out (it counts as not solved)" in texts(r)
        assert "You have played" not in texts(r)
        r = await table.send(Inbound(table.actor("alice"), dm("alice"), action=guess, event_id="old"))
        assert r.notice is not None and "Your attempt at today's 1A2B daily of Kegelclub Elbe timed out" in r.notice
    finally:
        await app.close()


async def test_private_daily_after_the_day_changed_shows_both_running_attempts(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=ELBE)
        await table.say("alice", "/daily")
        await table.dm("alice", wrong_codes(await secret_of(app))[0])
        clock.now = NOON + 13 * 3600  # 01:00 the next day: yesterday's attempt still runs
        r = await table.say("alice", "/daily")
        assert "Today's 1A2B daily of Kegelclub Elbe (Dec 1, 2026)" in private_to(r, "alice")
        r = await table.dm("alice", "/daily")  # both attempts, each by its group and day
        shown = private_to(r, "alice")
        assert "Your 1A2B daily of Kegelclub Elbe, Nov 30, 2026" in shown
        assert "Your 1A2B daily of Kegelclub Elbe, Dec 1, 2026" in shown
        assert "only in a group" not in texts(r).lower() and "group" not in (r.notice or "")
    finally:
        await app.close()


async def test_a_duels_private_prompts_name_its_group(db: str, clock: Clock) -> None:
    app = await open_app(db, clock)
    try:
        table = Table(app, group=BUERO)
        r = await table.say("bob", "/duel <@alice>")
        r = await table.press("alice", table.button(r, ":accept"))
        prompt = [m.text for m in r.messages if isinstance(m.to, Actor) and m.to.user_id == "alice"]
        assert prompt and prompt[0].startswith("🔒 Duel #1 against Bob") and prompt[0].endswith("\n💬 in Büro")
        assert "Büro" not in group_texts(r)
        r = await table.dm("alice", "0123")
        assert "🔐 Your secret code 0123 is locked for duel #1.\n💬 in Büro" in private_to(r, "alice")
    finally:
        await app.close()
