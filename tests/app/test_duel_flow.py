"""Full duels through the App on a real SQLite file: every end condition, secrecy, restarts."""

from __future__ import annotations

import asyncio

from bot.app.app import App
from core import ratings
from core.messages import Actor, Chat, Inbound, Response
from tests.app.harness import PLATFORM, Table, group_texts, texts


async def start_duel(t: Table, a_secret: str = "1234", b_secret: str = "5678", opts: str = "") -> tuple[int, str, str]:
    """alice challenges bob, bob accepts by button, both set secrets privately.
    Returns (game id, starter, second)."""
    r = await t.say("alice", f"/duel <@bob> {opts}".strip())
    accept = t.button(r, ":accept")
    game_id = int(accept.split(":")[1])
    r = await t.press("bob", accept)
    private = {m.to.user_id for m in r.messages if isinstance(m.to, Actor)}
    assert private == {"alice", "bob"}  # both are asked privately
    await t.dm("alice", a_secret)
    r = await t.dm("bob", b_secret)
    st = await t.state(game_id)
    assert st["phase"] == "playing", texts(r)
    starter = st["starter"]
    return game_id, starter, "bob" if starter == "alice" else "alice"


def target(starter: str, a_secret: str = "1234", b_secret: str = "5678") -> dict[str, str]:
    """Which code each player must crack."""
    return {"alice": b_secret, "bob": a_secret}


async def played_out(t: Table, first: str, second: str, draw: bool = False) -> Response:
    """A started duel played to its end with `ratings.MIN_MOVES` guesses each (so it is rated): misses
    first, then the starter cracks and the second player cracks too (`draw`) or misses."""
    codes = target(first)
    for miss in ("9012", "9013", "9014")[: ratings.MIN_MOVES - 1]:
        await t.say(first, miss)
        await t.say(second, miss)
    await t.say(first, codes[first])
    return await t.say(second, codes[second] if draw else "9087")


async def bot_duel_played(t: Table, who: str = "ann") -> str:
    """A 3-digit duel against the easy bot in which `who` makes `ratings.MIN_MOVES` guesses, then
    resigns if it still runs; returns the winner ('' for a draw)."""
    await t.say(who, "/duel bot easy 3")
    await t.dm(who, "012")
    row = await t.app.store.last_game(PLATFORM, t.group.chat_id, who)
    assert row is not None
    for guess in ("345", "678", "901", "234", "567", "890")[: ratings.MIN_MOVES]:
        st = await t.state(row.id)
        if st["phase"] == "finished":
            break
        await t.say(who, guess)
    st = await t.state(row.id)
    if st["phase"] != "finished":
        assert "resigns" in texts(await t.say(who, "/resign"))
        st = await t.state(row.id)
    assert min(len(v) for v in st["attempts"].values()) >= ratings.MIN_MOVES, st["attempts"]
    return str(st["winner"] or "")


async def test_starter_cracks_second_misses(table: Table) -> None:
    gid, first, second = await start_duel(table)
    codes = target(first)
    r = await table.say(first, codes[first])
    assert "last guess" in texts(r)
    r = await table.say(second, "9012" if codes[second] != "9012" else "9013")
    out = texts(r)
    assert f"{first.capitalize()} wins" in out and "1234" in out and "5678" in out  # both secrets revealed
    assert "🟩" in out  # attempts digit by digit
    st = await table.state(gid)
    assert st["outcome"] == "win" and st["winner"] == first


async def test_starter_cracks_second_cracks_draw(table: Table) -> None:
    gid, first, second = await start_duel(table)
    codes = target(first)
    await table.say(first, codes[first])
    r = await table.say(second, codes[second])
    assert "Draw" in texts(r)
    assert (await table.state(gid))["outcome"] == "draw"


async def test_second_cracks_first_wins_at_once(table: Table) -> None:
    _gid, first, second = await start_duel(table)
    codes = target(first)
    await table.say(first, "9012")
    r = await table.say(second, codes[second])
    assert f"{second.capitalize()} wins" in texts(r)


async def test_thirty_each_is_a_draw(table: Table) -> None:
    gid, first, second = await start_duel(table, "9876", "9875")
    codes = [f"{i:04d}" for i in range(1000, 1300) if len(set(f"{i:04d}")) == 4][:30]
    for code in codes:
        await table.say(first, code)
        r = await table.say(second, code)
    assert "Draw" in texts(r)
    st = await table.state(gid)
    assert st["outcome"] == "draw" and all(len(v) == 30 for v in st["attempts"].values())


async def test_resign_records_a_win_for_the_other(table: Table) -> None:
    _gid, _first, _second = await start_duel(table)
    r = await table.say("bob", "/resign")
    assert "Alice wins" in texts(r)
    r = await table.say("alice", "/stats")
    assert "1A2B duel: 1 · 1/0/0" in texts(r)
    r = await table.say("bob", "/top")
    assert "Alice — 1/0/0" in texts(r) and "Bob — 0/0/1" in texts(r)


async def test_timeout_is_recorded(table: Table, app: App, clock) -> None:  # type: ignore[no-untyped-def]
    gid, first, second = await start_duel(table)
    clock.now += 1800
    assert await app.runner.sweep() == []  # not idle long enough
    clock.now += 3600
    out = await app.runner.sweep()
    assert out and "let the time run out" in out[0].text and out[0].to == table.group
    st = await table.state(gid)
    assert st["outcome"] == "timeout" and st["winner"] == second  # the starter owed the first guess
    r = await table.say(first, "/stats")
    assert "1 · 0/0/1" in texts(r)
    # both secrets missing: nobody alone owed the move, so it is abandoned
    r = await table.say("alice", "/duel <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    clock.now += 3601
    out = await app.runner.sweep()
    assert out and "abandoned" in out[0].text
    r = await table.say("alice", "/stats")
    assert "⏱1" in texts(r)


async def test_wrong_turn_and_invalid_guesses_change_nothing(table: Table, app: App) -> None:
    gid, first, second = await start_duel(table)
    before = await app.store.get_game(gid)
    log_before = await app.store.event_log(gid)
    for who, text in [(second, "/guess 9012"), (first, "/guess 123"), (first, "/guess 1123"), (first, "/guess 12a4")]:
        r = await table.say(who, text)
        assert r.messages and r.messages[0].text.startswith(who.capitalize() + ":")  # a reason, addressed
    after = await app.store.get_game(gid)
    assert after and before and after.version == before.version and after.state == before.state
    assert await app.store.event_log(gid) == log_before


async def test_chatter_and_strangers_are_ignored(table: Table) -> None:
    _gid, first, _second = await start_duel(table)
    assert (await table.say(first, "good luck!")).messages == ()
    assert (await table.say("carol", "1234")).messages == ()


async def test_no_secret_is_ever_shown_in_the_group_before_the_end(table: Table) -> None:
    _gid, first, second = await start_duel(table, "0246", "1357")
    await table.say(first, "9012")
    await table.say(second, "8012")
    before_end = [m for m in table.sent if isinstance(m.to, Chat) and not m.to.private]
    assert not any("0246" in m.text or "1357" in m.text for m in before_end)
    mine = [m for m in table.sent if "0246" in m.text]
    assert mine and all(isinstance(m.to, Actor) and m.to.user_id == "alice" for m in mine)


async def test_secret_typed_in_the_group_is_not_echoed_and_deleted(table: Table) -> None:
    r = await table.say("alice", "/duel <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    r = await table.say("bob", "4321")
    assert r.delete_inbound and "4321" not in texts(r)
    r = await table.say("bob", "random")  # revealing nothing, so it is taken
    assert "locked" in texts(r)


async def test_secret_by_button_input_and_random_button(table: Table) -> None:
    r = await table.say("alice", "/duel <@bob> 3")
    r = await table.press("bob", table.button(r, ":accept"))
    prompt = next(m for m in r.messages if isinstance(m.to, Actor) and m.to.user_id == "bob")
    assert prompt.fallback is not None and prompt.fallback.to == table.group
    secret_button = prompt.fallback.buttons[0][0]
    assert secret_button.prompt and secret_button.action.endswith(":secret")
    r = await table.press("bob", secret_button.action, text="987")  # e.g. a Discord modal submit
    assert any("987" in m.text for m in r.messages)
    assert all(isinstance(m.to, Actor) for m in r.messages if "987" in m.text)
    alice_prompt = next(m for m in table.sent if isinstance(m.to, Actor) and m.to.user_id == "alice")
    r = await table.press("alice", alice_prompt.buttons[0][0].action)  # 🎲 random code
    assert "Both codes are locked" in texts(r)


async def test_rematch_other_player_starts_and_score_carries_on(table: Table) -> None:
    gid, first, second = await start_duel(table)
    r = await table.say(second, "/resign")
    rematch = table.button(r, ":rematch")
    r = await table.press(second, rematch)
    accept = table.button(r, ":accept")
    r = await table.press(second, accept)
    assert r.notice  # the offerer cannot accept their own rematch
    r = await table.press(first, accept)
    new_id = int(accept.split(":")[1])
    await table.dm("alice", "2345")
    await table.dm("bob", "6789")
    st = await table.state(new_id)
    assert new_id != gid and st["starter"] == second and st["match"]["wins"] == {first: 1}


async def test_rematch_says_who_accepts_whose_rematch_and_that_no_lot_was_drawn(table: Table) -> None:
    _gid, first, second = await start_duel(table)
    r = await table.say(second, "/resign")
    r = await table.press(second, table.button(r, ":rematch"))  # the one who lost offers
    r = await table.press(first, table.button(r, ":accept"))
    out = texts(r)
    assert f"{first.capitalize()} accepts {second.capitalize()}'s rematch!" in out, out
    assert "duel!" not in out
    await table.dm("alice", "2345")
    r = await table.dm("bob", "6789")
    out = texts(r)
    assert "lot" not in out and f"{second.capitalize()} starts, then {first.capitalize()}" in out, out


async def test_an_old_rematch_button_continues_the_match_from_its_newest_game(table: Table) -> None:
    """The 🔁 of game 1 pressed after its rematch (game 2) was played: no reset of the match score,
    no repeat of game 2's starter — it continues from game 2, as game 2's own button would."""
    gid, first, second = await start_duel(table)
    r = await table.say(second, "/resign")  # game 1: first wins
    old_button = table.button(r, ":rematch")
    r = await table.press(second, old_button)
    accept = table.button(r, ":accept")
    game2 = int(accept.split(":")[1])
    await table.press(first, accept)
    await table.dm("alice", "2345")
    await table.dm("bob", "6789")
    assert (await table.state(game2))["starter"] == second
    r = await table.say(first, "/resign")  # game 2: second wins → 1 – 0 – 1
    assert "1 – 0 – 1" in texts(r)
    r = await table.press(first, old_button)
    game3 = int(table.button(r, ":accept").split(":")[1])
    st = await table.state(game3)
    assert game3 not in (gid, game2)
    assert st["match"]["wins"] == {first: 1, second: 1} and st["starter"] == first, texts(r)
    r = await table.press(second, old_button)  # game 3 waits for second's answer: asking too accepts it
    assert f"{second.capitalize()} accepts {first.capitalize()}'s rematch" in texts(r), texts(r)
    r = await table.press(first, old_button)  # game 3 is running: the old button says so
    assert f"already moved on to game #{game3}" in texts(r) and await table.app.store.get_game(game3 + 1) is None


async def test_after_a_declined_rematch_the_old_button_offers_it_again(table: Table) -> None:
    _gid, first, second = await start_duel(table)
    r = await table.say(second, "/resign")
    old_button = table.button(r, ":rematch")
    r = await table.press(second, old_button)
    await table.press(first, table.button(r, ":decline"))  # not played: the match has not moved on
    r = await table.press(second, old_button)
    st = await table.state(int(table.button(r, ":accept").split(":")[1]))
    assert st["starter"] == second and st["match"]["wins"] == {first: 1}, texts(r)


async def test_open_challenge_and_one_game_per_chat(table: Table) -> None:
    r = await table.say("alice", "/duel")
    assert "Who accepts" in texts(r)
    r = await table.say("alice", "/practice")
    assert "already in a game" in texts(r)
    r = await table.say("carol", "/accept")
    assert "Carol accepts" in texts(r)
    r = await table.say("dave", "/accept")
    assert "no challenge" in texts(r)


async def test_duplicate_platform_events_are_applied_once(table: Table, app: App) -> None:
    gid, first, _second = await start_duel(table)
    ib = Inbound(table.actor(first), table.group, text="9012", event_id="same-update")
    r1 = await app.handle(ib)
    r2 = await app.handle(ib)
    assert r1.messages and r2.messages == ()
    st = await table.state(gid)
    assert len(st["attempts"][first]) == 1


async def test_restart_mid_secret_entry_and_mid_duel(db: str, clock) -> None:  # type: ignore[no-untyped-def]
    app = await App.open(db, seed=1, clock=clock)
    t = Table(app)
    r = await t.say("alice", "/duel <@bob>")
    await t.press("bob", t.button(r, ":accept"))
    await t.dm("alice", "1234")
    await app.close()

    app = await App.open(db, seed=2, clock=clock)  # a new process on the same file
    t = Table(app)
    await t.dm("bob", "5678")
    row = (await app.store.seated_games("test", "alice"))[0]
    first = row.state["starter"]
    second = "bob" if first == "alice" else "alice"
    await t.say(first, "9012")
    await app.close()

    app = await App.open(db, seed=3, clock=clock)
    t = Table(app)
    r = await t.say(first, "8012")
    assert "wait" in texts(r)  # still the second player's turn after the restart
    await t.say(second, "1357")
    r = await t.say(first, {"alice": "5678", "bob": "1234"}[first])
    assert "last guess" in texts(r)
    st = (await app.store.get_game(row.id))
    assert st and len(st.state["attempts"][first]) == 2 and len(st.state["attempts"][second]) == 1
    await app.close()


async def test_concurrent_guesses_never_lose_or_double_a_move(table: Table, app: App) -> None:
    gid, first, second = await start_duel(table, "9876", "9875")
    codes = [f"{i:04d}" for i in range(1000, 1400) if len(set(f"{i:04d}")) == 4][:20]
    # both players hammer the game at once with many guesses; alternation must hold
    tasks = [table.say(p, c) for c in codes for p in (first, second)]
    await asyncio.gather(*tasks)
    st = await table.state(gid)
    log = [e for e in await app.store.event_log(gid) if e.type == "guessed"]
    a, b = st["attempts"][first], st["attempts"][second]
    assert len(log) == len(a) + len(b) and len(a) - len(b) in (0, 1)
    assert [e.data["by"] for e in log] == [first, second] * len(b) + [first] * (len(a) - len(b))
    assert len({x["code"] for x in a}) == len(a)  # nothing counted twice


async def test_private_code_with_two_waiting_duels_asks_which(app: App) -> None:
    t1, t2 = Table(app), Table(app, group=Chat("test", "group-2", False))
    for t in (t1, t2):
        r = await t.say("alice", "/duel <@bob>")
        await t.press("bob", t.button(r, ":accept"))
    r = await t1.dm("bob", "1234")
    assert "Which one" in texts(r) and len(r.messages[0].buttons) == 2
    choice = r.messages[0].buttons[1][0].action
    r = await t1.send(Inbound(t1.actor("bob"), Chat("test", "dm-bob", True), action=choice))
    r = await t1.dm("bob", "1234")
    assert "locked" in texts(r)
    assert group_texts(r) and "1234" not in group_texts(r)


async def test_opponent_by_name_once_known(table: Table) -> None:
    r = await table.say("alice", "/duel Bob")
    assert "do not know Bob" in texts(r)
    await table.say("bob", "hello all")  # now the bot has seen Bob
    r = await table.say("alice", "/duel @bob 5 repeats")
    assert "challenges Bob" in texts(r) and "5 digits, repeated digits allowed" in texts(r)


async def test_many_duels_at_once_all_finish(table: Table, app: App) -> None:
    """Regression: concurrent readers once pinned an old WAL snapshot, so a game's next move
    was read from stale state. A hundred and twenty duels are played to the end at the same time."""

    async def duel(i: int) -> None:
        t = Table(app, group=Chat("test", f"g{i}", False))
        a, b = f"a{i}", f"b{i}"
        r = await t.say(a, f"/duel <@{b}> 3")
        await t.press(b, t.button(r, ":accept"))
        await t.dm(a, "123")
        await t.dm(b, "456")
        row = (await app.store.seated_games("test", a, f"g{i}"))[0]
        first = row.state["starter"]
        second = b if first == a else a
        for guess in ("789", "780", "781"):
            await t.say(first, guess)
            await t.say(second, guess)
        await t.say(first, "790")
        await t.say(second, "456" if second == a else "123")

    await asyncio.gather(*(duel(i) for i in range(120)))
    over = [r for i in range(120) if (r := await app.store.last_game("test", f"g{i}", f"a{i}")) and r.over]
    assert len(over) == 120


async def test_a_flood_gets_one_notice_then_silence(db: str, clock) -> None:  # type: ignore[no-untyped-def]
    app = await App.open(db, seed=1, clock=clock, rate=1.0, burst=3)
    t = Table(app)
    try:
        replies = [await t.say("mallory", "/help") for _ in range(6)]
        assert all(r.messages for r in replies[:3])
        assert replies[3].notice and "Slow down" in replies[3].notice and not replies[3].messages
        assert replies[4] == replies[5] == type(replies[4])()  # ignored silently
        assert (await t.say("alice", "/help")).messages  # others are not slowed down
        clock.now += 2
        assert (await t.say("mallory", "/help")).messages
    finally:
        await app.close()


async def test_restart_mid_practice(db: str, clock) -> None:  # type: ignore[no-untyped-def]
    app = await App.open(db, seed=9, clock=clock)
    t = Table(app)
    await t.say("alice", "/practice 3")
    await t.say("alice", "012")
    row = await app.store.last_game("test", "group-1", "alice")
    assert row is not None
    secret = row.state["secret"]
    await app.close()

    app = await App.open(db, seed=10, clock=clock)  # another seed: the code must come from the database
    t = Table(app)
    r = await t.say("alice", "012")
    assert "already guessed 012" in texts(r)
    r = await t.say("alice", secret)
    assert f"cracked {secret} in 2 attempts" in texts(r)
    await app.close()


async def test_stats_show_rating_names_in_the_readers_language(table: Table, app: App) -> None:
    await table.say("alice", "/practice 3")
    row = await app.store.last_game("test", "group-1", "alice")
    assert row is not None
    r = await table.say("alice", row.state["secret"])
    assert "Genius" in texts(r) and "New personal best" in texts(r)
    assert "3 digits, all digits different: 1 (Genius)" in texts(await table.say("alice", "/stats"))
    await table.say("alice", "/lang de")
    assert "3 Ziffern, alle Ziffern verschieden: 1 (Genie)" in texts(await table.say("alice", "/stats"))
