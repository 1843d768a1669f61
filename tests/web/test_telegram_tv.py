"""The TV page from the real `python -m bot` process on Telegram (against the local Bot API stand-in), with
WEB_PORT set: /tv answers in the scorer's private chat, never in the group (and where Telegram refuses the
private message, the group is told only that); the page follows a throw entered in the group."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp

from tests import leakscan
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User
from tests.web.tvkit import LINK, free_port, numbers, open_events

ROOT = Path(__file__).resolve().parents[2]


async def test_tv_on_telegram(tmp_path: Path) -> None:
    tg = StandIn()
    await tg.start()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url,
               WEB_HOST="127.0.0.1", WEB_PORT=str(port), WEB_PUBLIC_URL=f"http://127.0.0.1:{port}")
    env = leakscan.process_env(env)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--db", str(tmp_path / "bot.sqlite3"),
                                                cwd=tmp_path, env=env, stdin=asyncio.subprocess.DEVNULL,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    group, tina = Chat(id=-1003, type="group", title="Kegelclub Elbe"), User(id=7, first_name="Tina")
    tg.admins[group.id] = [tina]  # Tina runs the club's evening: her game is a club game, on the TV (docs/club.md)
    token = ""
    try:
        tg.user_message(group, tina, "/kegeln high 2 Anna Ben")
        await tg.wait_sent(group.id, "Anna", timeout=30)
        mark = tg.mark()
        tg.user_message(group, tina, "/tv")
        private = await tg.wait_sent(tina.id, "/tv/", timeout=15)  # Tina's private chat with the bot
        found = LINK.search(private.text)
        assert found and "Kegelclub Elbe" in private.text
        link = found.group(0)
        token = link.rsplit("/", 1)[1]
        assert all(token not in c.everything() for c in tg.sent(group.id, after=mark))

        async with aiohttp.ClientSession() as http:
            stream = await open_events(http, link)
            assert numbers(await stream.until("state")) == {"Anna": "__", "Ben": "__"}
            tg.user_message(group, tina, "/wurf 9 10")
            await stream.until("state", lambda v: numbers(v)["Anna"] == "9_", timeout=15)
            assert (await stream.until("moment"))["name"] == "Anna"
            await stream.close()

        tg.blocked.add(tina.id)  # Telegram refuses the private message (403): the group hears only that
        mark = tg.mark()
        tg.user_message(group, tina, "/tv")
        await tg.wait_sent(group.id, "cannot send you the TV link privately", timeout=15, after=mark)
        assert all(c.chat_id == tina.id for c in tg.calls[mark:] if token in c.everything())  # the refused try only
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
        await tg.stop()
    assert proc.returncode == 0, err.decode()[-2000:]
    leakscan.bot_process(err.decode(), tokens=[tg.token, tg.token.split(":")[1], *([token] if token else [])])
