"""The bot's own posts, wired to the games: each game's scheduled jobs (bot/schedule/scheduler.py, owner = the
game's kind) run its plugin's `scheduled` hook, whose messages are rendered for the job's chat in that
chat's language, as the timeout sweep's are. `python -m bot` ticks it every few seconds (`POST_SECONDS`).
A post that is no game's (the weekly table) registers a hook of its own by owner name (`register_post`)."""

from __future__ import annotations

import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot.schedule.scheduler import Job, Scheduler
from core.messages import Actor, Chat, Inbound, Message

if TYPE_CHECKING:
    from bot.games.plugin import GamePlugin, Services

POST_SECONDS = 5.0  # how often the entry point asks for due posts: a reminder is at most this late
PostHook = Callable[["Services", Job], Awaitable[list[Message]]]  # a job → the messages to post (maybe none)
POSTS: dict[str, PostHook] = {}  # the hooks of posts that are no game's, by owner name (`register_post`)


def register_post(owner: str, hook: PostHook) -> None:
    """The hook of `owner`'s jobs, for a post that is no game's (a game's is its plugin's `scheduled`)."""
    POSTS[owner] = hook


def holder() -> str:
    """This process's name in a job's lease: host and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


def scheduler(svc: Services, plugins: Sequence[GamePlugin[Any]]) -> Scheduler:
    """The App's scheduler, with one handler per game (its plugin's `scheduled` hook) and per registered
    post that is no game's, rendered."""
    sched = Scheduler(svc.store, svc.clock, holder())
    for owner, hook in POSTS.items():
        sched.register(owner, _handler(svc, hook))
    for plugin in plugins:
        sched.register(plugin.kind, _handler(svc, plugin.scheduled))
    return sched


def _handler(svc: Services, hook: PostHook) -> Any:
    async def run(job: Job) -> list[Any]:
        messages = await hook(svc, job)
        if not messages:
            return []
        system = Inbound(Actor(job.platform, "", ""), Chat(job.platform, job.chat_id, False))
        return list((await svc.localiser.response(system, messages, None, False)).messages)
    return run
