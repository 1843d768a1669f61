"""The bot's own posts through the App (bot/schedule/own_posts.py): a game's scheduled job runs its plugin's
`scheduled` hook when due, rendered in the chat's language for that chat, once — across a restart
before the time and a restart after the post, with the clock injected (no sleeping)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.app.app import App
from bot.games import registry as plugins
from bot.games.plugin import Services
from bot.schedule.scheduler import Job, schedule_job
from core.messages import Actor, Chat, Inbound, Message, Text
from tests.app.conftest import Clock
from tests.example_game import plugin as hilo

T0 = 1_000_000.0


class Reminding(hilo.HigherOrLowerPlugin):
    """The example game with a post of its own: a reminder whose text the job carries."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    async def scheduled(self, svc: Services, job: Job) -> list[Message]:
        self.seen.append(job.id)
        if job.late > 3600:  # an hour too late is no reminder any more: the hook posts nothing
            return []
        return [Message(Chat(job.platform, job.chat_id, False), Text("error.personal_account",
                                                                     {"command": job.payload["what"]}))]


@pytest.fixture
def reminding(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reminding]:
    p = Reminding()
    monkeypatch.setitem(plugins.PLUGINS, p.kind, p)
    yield p


async def test_a_scheduled_post_is_rendered_for_its_chat_once_across_restarts(
        tmp_path: Path, reminding: Reminding) -> None:
    db, clock = str(tmp_path / "bot.db"), Clock()
    app = await App.open(db, seed=1, clock=clock)
    await app.handle(Inbound(Actor("console", "ann", "Ann", is_admin=True), Chat("console", "#k", False),
                             command="lang", args=("de",)))
    await app.store.run(schedule_job(reminding.kind, "console", "#k", "evening", T0 + 600, {"what": "kegeln"}, T0))
    assert await app.scheduler.tick() == []  # not yet
    await app.close()  # a restart before the time
    clock.now = T0 + 900
    app = await App.open(db, seed=1, clock=clock)
    try:
        posts = await app.scheduler.tick()
        assert len(posts) == 1
        assert posts[0].to == Chat("console", "#k", False)
        assert posts[0].text == app.catalogs.render(Text("error.personal_account", {"command": "kegeln"}), "de")
        assert await app.scheduler.tick() == []
    finally:
        await app.close()
    app = await App.open(db, seed=1, clock=clock)  # and after the post: nothing again
    try:
        assert await app.scheduler.tick() == []
        assert len(reminding.seen) == 1
    finally:
        await app.close()


async def test_a_hook_that_posts_nothing_for_a_late_job_is_done_with_it(tmp_path: Path, reminding: Reminding) -> None:
    clock = Clock()
    app = await App.open(str(tmp_path / "bot.db"), seed=1, clock=clock)
    try:
        await app.store.run(schedule_job(reminding.kind, "console", "#k", "r", T0, {"what": "x"}, T0))
        clock.now = T0 + 7200
        assert await app.scheduler.tick() == []
        clock.now += 10_000
        assert await app.scheduler.tick() == []
        assert len(reminding.seen) == 1
    finally:
        await app.close()
