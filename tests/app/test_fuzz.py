"""Hostile and arbitrary input through the whole App: never a crash, never silence on a command."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app.app import App
from bot.games.registry import commands
from core.messages import Actor, Chat, Inbound

names = st.sampled_from(["alice", "bob", "carol"])
chats = st.sampled_from([Chat("fz", "g", False), Chat("fz", "dm", True)])
words = st.one_of(st.text(max_size=12), st.sampled_from(["3", "4", "5", "repeats", "<@bob>", "bob", "random", "0123"]))
inbounds = st.one_of(
    st.builds(lambda n, c, t: (n, c, {"text": t}), names, chats, st.text(max_size=20)),
    st.builds(lambda n, c, cmd, a: (n, c, {"command": cmd, "args": tuple(a)}), names, chats,
              st.one_of(st.sampled_from([c.name for c in commands()]), st.text(min_size=1, max_size=8)),
              st.lists(words, max_size=3)),
    st.builds(lambda n, c, a: (n, c, {"action": a}), names, chats,
              st.one_of(st.text(max_size=20), st.sampled_from(["g:1:accept", "g:1:secret", "g:2:rematch", "lang:de"]))),
)
counter = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(inbounds, min_size=1, max_size=25))
async def test_arbitrary_inbounds_never_crash(tmp_path: Path, script: list[tuple[str, Chat, dict[str, Any]]]) -> None:
    app = await App.open(str(tmp_path / f"fz{next(counter)}.sqlite3"), seed=1)
    try:
        for name, chat, kw in script:
            r = await app.handle(Inbound(Actor("fz", name, name, "en"), chat, event_id=f"{next(counter)}", **kw))
            assert not any("went wrong" in m.text for m in r.messages), (kw, r)
            if "command" in kw:  # a command is never met with silence
                assert r.messages or r.notice, kw
    finally:
        await app.close()


LONG_NUMBERS = ("9" * 24, "9" * 25, "1" + "0" * 40, "9" * 5000)


async def test_long_numbers_in_every_option_are_refused_clearly(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """Thousands of digits in any option of any command, or in a button id: a short localised
    refusal, never "something went wrong" and never a logged exception."""
    import logging

    app = await App.open(str(tmp_path / "long.sqlite3"), seed=1)
    group, n = Chat("fz", "g", False), itertools.count()

    async def send(who: str, chat: Chat, **kw: Any) -> str:
        r = await app.handle(Inbound(Actor("fz", who, who.capitalize(), "en"), chat,
                                     event_id=f"long-{next(n)}", **kw))
        return "\n".join(m.text for m in r.messages) + (f"\n{r.notice}" if r.notice else "")

    try:
        await send("scorer", group, command="kegeln", args=("high", "3", "Birgit", "Klaus"))
        await send("player", group, command="practice", args=())
        await send("lobby", group, command="words", args=())
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="bot"):
            for who in ("scorer", "player", "lobby", "nobody"):
                for chat in (group, Chat("fz", f"dm-{who}", True)):
                    for cmd in commands():
                        for num in LONG_NUMBERS:
                            for pos in range(max(len(cmd.options), 1) + 1):
                                prefix = {"words": ("length",), "logik": ("rows",), "kegeln": ("high",),
                                          "duel": ("3",)}.get(cmd.name, ("7",))[:pos]
                                out = await send(who, chat, command=cmd.name, args=(*prefix, num))
                                assert "went wrong" not in out, (cmd.name, prefix, num[:10])
                                assert out.strip(), (cmd.name, prefix)
                                # short: within Discord's 2000 (the smallest message limit; /help's
                                # overview is ~1700), and a long number is never echoed whole
                                assert len(out) < 2000, (cmd.name, prefix, out[:200])
                                assert len(num) < 100 or num[:100] not in out, (cmd.name, prefix, out[:200])
                        for action in (f"g:{num}:x", f"g:{num}:secret", f"lang:{num}"):
                            out = await send(who, chat, action=action)
                            assert out.strip() and "went wrong" not in out, action[:20]
                    out = await send(who, chat, text=num)
                    assert "went wrong" not in out
        assert [r.getMessage()[:80] for r in caplog.records if r.levelno >= logging.ERROR] == []
    finally:
        await app.close()
