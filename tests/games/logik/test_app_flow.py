"""Logik through the App on a real SQLite file: routing, the simultaneous reveal, secrecy,
restarts, every end, the picture, rematch with swapped colours, and the statistics by side."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Actor, Chat
from tests.app.harness import Table, group_texts, texts


async def start(t: Table, a_secret: str = "12345", b_secret: str = "54321", opts: str = "") -> int:
    """alice challenges bob (alice plays white), bob accepts, both set secrets privately."""
    r = await t.say("alice", f"/logik <@bob> {opts}".strip())
    assert "to Logik: 5 pegs, 8 colours" in texts(r) and "Alice plays white" in texts(r)
    accept = t.button(r, ":accept")
    gid = int(accept.split(":")[1])
    r = await t.press("bob", accept)
    private = {m.to.user_id: m.text for m in r.messages if isinstance(m.to, Actor)}
    assert set(private) == {"alice", "bob"} and "you play white" in private["alice"]
    assert "you play black" in private["bob"] and "🟥1 R red" in private["bob"]
    await t.dm("alice", a_secret)
    r = await t.dm("bob", b_secret)
    assert "Both secret rows are locked" in texts(r)
    assert (await t.state(gid))["phase"] == "playing"
    return gid


async def test_simultaneous_reveal_with_initials_and_guess(table: Table) -> None:
    gid = await start(table, "12345", "54321")
    r = await table.say("alice", "rgbyk")  # colour initials, plain text in the group
    out = texts(r)
    assert out == "row 1: Alice ✓ — waiting for Bob"
    assert all(not isinstance(m.to, Actor) for m in r.messages)  # nothing privately either
    r = await table.say("alice", "/guess 11111")
    assert "already sent your row 1; wait for Bob" in texts(r)
    st = await table.state(gid)
    assert st["pending"] == {"alice": "12348"} and st["rows"] == {"alice": [], "bob": []}
    r = await table.say("bob", "/guess 12345")
    out = group_texts(r)
    assert "Round 1:" in out
    assert "Alice #1: 🟥1R 🟩2G 🟦3B 🟨4Y ⬛8K → ⚫⚪⚪⚪ (1 black, 3 white)" in out
    assert "Bob #1: 🟥1R 🟩2G 🟦3B 🟨4Y 🟧5O → ⚫⚫⚫⚫⚫ (5 black, 0 white)" in out
    assert "Bob cracked the code in round 1 and wins!" in out and "Alice: 🟥1R 🟩2G 🟦3B 🟨4Y 🟧5O" in out
    final = next(m for m in r.messages if m.image)  # an achievement may follow it
    assert final.image and final.image.startswith(b"\x89PNG") and table.button(r, ":rematch")


async def test_bad_rows_are_refused_with_a_reason_and_chat_is_ignored(table: Table) -> None:
    await start(table)
    assert "A row has 5 pegs, not 4" in texts(await table.say("alice", "1234"))
    assert "“9” is not a colour" in texts(await table.say("alice", "/guess 12349"))
    assert "“X” is not a colour" in texts(await table.say("alice", "/guess RGBYX"))
    assert "“X” is not a colour" in texts(await table.say("alice", "RGBYX"))  # a near-row: the reason
    for chatter in ("good luck to you", "hallo"):  # not row-like: ignored as chat (docs/logik.md)
        r = await table.say("alice", chatter)
        assert r.messages == (), chatter
    r = await table.say("carol", "rgbyk")  # not seated: ignored
    assert r.messages == ()


async def test_secret_as_initials_privately_and_never_in_the_group(table: Table) -> None:
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    r = await table.say("alice", "RGBYK")  # a secret typed in the open
    assert r.delete_inbound and "never type your secret row in the group" in texts(r)
    r = await table.dm("alice", "R G B Y K")
    assert "Your secret row 🟥1R 🟩2G 🟦3B 🟨4Y ⬛8K is locked" in texts(r)
    assert all("🟥1R 🟩2G" not in m.text for m in r.messages if not isinstance(m.to, Actor))
    r = await table.dm("bob", "random")
    assert "Both secret rows are locked" in texts(r)


async def test_restart_between_the_two_rows_of_a_round(db: str, clock) -> None:  # type: ignore[no-untyped-def]
    app = await App.open(db, seed=1, clock=clock)
    t = Table(app)
    gid = await start(t, "12345", "54321")
    await t.say("alice", "54321")
    await app.close()
    app = await App.open(db, seed=2, clock=clock)  # a new process on the same file
    t = Table(app)
    r = await t.say("alice", "11111")
    assert "already sent your row 1" in texts(r)
    r = await t.say("bob", "11111")
    assert "Alice cracked the code in round 1 and wins!" in texts(r)
    assert (await t.state(gid))["winner"] == "alice"
    await app.close()


async def test_board_picture_during_the_game(table: Table) -> None:
    await start(table)
    await table.say("alice", "11111")
    await table.say("bob", "22222")
    await table.say("bob", "33333")
    r = await table.say("alice", "/board")
    (msg,) = r.messages
    assert msg.image and msg.image.startswith(b"\x89PNG")
    assert "Round 2: waiting for Alice." in msg.text and "Alice #1: 🟥1R 🟥1R 🟥1R 🟥1R 🟥1R" in msg.text
    assert "33333" not in msg.text and "🟦3B 🟦3B" not in msg.text  # Bob's pending row stays hidden


async def test_all_rows_used_is_a_draw_and_resign_and_timeout(table: Table, app: App, clock) -> None:  # type: ignore[no-untyped-def]
    await start(table, "12345", "54321", "rows 8")
    for _ in range(8):
        await table.say("alice", "66666")
        r = await table.say("bob", "77777")
    assert "Draw — all 8 rows used" in texts(r)
    r = await table.say("bob", "/rematch")
    assert "Colours swap: Bob plays white" in texts(r)
    await table.press("alice", table.button(r, ":accept"))
    await table.dm("alice", "11111")
    await table.dm("bob", "22222")
    r = await table.say("alice", "/resign")
    assert "Alice resigns. Bob wins." in texts(r) and "Alice 0 – 1 – 1 Bob" in texts(r)
    r = await table.say("alice", "/logik <@bob>")
    await table.press("bob", table.button(r, ":accept"))
    clock.now += 7200
    out = await app.runner.sweep()
    assert any("timed out" in o.text for o in out)


async def test_rematch_names_who_accepts_whose_and_an_old_button_continues_the_match(table: Table) -> None:
    await start(table, "12345", "54321")
    r = await table.say("alice", "/resign")  # game 1: bob wins
    old_button = table.button(r, ":rematch")
    r = await table.press("bob", old_button)  # bob offers, alice (the first challenger) accepts
    accept = table.button(r, ":accept")
    game2 = int(accept.split(":")[1])
    r = await table.press("alice", accept)
    assert "Alice accepts Bob's Logik rematch!" in texts(r), texts(r)
    await table.dm("alice", "11111")
    await table.dm("bob", "22222")
    r = await table.say("bob", "/resign")  # game 2 (bob white): alice wins → 1 – 0 – 1
    assert "Alice 1 – 0 – 1 Bob" in texts(r), texts(r)
    r = await table.press("bob", old_button)  # game 1's button: continues from game 2
    game3 = int(table.button(r, ":accept").split(":")[1])
    st = await table.state(game3)
    assert game3 != game2 and st["match"]["wins"] == {"alice": 1, "bob": 1} and st["white"] == "alice", texts(r)


async def test_statistics_by_side(table: Table) -> None:
    other = Table(table.app, group=Chat("test", "group-2", private=False))
    # game 1, group 1: alice white wins
    await start(table, "12345", "54321")
    await table.say("alice", "54321")
    await table.say("bob", "88888")
    # game 2: rematch, bob white; black (alice) wins
    r = await table.say("alice", "/rematch")
    await table.press("bob", table.button(r, ":accept"))
    await table.dm("alice", "11111")
    await table.dm("bob", "22222")
    await table.say("bob", "33333")
    r = await table.say("alice", "22222")
    assert "Alice cracked the code" in texts(r) and "Alice 2 – 0 – 0 Bob" in texts(r)
    # game 3: rematch again, alice white; both solve: draw
    r = await table.say("bob", "/rematch")
    assert "Alice plays white" in texts(r)
    await table.press("alice", table.button(r, ":accept"))
    await table.dm("alice", "11111")
    await table.dm("bob", "22222")
    await table.say("bob", "11111")
    await table.say("alice", "22222")
    # group 2: carol (white) beats dave
    await start_other(other)
    r = await table.say("alice", "/stats logik")
    out = texts(r)
    assert "Here: 3 games: white 1 (33.3 %), black 1 (33.3 %), draws 1 (33.3 %); timed out 0" in out
    assert "Everywhere: 4 games: white 2 (50.0 %), black 1 (25.0 %), draws 1 (25.0 %)" in out
    assert "Alice: as white 1/1/0, as black 1/0/0 (wins/draws/losses)" in out
    r = await table.say("alice", "/stats logik Bob")
    assert "Bob: as white 0/0/1, as black 0/1/1" in texts(r)
    r = await table.say("alice", "/stats")
    assert "Logik: 3 · 2/1/0" in texts(r)  # the game's name from the catalog, not the raw kind


async def start_other(t: Table) -> None:
    r = await t.say("carol", "/logik <@dave>")
    await t.press("dave", t.button(r, ":accept"))
    await t.dm("carol", "11111")
    await t.dm("dave", "22222")
    await t.say("carol", "22222")
    r = await t.say("dave", "33333")
    assert "Carol cracked the code" in texts(r)


async def test_german(table: Table) -> None:
    table.locale = "de"
    await start_de(table)
    r = await table.say("alice", "reby1")  # E = gelb in German
    assert "Reihe 1: Alice ✓ — ich warte noch auf Bob" in texts(r)
    r = await table.say("bob", "11111")
    assert "schwarze" in texts(r) or "schwarzer" in texts(r)


async def start_de(t: Table) -> None:
    r = await t.say("alice", "/logik <@bob> reihen 9")
    assert "zu Logik heraus" in texts(r) and "9 Reihen" in texts(r)
    await t.press("bob", t.button(r, ":accept"))
    await t.dm("alice", "zufall")
    await t.dm("bob", "zufall")
