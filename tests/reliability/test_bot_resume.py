"""The real `python -m bot` console process resumes a duel against the bot that a crash left at
the bot's turn: the database is prepared by an App that dies in the bot's thinking step (in this
test process), then the console bot starts on the same file and makes the bot's move by itself."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from adapters.console.adapter import GROUP
from bot.app.app import App
from bot.solver.thinking import Thinker
from core.messages import Actor, Chat, Inbound
from core.solver import games as solver_games
from tests.app.harness import found
from tests.reliability.test_kill9 import Bot


def killed(*args: Any) -> Any:
    raise RuntimeError("killed while thinking")


async def test_console_bot_makes_the_pending_bot_move_at_start(tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    app = await App.open(str(db), seed=5)
    app.thinker = Thinker(executor=ThreadPoolExecutor(1))
    alice = Actor("console", "alice", "alice", "en")
    ids = iter(range(1, 100))

    async def say(text: str, chat: Chat = GROUP) -> None:
        if text.startswith("/"):
            name, *args = text[1:].split()
            await app.handle(Inbound(alice, chat, command=name, args=tuple(args), event_id=f"prep-{next(ids)}"))
        else:
            await app.handle(Inbound(alice, chat, text=text, event_id=f"prep-{next(ids)}"))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver_games, "bot_guess", killed)
        try:
            await say("/duel bot strong")
            gid = found(await app.store.last_game("console", GROUP.chat_id, "alice")).id
            await say("9753", Chat("console", "@alice", private=True))  # never a line number
            if found(await app.store.get_game(gid)).state["turn"] == "alice":
                await say("4680")
            st = found(await app.store.get_game(gid)).state
            assert st["turn"] == "bot" and not st["attempts"].get("bot")
        finally:
            await app.close()

    bot = Bot(db, seed=6)
    try:
        bot.say("# started", r"^\[#table\] Bot #1: \d{4}", timeout=60)  # made at start, unasked
        bot.say("alice: 1234", r"alice #\d: 1234")  # and alice plays on
    finally:
        bot.close()
