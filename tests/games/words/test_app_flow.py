"""Word games through the App on a real SQLite file: lobby, private words, turns, skips, votes,
two-player variants, solo, restarts, languages."""

from __future__ import annotations

from bot.app.app import App
from core.games.words.state import AUTONYMS
from core.messages import Actor, Chat, Text
from tests.app.conftest import Clock
from tests.app.harness import Table, group_texts, texts


def said(t: Table, key: str, **params: object) -> str:
    """The catalog entry `key` as the table's players read it (English)."""
    return t.app.catalogs.render(Text(key, params), "en")


async def open_game(t: Table, opts: str = "", players: tuple[str, ...] = ("ann", "bob", "cy")) -> int:
    r = await t.say(players[0], f"/words {opts}".strip())
    join = t.button(r, ":join")
    game_id = int(join.split(":")[1])
    assert "Bulls & Cows with words" in texts(r)
    for i, p in enumerate(players[1:]):
        r = await (t.press(p, join) if i % 2 == 0 else t.say(p, "/join"))
        assert said(t, "words.joined", name=p.capitalize(), n=i + 2, opener=players[0].capitalize()) in texts(r)
    r = await t.say(players[0], "/begin")
    assert "The lot has spoken" in texts(r), texts(r)
    setter = (await t.state(game_id))["setter"]
    private = [m for m in r.messages if isinstance(m.to, Actor)]
    assert [m.to.user_id for m in private if isinstance(m.to, Actor)] == [setter]
    o = (await t.state(game_id))["opts"]
    prompt = said(t, "words.word_prompt", game=game_id, length=o["length"], lang=AUTONYMS[o["lang"]])
    assert prompt in private[0].text
    assert private[0].fallback is not None and private[0].fallback.buttons[0][0].prompt
    return game_id


async def set_word(t: Table, game_id: int, word: str) -> str:
    setter = (await t.state(game_id))["setter"]
    r = await t.dm(setter, word)
    assert said(t, "words.word_locked", word=word, game=game_id) in texts(r), texts(r)
    assert word not in group_texts(r)  # the group never sees the word
    turn: str = (await t.state(game_id))["turn"]
    return turn


async def test_match_by_points_with_refusals(table: Table) -> None:
    gid = await open_game(table, "points 2")
    turn = await set_word(table, gid, "crane")
    st = await table.state(gid)
    setter = st["setter"]
    other = next(p["user_id"] for p in st["players"] if p["user_id"] not in (setter, turn))
    r = await table.say(other, "slate")
    assert "turn, please wait" in texts(r)
    r = await table.say(turn, "slat")
    assert "this game uses 5 letters" in texts(r)
    r = await table.say(turn, "qqqqq")
    assert "not in my English dictionary" in texts(r)
    r = await table.say(turn, "slate")
    assert "slate → 🐂 bull" in texts(r) and f"{other.capitalize()}'s turn" in texts(r)
    r = await table.say(other, "/guess SLATE")
    assert "already been said" in texts(r)
    assert (await table.state(gid))["turn"] == other  # the refusal kept the turn
    r = await table.say(other, "crane")
    out = texts(r)
    assert "got it: the word was crane" in out and "Round 2" in out
    st = await table.state(gid)
    assert st["setter"] == other and st["points"][other] == 1
    while True:  # the solver sets, someone solves, until a player has two points
        turn = await set_word(table, gid, "house")
        r = await table.say(turn, "house")
        st = await table.state(gid)
        if st["phase"] == "finished":
            break
    out = texts(r)
    assert "Match over" in out and "wins the match" in out
    winner = st["winners"][0]
    r = await table.say(winner, "/stats")
    assert "Bulls & Cows with words: 1 · 1/0/0" in texts(r)
    r = await table.say(winner, "/practice")  # the seat is free again
    assert "picked a secret code" in texts(r)


async def test_match_by_rounds_and_counts_answers(table: Table) -> None:
    gid = await open_game(table, "rounds 1 answers counts length 4")
    turn = await set_word(table, gid, "tree")
    r = await table.say(turn, "here")
    assert "here → 1 🐂 2 🐄" in texts(r)  # tree/here: one e in place, r and e elsewhere
    nxt = (await table.state(gid))["turn"]
    r = await table.say(nxt, "tree")
    assert "Match over" in texts(r) and f"{nxt.capitalize()} wins the match" in texts(r)


async def test_skip_on_timeout_is_applied_when_the_next_inbound_arrives(table: Table, clock: Clock) -> None:
    gid = await open_game(table, "time 60")
    late = await set_word(table, gid, "crane")
    clock.now += 61
    st = await table.state(gid)
    nxt = next(p["user_id"] for p in st["players"] if p["user_id"] not in (st["setter"], late))
    r = await table.say(nxt, "slate")  # the late player is skipped first, then this guess counts
    out = texts(r)
    assert f"{late.capitalize()} took longer than 60 s and is skipped" in out and "slate → 🐂 bull" in out
    r = await table.say(late, "plant")
    assert "plant → " in texts(r)


async def test_abandon_by_majority_vote(app: App, table: Table) -> None:
    gid = await open_game(table, "", ("ann", "bob", "cy", "dan"))
    await set_word(table, gid, "crane")
    st = await table.state(gid)
    guessers = [p["user_id"] for p in st["players"] if p["user_id"] != st["setter"]]
    r = await table.say(guessers[0], "/giveup")
    assert "votes to give up this word (1 of 2)" in texts(r)
    r = await table.press(guessers[1], f"g:{gid}:vote")
    out = texts(r)
    assert "The word is given up; it was crane" in out and "Round 2" in out
    assert sum((await table.state(gid))["points"].values()) == 0


async def test_two_players_rounds_and_limit(table: Table) -> None:
    gid = await open_game(table, "rounds 2", ("ann", "bob"))
    first_setter = (await table.state(gid))["setter"]
    g = await set_word(table, gid, "crane")
    await table.say(g, "slate")
    r = await table.say(g, "crane")
    assert "2 guesses this round" in texts(r)
    assert (await table.state(gid))["setter"] == g != first_setter
    g2 = await set_word(table, gid, "house")
    r = await table.say(g2, "house")
    out = texts(r)
    assert "Match over" in out and f"{g2.capitalize()} wins the match" in out  # 1 guess against 2

    gid = await open_game(table, "limit 2", ("cy", "dan"))
    g = await set_word(table, gid, "crane")
    await table.say(g, "slate")
    r = await table.say(g, "plant")
    out = texts(r)
    assert "has reached 2 guesses and loses" in out and "The last word was crane" in out


async def test_restart_mid_round_and_secret_in_the_group(db: str, clock: Clock, table: Table) -> None:
    gid = await open_game(table)
    setter = (await table.state(gid))["setter"]
    r = await table.say(setter, "crane")  # typed in the open: deleted, never echoed
    assert r.delete_inbound and "never type your secret" in texts(r)
    assert (await table.state(gid))["phase"] == "setting"
    r = await table.press(setter, f"g:{gid}:secret", "crane")  # a modal's answer
    assert "Your word crane is locked" in texts(r)
    turn = (await table.state(gid))["turn"]
    await table.app.close()
    app2 = await App.open(db, seed=7, clock=clock, idle_timeout=3600)
    try:
        t2 = Table(app2)
        r = await t2.say(turn, "crane")
        assert "got it: the word was crane" in texts(r)
    finally:
        await app2.close()


async def test_leave_lobby_and_running_game(table: Table) -> None:
    r = await table.say("ann", "/words")
    gid = int(table.button(r, ":join").split(":")[1])
    await table.say("bob", "/join")
    r = await table.say("bob", "/leave")
    assert "Bob leaves" in texts(r)
    r = await table.say("bob", "/begin")
    assert "not in this lobby yet" in texts(r)
    r = await table.say("ann", "/begin")
    assert "At least two players" in texts(r)
    r = await table.say("ann", "/cancel")
    assert "word game is closed" in texts(r)
    assert (await table.state(gid))["outcome"] == "cancelled"
    gid = await open_game(table)
    st = await table.state(gid)
    leaver = next(p["user_id"] for p in st["players"] if p["user_id"] != st["setter"])
    r = await table.say(leaver, "/leave")
    assert "leaves" in texts(r)
    r = await table.say(leaver, "/practice")  # the seat is released at once
    assert "picked a secret code" in texts(r)


async def test_solo_in_private_and_german_and_russian(table: Table) -> None:
    dm = Chat("test", "dm-ann", private=True)
    r = await table.say("ann", "/words solo length 4 lang ru", dm)
    assert "I have thought of a word: 4 letters, русский" in texts(r)
    gid = (await table.app.store.seated_games("test", "ann"))[0].id
    secret = (await table.state(gid))["secret"]
    guess = "трос" if secret != "трос" else "рост"
    r = await table.dm("ann", guess.upper())
    assert f"{guess} → " in texts(r) and "(" in texts(r)  # the Russian answer, with its English gloss
    r = await table.dm("ann", "/giveup")
    assert f"The word was {secret}" in texts(r)

    table.locale = "de"
    r = await table.say("bob", "/words solo")
    gid = (await table.app.store.seated_games("test", "bob"))[0].id
    assert "ich habe mir ein Wort ausgedacht: 5 Buchstaben, Deutsch" in texts(r)
    st = await table.state(gid)
    word = "haben" if st["secret"] != "haben" else "alles"
    r = await table.say("bob", word)
    assert any(a in texts(r) for a in ("daneben", "Kuh", "Bulle")), texts(r)
    r = await table.say("bob", st["secret"])
    assert "hat" in texts(r) and "gefunden" in texts(r)


async def test_idle_timeout_by_the_sweep(app: App, table: Table, clock: Clock) -> None:
    gid = await open_game(table)
    late = await set_word(table, gid, "crane")
    clock.now += 3601
    out = "\n".join(o.text for o in await app.runner.sweep())
    assert f"{late.capitalize()} let the time run out" in out and "crane" in out, out
    r = await table.say(late, "/stats")
    assert "Bulls & Cows with words: 1 · 0/0/0" in texts(r) and "⏱" not in texts(r)  # out of the match, not abandoned
    lobby = await table.say("ann", "/words")  # nobody owes a lobby a move: it is abandoned
    clock.now += 3601
    assert "abandoned" in "\n".join(o.text for o in await app.runner.sweep()), texts(lobby)


async def test_setter_leaves_before_choosing(table: Table) -> None:
    """Issue 23.12: no '(the word was —)', no 0-point winner when the setter leaves before choosing."""
    gid = await open_game(table)
    first = (await table.state(gid))["setter"]
    r = await table.say(first, "/leave")
    out = texts(r)
    assert f"{first.capitalize()} left before choosing a word" in out and "the word was" not in out, out
    assert "Round 2" in out
    second = (await table.state(gid))["setter"]
    r = await table.say(second, "/leave")
    out = texts(r)
    assert "Match over" in out and "No word was ever set, so nobody wins" in out, out
    assert "wins the match" not in out and "The last word was" not in out
    assert (await table.state(gid))["winners"] == []

    gid = await open_game(table, "rounds 2", ("dan", "eve"))  # two players: the other is no 0-guess winner
    setter = (await table.state(gid))["setter"]
    r = await table.say(setter, "/leave")
    out = texts(r)
    assert "nobody wins" in out and "wins the match" not in out, out
