"""One bot process, one event loop, both platforms: TELEGRAM_TOKEN and DISCORD_TOKEN set at once,
each against its local stand-in; a game on each, and health reports both connected."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests import leakscan
from tests.discord.standin import BOT_TOKEN, CHANNEL_ID
from tests.discord.standin import StandIn as DiscordStandIn
from tests.telegram.standin import Chat, User
from tests.telegram.standin import StandIn as TelegramStandIn

ROOT = Path(__file__).resolve().parents[1]


async def test_one_process_serves_telegram_and_discord(tmp_path: Path) -> None:
    tg, dc = TelegramStandIn(), DiscordStandIn()
    await tg.start()
    await dc.start()
    db = str(tmp_path / "bot.sqlite3")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url,
               DISCORD_TOKEN=BOT_TOKEN, DISCORD_API_BASE=dc.api_base)
    env = leakscan.process_env(env)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--db", db, cwd=tmp_path, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        line = b""
        for _ in range(200):
            health = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "health", "--db", db,
                                                          cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE)
            line, _ = await health.communicate()
            if health.returncode == 0:
                break
            await asyncio.sleep(0.1)
        assert line.decode().strip() == "store ok; discord connected; telegram connected"

        group = Chat(id=-1002, type="group", title="Club")
        tg.user_message(group, User(id=7, first_name="Tina"), "/practice 4")
        await tg.wait_sent(group.id, "secret code", timeout=15)
        await dc.slash(CHANNEL_ID, dc.add_user("Dora"), "practice", {"length": "5"})
        await dc.wait_for(lambda c: "5 digits" in str(c.body), timeout=15)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
        await dc.stop()
        await tg.stop()
    assert proc.returncode == 0, err.decode()[-2000:]
    leakscan.bot_process(err.decode(), tokens=[tg.token, tg.token.split(":")[1], BOT_TOKEN])
