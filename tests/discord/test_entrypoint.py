"""`python -m bot` with DISCORD_TOKEN set, as separate processes against the stand-in Discord:
`sync-commands` publishes localised slash commands; the bot serves a slash command; health reports it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

from tests import leakscan

from .model import APP_ID, BOT_TOKEN, CHANNEL_ID, GUILD_ID
from .standin import StandIn

ROOT = Path(__file__).resolve().parents[2]


def env_for(standin: StandIn) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=BOT_TOKEN, DISCORD_API_BASE=standin.api_base)
    return leakscan.process_env(env)


async def run(env: dict[str, str], cwd: Path, *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, cwd=cwd, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    leakscan.bot_process(err.decode(), tokens=[BOT_TOKEN])
    return proc.returncode or 0, out.decode(), err.decode()


async def test_sync_commands_then_serve(standin: StandIn, tmp_path: Path) -> None:
    env = env_for(standin)
    db = str(tmp_path / "bot.sqlite3")
    code, out, err = await run(env, tmp_path, "sync-commands", "--guild", str(GUILD_ID), "--db", db)
    assert code == 0, err[-2000:]
    assert "synced" in out.lower()
    # the invite link asks for what the bot needs, Send Messages in Threads (1 << 38) included
    invite = next(line for line in out.splitlines() if "oauth2/authorize" in line)
    granted = int(re.search(r"permissions=(\d+)", invite).group(1))  # type: ignore[union-attr]
    for bit in (10, 11, 15, 16, 13, 38):  # view, send, attach files, read history, manage messages, threads
        assert granted & (1 << bit), (bit, invite)
    assert f"client_id={APP_ID}" in invite and "applications.commands" in invite
    synced = standin.commands[str(GUILD_ID)]
    names = {c["name"] for c in synced}
    assert {"duel", "practice", "logik", "words", "kegeln", "guess"} <= names
    practice = next(c for c in synced if c["name"] == "practice")
    assert practice.get("description_localizations", {}).get("de")  # every language the bot has
    length = next(o for o in practice["options"] if o["name"] == "length")
    assert length["description"] == "number of digits (3, 4 or 5)"
    assert length["description_localizations"]["de"] == "Anzahl der Ziffern (3, 4 oder 5)"
    assert length["description_localizations"]["ru"] == "число цифр (3, 4 или 5)"
    assert [c["value"] for c in length["choices"]] == ["3", "4", "5"]

    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--db", db, cwd=tmp_path, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        alice = standin.add_user("Alice")
        for _ in range(200):  # until the process is on the gateway
            code, out, _ = await run(env, tmp_path, "health", "--db", db)
            if code == 0:
                break
            await asyncio.sleep(0.1)
        assert code == 0 and "discord connected" in out
        await standin.slash(CHANNEL_ID, alice, "practice", {"length": "3"})
        await standin.wait_for(lambda c: "secret code" in str(c.body) and "3 digits" in str(c.body), timeout=15)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err_b = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 0, err_b.decode()[-2000:]
    assert BOT_TOKEN not in err_b.decode()
    leakscan.bot_process(err_b.decode(), tokens=[BOT_TOKEN])
