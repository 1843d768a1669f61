"""Who may change the Kegel club's records, seen by a cheater, through the App on a real SQLite file:
a member who merely starts a game (and so scores it) can neither merge two real members nor move the
season start; /kegelmerge asks for a confirmation that only the asker can give and that goes stale
when the records change; a game started with the old name while the merge is being written is seen by
the merge's own transaction."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.games.kegeln import storage
from core.games.kegeln.season import Start
from tests.app.conftest import Clock
from tests.app.harness import GROUP, PLATFORM, Table, texts
from tests.games.kegeln.test_season import admin, at, game, season_2026


async def members(app: App) -> list[Any]:
    """The club's records as the store reads them (on either database): per member and game, and the
    throw log with its names."""
    where = (PLATFORM, GROUP.chat_id)
    return [*await storage.series(app.store, *where), *await storage.throw_log(app.store, *where)]


async def season_start(app: App) -> Start | None:
    return await storage.season_start(app.store, PLATFORM, GROUP.chat_id)


async def test_a_scorer_of_a_running_game_cannot_merge_members_of_games_others_scored(
        app: App, table: Table, clock: Clock) -> None:
    """bob starts a game (so he keeps its score) and tries to merge two real members, Klausi and Klaus,
    whose games alice scored: refused with the rule, nothing changes."""
    await season_2026(table, clock)
    before = await members(app)
    await table.say("bob", "/kegeln high 2 Xaver Yvonne")
    r = await table.say("bob", "/kegelmerge Klausi Klaus")
    assert "Only a chat admin, or whoever kept the score of every game Klausi played in (Alice)" in texts(r), texts(r)
    assert not any(m.buttons for m in r.messages)
    assert await members(app) == before


async def test_a_scorer_of_a_running_game_cannot_move_the_season_start(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    await table.say("bob", "/kegeln high 2 Xaver Yvonne")
    r = await table.say("bob", "/saison 09-01")
    assert "Only a chat admin, the scorer of the last finished game (Alice) or whoever kept score most" in texts(r), \
        texts(r)
    assert await season_start(app) is None


async def test_the_season_start_by_the_last_scorer_or_the_seasons_main_scorer(
        app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    evening = clock.now
    clock.now = at(2025, 12, 6)  # carol kept the score of two real games last season (one cheap game would not do)
    for _ in range(2):
        await game(table, "high", {"Birgit": (1, 1), "Sven": (2, 2), "Klaus": (3, 3)}, who="carol")
    clock.now = evening
    await game(table, "high", {"Birgit": (1, 1), "Sven": (2, 2), "Klaus": (3, 3)}, who="carol")  # and the last one
    r = await table.say("bob", "/saison 09-01")
    assert "(Carol) or whoever kept score most this season (Alice)" in texts(r), texts(r)
    assert "now start on September 1" in texts(await table.say("carol", "/saison 09-01"))  # the last game's scorer
    assert "now start on October 1" in texts(await table.say("alice", "/saison 10-01"))  # most games this season
    assert await season_start(app) == Start(10, 1)


async def test_the_scorer_of_the_typo_merges_after_confirming(app: App, table: Table, clock: Clock) -> None:
    """alice scored every game of Klausi: she may merge, after pressing ✅; nothing is written before."""
    await season_2026(table, clock)
    before = await members(app)
    r = await table.say("alice", "/kegelmerge Klausi Klaus")
    assert "Merge Klausi into Klaus?" in texts(r), texts(r)
    assert await members(app) == before
    yes = table.button(r, "-yes")
    r = await table.press("alice", yes)
    assert "🔗 Merged: Klausi is now Klaus — 2 games moved, Klaus has 6 games." in texts(r), texts(r)
    assert not any("klausi" in (r.name.casefold(), getattr(r, "member", "")) for r in await members(app))
    r = await table.press("alice", yes)  # the same button again: nothing left to confirm
    assert "out of date" in texts(r), texts(r)


async def test_a_confirmation_pressed_by_someone_else_is_refused(app: App, table: Table, clock: Clock) -> None:
    await season_2026(table, clock)
    before = await members(app)
    r = await table.send(admin("dave"))
    yes, no = table.button(r, "-yes"), table.button(r, "-no")
    for who in ("bob", "alice"):  # alice could merge herself, but this question is dave's
        assert "Only Dave can answer this question." in texts(await table.press(who, yes))
        assert "Only Dave can answer this question." in texts(await table.press(who, no))
    assert await members(app) == before
    r = await table.press("dave", no)
    assert "Klausi and Klaus stay apart" in texts(r), texts(r)
    assert "out of date" in texts(await table.press("dave", yes))
    assert await members(app) == before


async def test_a_stale_confirmation_after_the_records_changed_is_refused(app: App, table: Table, clock: Clock) -> None:
    """Asked, then a game finishes with Klausi (the records the question showed are no longer the records):
    the old ✅ is refused; asked again, the new question merges all three games."""
    await season_2026(table, clock)
    r = await table.send(admin("dave"))
    yes = table.button(r, "-yes")
    clock.now = at(2026, 12, 18, 21)
    await game(table, "high", {"Klausi": (4, 4), "Hanne": (5, 5)})
    before = await members(app)
    r = await table.press("dave", yes)
    assert "This confirmation is out of date" in texts(r), texts(r)
    assert await members(app) == before
    r = await table.send(admin("dave"))
    r = await table.press("dave", table.button(r, "-yes"))
    assert "Klausi is now Klaus — 3 games moved, Klaus has 7 games." in texts(r), texts(r)


async def test_a_game_started_with_the_old_name_during_the_merge_is_seen(
        app: App, table: Table, clock: Clock, monkeypatch: Any) -> None:
    """The race, made deterministic: between the merge's checks and its write, alice starts a game with
    Klausi. The merge's transaction sees the running game and refuses; nothing is merged."""
    await season_2026(table, clock)
    before = await members(app)
    real = storage.merge
    started: list[str] = []

    async def start_first(*args: Any, **kwargs: Any) -> Any:
        started.append(texts(await table.say("alice", "/kegeln high 2 Klausi Hanne")))
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "merge", start_first)
    r = await table.send(admin("dave"))
    if any(m.buttons for m in r.messages):  # (the merge without its confirmation: the race alone)
        r = await table.press("dave", table.button(r, "-yes"))
    assert started and "Hausnummern #" in started[0], started
    assert "Klausi is playing in the running game #7" in texts(r), texts(r)
    assert await members(app) == before


async def test_one_cheap_game_buys_neither_the_season_start_nor_a_merge(
        app: App, table: Table, clock: Clock) -> None:
    """Issue 23.3: mallory scores one 4-throw game of two made-up names, X and Y. That makes her the
    last game's scorer and the scorer of every game of X — and still trusts her with nothing: the
    club's trust takes `trust.GAMES` completed games of `trust.THROWS` throws or more."""
    await season_2026(table, clock)
    before = await members(app)
    await game(table, "high", {"Xaver": (1, 1), "Yvonne": (2, 2)}, who="mallory")
    r = await table.say("mallory", "/saison 09-01")
    assert "needs a chat admin, or a scorer of at least 3 completed club games with 6 throws" in texts(r), texts(r)
    assert await season_start(app) is None
    r = await table.say("mallory", "/kegelmerge Xaver Klaus")
    assert "Merging members needs a chat admin" in texts(r) and not any(m.buttons for m in r.messages), texts(r)
    assert len(await members(app)) > len(before)  # her game is stored, nothing merged
    for _ in range(2):  # two more games, but as short: still nothing
        await game(table, "high", {"Xaver": (1, 1), "Yvonne": (2, 2)}, who="mallory")
    assert "needs a chat admin" in texts(await table.say("mallory", "/saison 09-01"))
