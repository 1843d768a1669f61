"""The daily puzzle end to end on Discord (docs/discord.md, docs/daily.md): the real discord.py
client on the strict stand-in (3 s to answer, a modal only as the first answer, 15-minute tokens),
the real App on a real SQLite file.

Three players play the channel's code privately: Alice by `/daily` and the 🎯 button of her
ephemeral answer (a modal per guess), Bob — whose DMs are closed — by the channel's ▶️ button (its
modal takes his first guess), Carol by `/daily` and then typing her guesses in her DM with the bot.
Two solve on different attempt counts, one fails; the channel sees only spoiler-free results; after
a restart (a new App and client over the same SQLite file) nobody gets a second try. And the cheats:
a forged custom id, another channel's button, another player's button, a guess in the channel."""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.daytime import clear_of_midnight

from .conftest import MakeAdapter, OpenApp
from .model import CHANNEL_ID, OTHER_CHANNEL_ID, Call, User
from .standin import StandIn

CODE = re.compile(r"(?<![\d-])\d{4}(?![\d-])")  # a 4-digit code (not part of a date or an id)
DATE = re.compile(r"\b[A-Z][a-z]{2} \d{1,2}, \d{4}\b")  # a day as English readers see it: Nov 30, 2026


@pytest.fixture(autouse=True)
def _today_holds() -> None:
    """These tests play "today's" daily with the real clock."""
    clear_of_midnight()


def secret_of(db: Path, channel: int = CHANNEL_ID) -> str:
    with sqlite3.connect(db) as conn:
        (secret,), = conn.execute("SELECT secret FROM daily_puzzles WHERE chat_id = ?", (str(channel),)).fetchall()
    return str(secret)


def game_of(db: Path, user: User, channel: int = CHANNEL_ID) -> int:
    with sqlite3.connect(db) as conn:
        (game,), = conn.execute("SELECT game_id FROM daily_plays WHERE user_id = ? AND chat_id = ?",
                                (str(user.id), str(channel))).fetchall()
    return int(game)


def rows_of(db: Path, game: int) -> int:
    with sqlite3.connect(db) as conn:
        (state,), = conn.execute("SELECT state FROM games WHERE id = ?", (game,)).fetchall()
    return str(state).count('"code"')


def wrong_codes(secret: str) -> list[str]:
    return ["".join(p) for p in itertools.permutations("0123456789", 4)
            if "".join(p) != secret and p[0] != secret[0]]


def shown_to(standin: StandIn, token: str) -> list[Call]:
    """What the interaction `token` answered (callback and followups), deletions left out."""
    return [c for c in standin.calls if c.interaction_token == token and c.status < 300 and c.method != "DELETE"]


def ephemeral_text(standin: StandIn, token: str) -> str:
    return "\n".join(c.content for c in shown_to(standin, token) if c.ephemeral)


def everything_seen_in(standin: StandIn, channel: int) -> list[str]:
    """Every text, button label and custom id the channel's members could see there."""
    seen = []
    for c in standin.calls:
        if c.in_channel(channel) and c.status < 300:
            seen.append(c.content)
            seen.extend(str(b.get("label", "")) for b in c.buttons())
            seen.extend(c.custom_ids())
    return seen


async def slash(standin: StandIn, user: User, name: str, options: dict[str, Any] | None = None,
                channel: int = CHANNEL_ID) -> str:
    token = await standin.slash(channel, user, name, options)
    state = await standin.answered(token)
    await standin.settle()
    assert state["responded_at"] - state["created"] < 3.0
    return token


async def modal(standin: StandIn, user: User, custom_id: str, text: str, *, channel: int = CHANNEL_ID,
                pressed_in: int | None = None) -> str:
    """`user` presses the prompt button `custom_id` (the newest message with it) in `pressed_in`
    (default: `channel`), types `text` into the modal it opens and submits it from `channel`."""
    mid, _ = standin.message_with_button(lambda cid: cid == custom_id)
    token = await standin.press(channel if pressed_in is None else pressed_in, user, mid, custom_id)
    opened = (await standin.answered(token))["modal"]
    assert opened and opened["custom_id"] == custom_id  # the modal is the press's first and only answer
    token = await standin.submit_modal(channel, user, opened, text, message_id=mid)
    await standin.answered(token)
    await standin.settle()
    return token


def refused(standin: StandIn) -> list[Call]:
    return [c for c in standin.calls if c.status >= 400 and not (c.status == 403 and c.channel_id in standin.dm_owner)]


async def test_three_players_ephemeral_modals_and_dms_spoiler_free_channel_no_second_try_after_restart(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp, db: Path
) -> None:
    alice = standin.add_user("Alice")
    bob = standin.add_user("Bob", dms_closed=True)
    carol = standin.add_user("Carol")
    app = await open_app()
    first = await make_adapter(app.handle, app.command_menu())

    # Alice: /daily — her start is an ephemeral answer with a 🎯 button; the channel is told she plays
    token = await slash(standin, alice, "daily")
    answers = shown_to(standin, token)
    assert answers[0].ephemeral and "Today's 1A2B daily" in answers[0].content
    game = game_of(db, alice)
    assert f"~g:{game}:secret" in answers[0].custom_ids()
    public = [c for c in answers if not c.ephemeral]
    assert public and "Alice is playing today's 1A2B daily privately" in public[0].content
    assert f"~daily:{CHANNEL_ID}:1a2b" in public[0].custom_ids()
    assert not standin.dms_to(alice)  # played right there, not in a DM
    secret = secret_of(db)
    wrong = wrong_codes(secret)

    # Alice: 🎯 → modal → an ephemeral answer with her rows so far and the 🎯 button again; solved in 3
    for n, code in enumerate(wrong[:2], 1):
        token = await modal(standin, alice, f"~g:{game}:secret", code)
        mine = ephemeral_text(standin, token)
        assert re.search(rf"#{n}/10: {code} → \dA\dB", mine) and (n == 1 or f"#1/10: {wrong[0]}" in mine)
        assert any(f"~g:{game}:secret" in c.custom_ids() for c in shown_to(standin, token))
    mark = len(standin.calls)
    token = await modal(standin, alice, f"~g:{game}:secret", secret)
    assert f"Solved in 3 attempts: {secret}" in ephemeral_text(standin, token)
    result = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "Alice solved" in c.content, after=mark)
    grid = re.search(r"Alice solved the 1A2B daily of \w{3} \d+, \d{4}: 3/10\n```\n(.+)\n```$", result.content, re.S)
    assert grid and re.fullmatch(r"[🟩🟨⬛]{4}\n[🟩🟨⬛]{4}\n🟩🟩🟩🟩", grid.group(1))  # one row a guess, in a block

    # Bob (DMs closed): the channel's ▶️ button opens a modal that takes his first guess
    token = await modal(standin, bob, f"~daily:{CHANNEL_ID}:1a2b", wrong[2])
    mine = ephemeral_text(standin, token)
    assert "Today's 1A2B daily" in mine and f"#1/10: {wrong[2]} → " in mine
    bobs = game_of(db, bob)
    for code in wrong[3:6]:
        await modal(standin, bob, f"~g:{bobs}:secret", code)
    mark = len(standin.calls)
    token = await modal(standin, bob, f"~g:{bobs}:secret", secret)
    assert "Solved in 5 attempts" in ephemeral_text(standin, token)
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "Bob solved" in c.content and ": 5/10" in c.content,
                           after=mark)

    # Carol: /daily, then a guess typed in the channel by mistake (deleted, not counted), then her DM
    standin.grant(CHANNEL_ID, "manage_messages")  # the bot may delete members' messages
    await slash(standin, carol, "daily")
    carols = game_of(db, carol)
    oops = await standin.say(CHANNEL_ID, carol, wrong[6])
    await standin.wait_for(lambda c: c.method == "DELETE" and c.path.endswith(oops["id"]))
    assert rows_of(db, carols) == 0
    for n, code in enumerate(wrong[7:17], 1):
        mark = len(standin.calls)
        await standin.say(None, carol, code)
        def numbered(c: Call, line: str = f"#{n}/10: ") -> bool:
            return line in c.content
        await standin.wait_for(numbered, after=mark)
    over = await standin.wait_for(lambda c: "daily of" in c.content and f"was {secret}" in c.content)
    assert over.channel_id == standin.dm_channels[carol.id]
    await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and "Carol did not solve" in c.content
                           and "X/10" in c.content)
    await standin.settle()

    # the bot restarts: a new App and client over the same SQLite file
    await first.stop()
    await app.close()
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    token = await slash(standin, alice, "daily")
    shown = shown_to(standin, token)
    assert all(c.ephemeral for c in shown)
    assert "You have already played today's 1A2B daily: solved in 3 attempts" in ephemeral_text(standin, token)
    token = await modal(standin, bob, f"~daily:{CHANNEL_ID}:1a2b", wrong[40])  # the old button
    assert "daily: solved in 5 attempts" in ephemeral_text(standin, token)
    mark = len(standin.calls)
    await standin.say(None, carol, secret)
    await standin.wait_for(lambda c: "No game is waiting" in c.content, after=mark)
    assert secret_of(db) == secret and rows_of(db, bobs) == 5

    # the day's board and the all-time table by slash command, public
    token = await slash(standin, carol, "daily", {"show": "board"})
    board = "\n".join(c.content for c in shown_to(standin, token) if not c.ephemeral)
    assert board.index("Alice — solved in 3") < board.index("Bob — solved in 5") < board.index("Carol — not solved")
    token = await slash(standin, bob, "daily", {"puzzle": "1a2b", "show": "table"})
    table = "\n".join(c.content for c in shown_to(standin, token) if not c.ephemeral)
    assert "Alice — 1/1 · ⌀ 3.0" in table and "Carol — 0/1" in table
    token = await slash(standin, alice, "timezone")
    assert "time zone: UTC" in "\n".join(c.content for c in shown_to(standin, token))

    # the channel never saw a code: no guess, not the code, in no text, label or custom id
    for text in everything_seen_in(standin, CHANNEL_ID):
        plain = DATE.sub("", text.replace("1A2B", "").replace("1a2b", ""))  # the day's year is no code
        assert not CODE.search(plain), text
    assert not refused(standin), [(c.method, c.path, c.status) for c in refused(standin)]


async def test_cheats_forged_ids_another_channels_button_anothers_button_and_a_guess_in_the_channel(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp, db: Path
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    await slash(standin, alice, "daily")
    game = game_of(db, alice)
    wrong = wrong_codes(secret_of(db))
    await modal(standin, alice, f"~g:{game}:secret", wrong[0])
    assert rows_of(db, game) == 1
    mid, _ = standin.message_with_button(lambda cid: cid == f"~daily:{CHANNEL_ID}:1a2b")

    async def submit(user: User, custom_id: str, text: str, channel: int | None = CHANNEL_ID) -> str:
        """A modal submit with any custom id (a modified client), from `channel`."""
        token = await standin.submit_modal(channel, user, {"custom_id": custom_id, "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "value"}]}]}, text, message_id=mid)
        await standin.answered(token)
        await standin.settle()
        return token

    # another player's 🎯 button (a modified client sends its id): the modal opens — it must be the
    # press's first answer, before the App is asked — but its answer neither plays on Alice's attempt
    # nor shows Bob her rows; a forged modal submit of it alike
    alices, _ = standin.message_with_button(lambda cid: cid == f"~g:{game}:secret")
    token = await standin.press(CHANNEL_ID, bob, alices, f"~g:{game}:secret")
    opened = (await standin.answered(token))["modal"]
    answered = await standin.submit_modal(CHANNEL_ID, bob, opened, wrong[1], message_id=alices)
    await standin.answered(answered)
    await standin.settle()
    for token in (answered, await submit(bob, f"~g:{game}:secret", wrong[1])):
        seen = "\n".join(c.content for c in shown_to(standin, token))
        assert "does not wait for a secret code from you" in seen, seen
        assert wrong[0] not in seen and "#1" not in seen
    # a button id that is not on the pressed message: discord.py drops the press (as Discord refuses it)
    token = await standin.press(CHANNEL_ID, bob, mid, f"g:{game}:secret")
    await standin.settle()
    assert standin.interactions[token]["responded"] is None
    assert rows_of(db, game) == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM daily_plays WHERE user_id = ?", (str(bob.id),)).fetchone() == (0,)

    # the channel's ▶️ button pressed in another channel, and a forged id naming another channel:
    # "another chat", no attempt anywhere
    mark = len(standin.calls)
    await modal(standin, bob, f"~daily:{CHANNEL_ID}:1a2b", wrong[2], channel=OTHER_CHANNEL_ID,
                pressed_in=OTHER_CHANNEL_ID)
    await submit(bob, f"~daily:{OTHER_CHANNEL_ID}:1a2b", wrong[2])
    assert sum("another chat" in c.content for c in standin.calls[mark:] if c.ephemeral) == 2
    # a forged ▶️ id submitted from a DM (Discord never posts it there; Telegram's private link is
    # signed): refused, no attempt — not even at a channel the forger could reach
    mark = len(standin.calls)
    token = await submit(bob, f"~daily:{CHANNEL_ID}:1a2b", wrong[2], channel=None)
    assert "another chat" in ephemeral_text(standin, token) or any(
        "another chat" in c.content for c in standin.dms_to(bob, after=mark))
    # forged: an unknown puzzle, an empty chat, a game id that is no game
    for forged in (f"~daily:{CHANNEL_ID}:9x9", "~daily::1a2b", "~g:999999:secret", f"~daily:{CHANNEL_ID}:1a2b:x"):
        token = await submit(bob, forged, wrong[3])
        assert ephemeral_text(standin, token) or not shown_to(standin, token)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM daily_plays WHERE user_id = ?", (str(bob.id),)).fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM daily_puzzles").fetchone() == (1,)

    # Alice guesses in the channel: deleted unseen (the bot has Manage Messages), not counted; by /guess too
    standin.grant(CHANNEL_ID, "manage_messages")
    oops = await standin.say(CHANNEL_ID, alice, wrong[4])
    await standin.wait_for(lambda c: c.method == "DELETE" and c.path.endswith(oops["id"]))
    token = await slash(standin, alice, "guess", {"code": wrong[5]})
    assert all(wrong[5] not in c.content for c in shown_to(standin, token) if not c.ephemeral)
    assert rows_of(db, game) == 1

    # /daily again: her running attempt, ephemerally, never a second one
    token = await slash(standin, alice, "daily")
    assert f"#1: {wrong[0]}" in ephemeral_text(standin, token)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM daily_plays").fetchone() == (1,)
    for seen in everything_seen_in(standin, CHANNEL_ID) + everything_seen_in(standin, OTHER_CHANNEL_ID):
        shown = DATE.sub("", seen.replace("1A2B", "").replace("1a2b", ""))  # the day's year is no code
        assert not CODE.search(shown), seen


async def test_the_guess_button_outlives_the_interaction_token_and_the_commands_are_localised(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp, db: Path
) -> None:
    """Every guess is an interaction of its own (a press that opens a modal, a submit answered by
    followups), so the 🎯 button of an answer works after that answer's token expired (15 minutes on
    Discord; shortened here). /daily and /timezone: guild-only, options with choices, described in
    every language."""
    standin.token_lifetime = 1.0
    alice = standin.add_user("Alice", locale="de")
    app = await open_app()
    adapter = await make_adapter(app.handle, app.command_menu())
    await slash(standin, alice, "daily")
    game = game_of(db, alice)
    wrong = wrong_codes(secret_of(db))
    await asyncio.sleep(1.2)  # the /daily answer's token is gone now
    token = await modal(standin, alice, f"~g:{game}:secret", wrong[0])
    assert re.search(rf"#1/10: {wrong[0]} → \dA\dB", ephemeral_text(standin, token))
    assert not refused(standin)

    await adapter.sync_commands()
    synced = {c["name"]: c for c in standin.commands["global"]}
    daily, timezone = synced["daily"], synced["timezone"]
    # offered in DMs too: there it shows the running attempt again (bot/games/daily/commands.py cmd_daily)
    assert daily.get("dm_permission") is not False and 1 in (daily.get("contexts") or [0, 1, 2])
    options = {o["name"]: o for o in daily["options"]}
    assert [c["value"] for c in options["puzzle"]["choices"]] == ["1a2b", "logik", "words"]
    assert [c["value"] for c in options["show"]["choices"]] == ["board", "table"]
    for option in (*options.values(), *timezone["options"]):
        localised = option.get("description_localizations", {})
        assert {"de", "ru", "bg", "sv-SE"} <= set(localised), (option["name"], localised)
        assert len(set(localised.values()) | {option["description"]}) == len(localised) + 1


async def test_private_answers_name_the_channel_by_guild_and_channel_name(
    standin: StandIn, make_adapter: MakeAdapter, open_app: OpenApp, db: Path
) -> None:
    """Carol plays the dailies of two channels of one guild; the stand-in's gateway names them as
    Discord does (the guild "Game Club", channels "game-1" and "game-2"): her ephemeral start says
    which channel's daily it is, and a code she types in her DM is asked back by channel. A channel's
    title never reaches another channel."""
    carol = standin.add_user("Carol")
    app = await open_app()
    await make_adapter(app.handle, app.command_menu())
    one, two = f"Game Club #game-{CHANNEL_ID % 10}", f"Game Club #game-{OTHER_CHANNEL_ID % 10}"
    token = await slash(standin, carol, "daily")
    assert f"Today's 1A2B daily of {one} (" in ephemeral_text(standin, token)
    token = await slash(standin, carol, "daily", channel=OTHER_CHANNEL_ID)
    assert f"Today's 1A2B daily of {two} (" in ephemeral_text(standin, token)
    mark = len(standin.calls)
    await standin.say(None, carol, "0123")  # two dailies wait for her code: which one?
    asked = await standin.wait_for(lambda c: "Which one" in c.content, after=mark)
    labels = [str(b.get("label")) for b in asked.buttons()]
    assert len(labels) == 2 and labels[0].startswith(f"🗓 1A2B daily of {one}, ")
    assert labels[1].startswith(f"🗓 1A2B daily of {two}, ")
    await standin.settle()
    for channel, other in ((CHANNEL_ID, two), (OTHER_CHANNEL_ID, one)):
        assert not any(other in seen for seen in everything_seen_in(standin, channel))
    await app.close()
