"""Fair play through the real App on real SQLite files: bounded running games per chat and per
user, lists that never become a wall of text, names that look alike are one name, player names
found in the chat first, a user row that failed to save is saved again."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.app.app import App
from bot.process.settings import Settings
from bot.storage.base import StoreUnavailable
from bot.storage.sqlite import SqliteStore
from core.messages import Actor, Chat, Inbound
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.club.harness import appoint


@pytest.fixture
async def small(db: str, clock: Clock):  # type: ignore[no-untyped-def]
    """An App with small bounds: 6 running games per chat, 2 per user, lists of 3 lines."""
    a = await App.open(db, seed=1, clock=clock, max_games_chat=6, max_games_user=2, list_lines=3)
    yield Table(a)
    await a.close()


async def test_defaults_are_twenty_per_chat_and_five_per_user(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    s = Settings()
    assert (s.max_games_per_chat, s.max_games_per_user, s.list_lines) == (20, 5, 10)
    monkeypatch.setenv("MAX_GAMES_PER_CHAT", "7")
    monkeypatch.setenv("MAX_GAMES_PER_USER", "0")
    monkeypatch.setenv("LIST_MAX_LINES", "4")
    s = Settings.load(tmp_path / "none.env")
    assert (s.max_games_per_chat, s.max_games_per_user, s.list_lines) == (7, 0, 4)
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    assert "MAX_GAMES_PER_CHAT=20" in example and "MAX_GAMES_PER_USER=5" in example and "LIST_MAX_LINES=10" in example


async def test_handing_the_scorer_role_away_does_not_free_a_game(small: Table) -> None:
    """/kegeln, then /scorer to someone else, repeated: the creator still counts every running game."""
    for i in range(2):
        r = await small.say("alice", "/kegeln high 2 Birgit Klaus")
        assert "Hausnummern #" in texts(r), texts(r)
        r = await small.say("alice", f"/scorer <@helper{i}>")
        assert "scorer" in texts(r).lower(), texts(r)
    r = await small.say("alice", "/kegeln high 2 Birgit Klaus")
    assert texts(r) == "Alice: You already have 2 running games in this chat (started, played or scored). " \
                       "Finish one first — /board lists them."
    assert len(await small.app.store.chat_games(PLATFORM, GROUP.chat_id)) == 2
    # a duel challenge and a rematch count the same way; another chat is another count
    r = await small.say("alice", "/practice", Chat(PLATFORM, "group-2", False))
    assert "I have picked a secret code" in texts(r), texts(r)


async def test_the_chat_bound_and_the_board_list(small: Table) -> None:
    for i in range(6):
        r = await small.say(f"p{i}", "/practice")
        assert "I have picked a secret code" in texts(r), texts(r)
    r = await small.say("late", "/practice")
    assert texts(r) == "Late: This chat already runs 6 games — the most it may. Finish one first (/board lists them)."
    r = await small.say("late", "/board")
    lines = texts(r).splitlines()
    assert lines[0] == "Running games here:"
    assert len(lines) == 1 + 3 + 1 and lines[-1] == "… and 3 more", lines


async def test_concurrent_creations_pass_the_bound_by_nothing(small: Table) -> None:
    results = await asyncio.gather(*(small.say(f"u{i}", "/practice") for i in range(20)))
    made = [r for r in results if "This chat already runs" not in texts(r)]
    assert len(made) == 6
    assert len(await small.app.store.chat_games(PLATFORM, GROUP.chat_id)) == 6


async def test_lists_are_capped_top_and_analyse(small: Table) -> None:
    """/top shows `list_lines` players; /analyse of a long practice game shows the first and last
    guesses with what was left out, never every line."""
    for i in range(5):  # five finished duels with five different winners
        r = await small.say(f"w{i}", f"/duel <@l{i}>")
        await small.press(f"l{i}", small.button(r, ":accept"))
        await small.say(f"w{i}", "/resign")
    r = await small.say("alice", "/top")
    assert len(texts(r).splitlines()) == 1 + 3, texts(r)
    r = await small.say("alice", "/practice")
    (row,) = await small.app.store.seated_games(PLATFORM, "alice", GROUP.chat_id)
    codes = [c for c in (f"{i:04d}" for i in range(123, 9877)) if len(set(c)) == 4 and c != row.state["secret"]]
    for code in codes[:40]:
        await small.say("alice", code)
    await small.say("alice", "/giveup")
    r = await small.say("alice", "/analyse")
    out = texts(r)
    assert "#1 0123" in out and "#25 " in out and "#26 " not in out and "#40 " in out, out
    assert out.count("\n#") == 30 and "… and 10 more" in out, out
    assert "#1 #2 #3 #4 #5 …" in out and "#39" not in out.split("#40 ")[1], out  # each line's ⚠ list too


async def test_alike_names_are_one_name(table: Table) -> None:
    r = await table.say("alice", "/kegeln high 2 Bir\u200bgit Birgit")
    assert "Birgit is named twice" in texts(r), texts(r)
    r = await table.say("alice", "/kegeln high 2 \u202eSven\u202c Klaus\u200b")
    assert "Sven" in texts(r) and "\u202e" not in texts(r) and "\u200b" not in texts(r)
    await table.say("alice", "/cancel")
    r = await table.say("bob", "/kegeln high 2 \u200b\u200d Klaus Sven")
    assert "no visible letters" in texts(r), texts(r)
    r = await table.say("bob", "/stats \u200b")
    assert "no visible letters" in texts(r), texts(r)
    # a display name with invisible characters is shown and stored cleaned
    ghost = Actor(PLATFORM, "ghost", "Gh\u200bost \u202e Man", "en")
    r = await table.send(Inbound(ghost, GROUP, command="practice", event_id="ghost-1"))
    assert await table.app.store.user_name(PLATFORM, "ghost") == "Ghost Man"
    assert "\u200b" not in texts(r) and "\u202e" not in texts(r)


async def test_names_resolve_in_the_chat_first(table: Table) -> None:
    other = Chat(PLATFORM, "group-9", False)
    here_bob = Actor(PLATFORM, "bob-here", "Bob", "en")
    away_bob = Actor(PLATFORM, "bob-away", "Bob", "en")
    await table.send(Inbound(away_bob, other, command="practice", event_id="e1"))  # seen elsewhere only
    await table.send(Inbound(here_bob, GROUP, command="practice", event_id="e2"))  # seated here
    await table.send(Inbound(here_bob, GROUP, command="giveup", event_id="e3"))  # a result here
    r = await table.say("alice", "/duel Bob")
    (row,) = await table.app.store.seated_games(PLATFORM, "alice", GROUP.chat_id)
    assert row.state["opponent"]["user_id"] == "bob-here", texts(r)
    # in a third chat neither Bob was seen: two elsewhere is ambiguous, asked back
    r = await table.say("carol", "/duel Bob", Chat(PLATFORM, "group-3", False))
    assert "several players called Bob" in texts(r), texts(r)
    # two Bobs seen in this chat: the refusal lists both by mention
    await table.send(Inbound(away_bob, GROUP, command="practice", event_id="e4"))
    r = await table.say("dave", "/stats bob")
    assert "<@bob-away>" in texts(r) and "<@bob-here>" in texts(r), texts(r)


class FullOnce(SqliteStore):
    """A real SQLite store whose first user save fails as on a full disk."""

    failed = False

    def save_user(self, platform: str, user_id: str, name: str, locale: str | None) -> asyncio.Future[Any]:
        if not self.failed:
            self.failed = True
            fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            fut.set_exception(StoreUnavailable("full", "database or disk is full"))
            return fut
        return super().save_user(platform, user_id, name, locale)


async def test_a_user_row_that_failed_to_save_is_saved_next_time(db: str) -> None:
    from bot.texts.i18n import Catalogs

    store = FullOnce(db)
    await store.open()
    app = App(store, Catalogs(), seed=1)
    try:
        t = Table(app)
        await t.say("alice", "/help")
        assert await store.user_name(PLATFORM, "alice") is None
        await t.say("alice", "/help")
        assert await store.user_name(PLATFORM, "alice") == "Alice"
    finally:
        await app.close()


async def test_club_table_is_capped_and_members_are_found_by_cleaned_name(small: Table) -> None:
    from tests.games.kegeln.test_rules import SEED_THROWS

    await appoint(small, "alice")  # the club's scorer: a club game, in the club table
    r = await small.say("alice", "/kegeln high 3 Bir\u200bgit Klaus Sven \u202eHanne")
    assert "Throwing order: Birgit, Klaus, Sven, Hanne." in texts(r), texts(r)
    for pins, pos in SEED_THROWS:
        r = await small.say("alice", f"/wurf {pins} {10 ** pos}")
    assert "Winner: Sven" in texts(r), texts(r)
    r = await small.say("alice", "/kegelstats")
    table = texts(r).splitlines()
    assert table[-1] == "… and 1 more" and sum(line[:2] in ("1.", "2.", "3.", "4.") for line in table) == 3, table
    r = await small.say("alice", "/kegelexport")
    assert texts(r).splitlines()[-1] == "… and 1 more", texts(r)
    r = await small.say("alice", "/kegelstats  BIR\u200bGIT ")
    assert "Birgit" in texts(r) and "No finished Kegeln game" not in texts(r), texts(r)
