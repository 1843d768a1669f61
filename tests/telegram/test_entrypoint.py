"""`python -m bot` with TELEGRAM_TOKEN set: the real entry point, as a separate process, against the
stand-in Bot API — settings, composition, menus, a game, health, a clean stop, no token in the logs."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests import leakscan
from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import Chat, User

ROOT = Path(__file__).resolve().parents[2]


async def test_the_bot_process_serves_telegram(standin: StandIn, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN=standin.token, TELEGRAM_BASE_URL=standin.base_url,
               LOG_LEVEL="DEBUG")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--db", str(db), cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await standin.wait_for(lambda c: c.method == "getUpdates", timeout=30)
        menus = standin.of("setMyCommands")
        assert {c.params.get("language_code") for c in menus} >= {None, "en", "de"}

        alice = User(id=501, first_name="Alice", language_code="en")
        group = Chat(id=-1001, type="group", title="Club")
        standin.user_message(group, alice, "/practice 3")
        sent = await standin.wait_sent(group.id, "secret code", timeout=15)
        assert "3 digits" in sent.text

        for _ in range(100):  # the heartbeat is written at start
            health = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "health", "--db", str(db), cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE)
            out, _ = await health.communicate()
            if health.returncode == 0:
                break
            await asyncio.sleep(0.1)
        assert health.returncode == 0 and b"telegram connected" in out
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err.decode()[-2000:]
    logs = err.decode()
    assert "practice" in logs  # one line per handled event
    assert standin.token not in logs and standin.token.split(":")[1] not in logs
    leakscan.bot_process(logs, tokens=[standin.token, standin.token.split(":")[1]])
