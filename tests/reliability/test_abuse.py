"""Hostile input: huge messages, control and zero-width characters, forged button ids, strangers.
Always a clear refusal or nothing — never a crash, never a state change."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.app import App
from tests.app.harness import Table, texts


async def running_duel(table: Table) -> int:
    r = await table.say("alice", "/duel <@bob> 4")
    accept = table.button(r, ":accept")
    await table.press("bob", accept)
    await table.dm("alice", "1234")
    await table.dm("bob", "5678")
    return int(accept.split(":")[1])


@pytest.mark.parametrize("text", [
    "1" * 100_000, "x" * 100_000, "12\u200b34", "\u202e4321", "12\x0034", "\x1b[31m1234", "１２３４", "12 34",
])
async def test_bad_texts_from_a_player_change_nothing(table: Table, app: App, text: str) -> None:
    gid = await running_duel(table)
    before = await app.store.get_game(gid)
    state = await table.state(gid)
    for who in ("alice", "bob"):
        r = await table.say(who, text)
        assert "went wrong" not in texts(r)
        r = await table.say(who, "/guess " + text)
        assert "went wrong" not in texts(r) and (r.messages or r.notice)  # a command is always answered
        assert len(texts(r)) < 2_000  # never echoes a huge input back
    assert await app.store.get_game(gid) == before and await table.state(gid) == state


@pytest.mark.parametrize("action", [
    "g:999999:accept", "g:1:", "g:abc:accept", "g:-1:accept", "g:1:accept:extra", "x" * 300, "", ":::",
    "lang:xx", "lang:", "g:1:secret", "g:1:rematch", "g:1:again", "g:1:random",
])
async def test_forged_button_ids_are_refused_without_effect(table: Table, app: App, action: str) -> None:
    gid = await running_duel(table)
    before = await app.store.get_game(gid)
    r = await table.press("mallory", action)
    assert "went wrong" not in texts(r)
    if action:
        assert r.notice  # a press is always answered
    assert await app.store.get_game(gid) == before


async def test_only_the_challenged_player_answers_and_only_players_play(table: Table, app: App) -> None:
    r = await table.say("alice", "/duel <@bob>")
    accept = table.button(r, ":accept")
    gid = int(accept.split(":")[1])
    before = await app.store.get_game(gid)
    for who in ("mallory", "alice"):
        r = await table.press(who, accept)
        assert r.notice
    assert await app.store.get_game(gid) == before
    await table.press("bob", accept)
    await table.dm("alice", "1234")
    await table.dm("bob", "5678")
    before = await app.store.get_game(gid)
    assert (await table.say("mallory", "9012")).messages == ()  # a stranger's digits are chat
    r = await table.say("mallory", "/guess 9012")
    assert "no running game" in texts(r)
    r = await table.say("mallory", "/resign")
    assert await app.store.get_game(gid) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=3000))
async def test_any_unicode_to_every_entry(table: Table, text: str) -> None:
    for r in (await table.say("alice", text), await table.say("alice", "/duel " + text),
              await table.dm("alice", text), await table.press("alice", text[:64])):
        assert "went wrong" not in texts(r)


@pytest.mark.parametrize("command", [
    "/duel ²", "/practice ²", "/logik rows ²", "/logik ²", "/kegeln high ² Anna Ben", "/words length ²",
    "/wurf ²", "/kegeln high 3 ²", "/practice ٣",
])
async def test_unicode_digits_in_options_are_refused_not_crashed(table: Table, command: str) -> None:
    """Regression (found by hypothesis): "²".isdigit() is true but int("²") fails."""
    r = await table.say("alice", command)
    assert "went wrong" not in texts(r) and (r.messages or r.notice)
