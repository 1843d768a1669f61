"""The third-party Bot API emulator (npm `telegram-test-api`, tests/telegram/emulator/) run as a local
server, and the project's bot — the real App on a real SQLite file behind the real PTB adapter — pointed
at it. Users speak through the emulator's own client routes (`/sendMessage`, `/sendCallback`); what the
emulator lacks is modelled by tests/telegram/emulator/server.js (listed in test_emulator.py)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.editmap import JsonEditMap
from adapters.telegram import TelegramAdapter
from bot.app.app import App
from tests.system_parts import skip_or_fail
from tests.telegram.conftest import relaxed_limiter
from tests.telegram.standin_objects import MENTION_RE as MENTION
from tests.telegram.standin_objects import Chat, User, utf16

HERE = Path(__file__).parent / "emulator"
TOKEN = "123456:emulated"
BOT_USERNAME = "TestNameBot"  # what the emulator's getMe has always named its bot


def node_modules() -> str:
    """The emulator's packages, installed once from package-lock.json (`npm ci`; the lock file below keeps
    parallel test workers from installing at once). The reason a test cannot run ('' when it can): only a
    missing Node.js; a failed install fails the test."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "node and npm are not installed (the third-party Telegram emulator runs on Node.js)"
    with open(HERE / ".install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (HERE / "node_modules" / "telegram-test-api").is_dir():
            done = subprocess.run([npm, "ci", "--prefer-offline", "--no-audit", "--no-fund"], cwd=HERE,
                                  capture_output=True, text=True, timeout=300, check=False)
            if done.returncode != 0:
                pytest.fail(f"`npm ci` in {HERE} failed: {done.stderr[-500:]}", pytrace=False)
    return ""


@dataclass(frozen=True)
class Said:
    """One Bot API call of the bot, as the emulator's server saw it."""

    method: str
    params: dict[str, Any]
    ok: bool
    result: Any = None  # what the bot was answered
    start: float = 0.0  # when the call came and when it was answered, in ms of the emulator's clock
    end: float | None = None

    @property
    def chat_id(self) -> int:
        return int(self.params.get("chat_id", 0))

    @property
    def text(self) -> str:
        return str(self.params.get("text", ""))

    @property
    def rows(self) -> list[list[dict[str, Any]]]:
        markup = self.params.get("reply_markup")
        markup = json.loads(markup) if isinstance(markup, str) else markup or {}
        return list(markup.get("inline_keyboard", []))


class Emulator:
    """The emulator's process and the users' side of it."""

    def __init__(self, process: asyncio.subprocess.Process, port: int, session: aiohttp.ClientSession) -> None:
        self.process, self.port, self.session = process, port, session
        self.url = f"http://127.0.0.1:{port}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/bot"  # PTB appends the token

    async def _post(self, path: str, body: dict[str, Any]) -> Any:
        async with self.session.post(self.url + path, json=body) as answer:
            assert answer.status == 200, (path, answer.status, await answer.text())
            return (await answer.json())["result"] if path.startswith("/_emul/calls") else await answer.json()

    async def calls(self, since: int = 0) -> list[Said]:
        async with self.session.get(f"{self.url}/_emul/calls?since={since}") as answer:
            found = (await answer.json())["result"]
        return [Said(c["method"], c["params"], c["ok"], c.get("result"), c["start"], c.get("end")) for c in found]

    def message(self, chat: Chat, user: User, text: str, entities: list[dict[str, Any]] | None = None,
                topic: int | None = None) -> dict[str, Any]:
        """A message as Telegram delivers it: a leading /command carries its bot_command entity, each
        @username a mention entity (https://core.telegram.org/bots/api#messageentity)."""
        found = [{"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])}] if text.startswith("/") else []
        for match in MENTION.finditer(text):
            if not (text.startswith("/") and match.start() < len(text.split()[0])):  # not /cmd@Bot
                found.append({"type": "mention", "offset": utf16(text[:match.start()]), "length": utf16(match.group())})
        found += entities or []
        message: dict[str, Any] = {"botToken": TOKEN, "date": int(time.time()), "chat": chat.to_dict(),
                                   "from": user.to_dict(), "text": text}
        if found:
            message["entities"] = sorted(found, key=lambda e: int(e["offset"]))
        if topic is not None:  # #message: message_thread_id, is_topic_message "sent to a forum topic"
            message |= {"message_thread_id": topic, "is_topic_message": True}
        return message

    async def say(self, chat: Chat, user: User, text: str, entities: list[dict[str, Any]] | None = None,
                  topic: int | None = None) -> int:
        """`user` writes `text` in `chat` (in its forum topic `topic`) through the emulator's client route;
        the message's id."""
        await self._post("/sendMessage", self.message(chat, user, text, entities, topic))
        history = await self._post("/getUpdatesHistory", {"token": TOKEN})
        mine = [u for u in history["result"] if "message" in u and u["message"].get("text") == text
                and "chat_id" not in u["message"]]
        return int(mine[-1]["messageId"])

    async def press(self, chat: Chat, user: User, message_id: int, data: str) -> None:
        await self._post("/sendCallback", {"botToken": TOKEN, "from": user.to_dict(), "data": data,
                                           "message": {"message_id": message_id, "chat": chat.to_dict(),
                                                       "date": int(time.time()), "text": "…"}})

    async def edit(self, chat: Chat, user: User, message_id: int, text: str) -> None:
        """An `edited_message` update (which the emulator cannot make: modelled, #update)."""
        message = self.message(chat, user, text) | {"message_id": message_id, "edit_date": int(time.time())}
        del message["botToken"]
        await self._post("/_emul/update", {"botToken": TOKEN, "update": {"edited_message": message}})

    async def update(self, update: dict[str, Any]) -> None:
        await self._post("/_emul/update", {"botToken": TOKEN, "update": update})

    async def admins(self, chat: Chat, users: list[User]) -> None:
        await self._post("/_emul/admins", {"chat_id": chat.id, "admins": [
            {"status": "creator" if i == 0 else "administrator", "user": u.to_dict(), "is_anonymous": False}
            | ({} if i == 0 else {"can_be_edited": False, "can_manage_chat": True, "can_delete_messages": True,
                                  "can_manage_video_chats": False, "can_restrict_members": True,
                                  "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
                                  "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False})
            for i, u in enumerate(users)]})

    async def slow(self, chat: Chat, topic: int | None, seconds: float) -> None:
        """Each send into `chat` (its topic) takes `seconds` to be answered, as a large upload does."""
        await self._post("/_emul/slow", {"chat_id": chat.id, "thread": topic, "ms": int(seconds * 1000)})

    async def refuse(self, chat: Chat, status: int, description: str) -> None:
        """From now on every send into `chat` is refused so (the emulator never refuses: modelled)."""
        await self._post("/_emul/refuse", {"chat_id": chat.id, "status": status, "description": description})

    async def bot_member(self, chat: Chat, by: User, new: dict[str, Any]) -> None:
        """A `my_chat_member` update: `by` changed the bot's membership of `chat` (#update, #chatmember)."""
        me = {"id": 666, "is_bot": True, "first_name": "Test First name", "username": BOT_USERNAME}
        await self.update({"my_chat_member": {
            "chat": chat.to_dict(), "from": by.to_dict(), "date": int(time.time()),
            "old_chat_member": {"status": "member", "user": me}, "new_chat_member": new | {"user": me}}})

    async def wait_for(self, wanted: Callable[[Said], bool], since: int = 0, timeout: float = 10.0) -> Said:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [c for c in await self.calls(since) if wanted(c)]
            if found:
                return found[0]
            await asyncio.sleep(0.05)
        pytest.fail(f"no such call: {[(c.method, c.chat_id, c.text) for c in await self.calls(since)]}")


@contextlib.asynccontextmanager
async def running() -> AsyncIterator[Emulator]:
    reason = node_modules()
    if reason and os.environ.get("CI") == "true":  # a CI service's runner: a missing part fails there too
        pytest.fail(f"{reason} (required in CI)", pytrace=False)
    if reason:
        skip_or_fail(reason)
    process = await asyncio.create_subprocess_exec(
        "node", str(HERE / "server.js"), "0", stdout=asyncio.subprocess.PIPE, cwd=HERE)
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
    assert line.startswith("ready "), line
    async with aiohttp.ClientSession() as session:
        try:
            yield Emulator(process, int(line.split()[1]), session)
        finally:
            process.terminate()
            await process.wait()


class Bot:
    """The bot as deployed (tests/telegram/test_e2e_app.py `Club`) against the emulator."""

    def __init__(self, emulator: Emulator, db_path: Path) -> None:
        self.emulator, self.db_path = emulator, db_path
        self.app: App | None = None
        self.adapter: TelegramAdapter | None = None
        self.done: Any = None  # what the last deed returned (a message's id)

    async def start(self) -> None:
        self.app = await App.open(db_path=str(self.db_path), seed=1234)
        self.adapter = TelegramAdapter(
            TOKEN, self.app.handle, self.app.command_menu(), base_url=self.emulator.base_url,
            rate_limiter=relaxed_limiter(), poll_timeout=2.0,
            edit_map=JsonEditMap(self.db_path.with_suffix(".telegram-edits.json")))
        await self.adapter.start()

    async def stop(self) -> None:
        if self.adapter is not None:
            await self.adapter.stop()
        if self.app is not None:
            await self.app.close()

    async def act(self, chat: Chat, syncer: User, deed: Awaitable[Any], timeout: float = 15.0,
                  topic: int | None = None) -> list[Said]:
        """Run `deed` (a coroutine of the users' side), then `/help` from `syncer` in the same chat: updates of
        a chat are handled in order, so once that is answered the deed's answers are all in. The bot's calls."""
        mark = len(await self.emulator.calls())
        self.done = await deed
        await self.emulator.say(chat, syncer, "/help", topic=topic)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            calls = await self.emulator.calls(mark)
            done = [i for i, c in enumerate(calls) if c.method == "sendMessage" and c.chat_id == chat.id
                    and "/practice" in c.text and "/duel" in c.text]
            if done:
                return calls[:done[0]]
            await asyncio.sleep(0.05)
        pytest.fail(f"the bot did not answer /help in {chat.id}: {[(c.method, c.text) for c in calls]}")


@contextlib.asynccontextmanager
async def bot_at(emulator: Emulator, db_path: Path) -> AsyncIterator[Bot]:
    bot = Bot(emulator, db_path)
    try:
        await bot.start()
        yield bot
    finally:
        await bot.stop()
