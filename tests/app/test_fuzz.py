"""Hostile and arbitrary input through the whole App: never a crash, never silence on a command."""

from __future__ import annotations

import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import App
from bot.commands import COMMANDS
from core.messages import Actor, Chat, Inbound

names = st.sampled_from(["alice", "bob", "carol"])
chats = st.sampled_from([Chat("fz", "g", False), Chat("fz", "dm", True)])
words = st.one_of(st.text(max_size=12), st.sampled_from(["3", "4", "5", "repeats", "<@bob>", "bob", "random", "0123"]))
inbounds = st.one_of(
    st.builds(lambda n, c, t: (n, c, {"text": t}), names, chats, st.text(max_size=20)),
    st.builds(lambda n, c, cmd, a: (n, c, {"command": cmd, "args": tuple(a)}), names, chats,
              st.one_of(st.sampled_from([c.name for c in COMMANDS]), st.text(min_size=1, max_size=8)),
              st.lists(words, max_size=3)),
    st.builds(lambda n, c, a: (n, c, {"action": a}), names, chats,
              st.one_of(st.text(max_size=20), st.sampled_from(["g:1:accept", "g:1:secret", "g:2:rematch", "lang:de"]))),
)
counter = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(inbounds, min_size=1, max_size=25))
async def test_arbitrary_inbounds_never_crash(tmp_path: Path, script: list) -> None:
    app = await App.open(str(tmp_path / f"fz{next(counter)}.sqlite3"), seed=1)
    try:
        for name, chat, kw in script:
            r = await app.handle(Inbound(Actor("fz", name, name, "en"), chat, event_id=f"{next(counter)}", **kw))
            assert not any("went wrong" in m.text for m in r.messages), (kw, r)
            if "command" in kw:  # a command is never met with silence
                assert r.messages or r.notice, kw
    finally:
        await app.close()
