"""One bot process, one event loop, both platforms: TELEGRAM_TOKEN and DISCORD_TOKEN set at once,
each against its local stand-in; a game on each, and health reports both connected."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests import leakscan
from tests.discord.model import BOT_TOKEN, CHANNEL_ID
from tests.discord.standin import StandIn as DiscordStandIn
from tests.telegram.standin import StandIn as TelegramStandIn
from tests.telegram.standin_objects import Chat, User

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

        await _practice_on_both(tg, dc)
    finally:
        err = await _stop(proc, tg, dc)
    assert proc.returncode == 0, err.decode()[-2000:]
    leakscan.bot_process(err.decode(), tokens=[tg.token, tg.token.split(":")[1], BOT_TOKEN])


async def _serve(env: dict[str, str], tmp_path: Path) -> tuple[asyncio.subprocess.Process, str]:
    db = str(tmp_path / "bot.sqlite3")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--db", db, cwd=tmp_path, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    return proc, db


async def _health_until(proc: asyncio.subprocess.Process, env: dict[str, str], tmp_path: Path, db: str,
                        done: str, *, retrying: bool = False) -> tuple[int, str]:
    """`python -m bot health` until its line says `done` about the platform (or the bot ended)."""
    code, line = 1, ""
    for _ in range(200):
        if proc.returncode is not None:
            raise AssertionError(f"the bot exited with {proc.returncode}")
        health = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "health", "--db", db,
                                                      cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE)
        out, _ = await health.communicate()
        code, line = health.returncode or 0, out.decode().strip()
        if done in line and (retrying or "DISCONNECTED" not in line):
            break
        await asyncio.sleep(0.1)
    return code, line


async def _practice_on_both(tg: TelegramStandIn, dc: DiscordStandIn) -> None:
    """A practice game started on each platform is answered there."""
    group = Chat(id=-1002, type="group", title="Club")
    tg.user_message(group, User(id=7, first_name="Tina"), "/practice 4")
    await tg.wait_sent(group.id, "secret code", timeout=15)
    await dc.slash(CHANNEL_ID, dc.add_user("Dora"), "practice", {"length": "5"})
    await dc.wait_for(lambda c: "5 digits" in str(c.body), timeout=15)


async def _stop(proc: asyncio.subprocess.Process, tg: TelegramStandIn, dc: DiscordStandIn) -> bytes:
    """SIGTERM to the bot, then the stand-ins stopped; the bot's stderr."""
    proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    await dc.stop()
    await tg.stop()
    return err


def _env(tg: TelegramStandIn, dc: DiscordStandIn, discord_token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url,
               DISCORD_TOKEN=discord_token, DISCORD_API_BASE=dc.api_base)
    return leakscan.process_env(env)


async def test_a_refused_intent_runs_discord_without_message_content_and_telegram_as_ever(tmp_path: Path) -> None:
    """Issue 22, item 8: the Message Content intent not enabled in the portal (Discord closes the
    gateway with 4014) no longer ends the process: Discord runs without it, health says so."""
    from tests.discord.model import MESSAGE_CONTENT

    tg, dc = TelegramStandIn(), DiscordStandIn()
    await tg.start()
    await dc.start()
    dc.refuse_intents(MESSAGE_CONTENT)
    env = _env(tg, dc, BOT_TOKEN)
    proc, db = await _serve(env, tmp_path)
    try:
        code, line = await _health_until(proc, env, tmp_path, db, "telegram connected")
        assert code == 0, line
        assert line == ("store ok; discord connected (without message content: the Message Content intent is "
                        "not enabled); telegram connected")
        await _practice_on_both(tg, dc)
    finally:
        err = await _stop(proc, tg, dc)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert err.decode().count("4014") == 1, err.decode()[-3000:]  # one clear line
    leakscan.bot_process(err.decode(), tokens=[tg.token, tg.token.split(":")[1], BOT_TOKEN])


async def test_a_platform_that_cannot_start_stops_alone(tmp_path: Path) -> None:
    """A wrong Discord token (a fatal error): Discord stops, Telegram players keep the bot, health
    shows each platform's state (and fails, so someone looks), and the process does not exit."""
    tg, dc = TelegramStandIn(), DiscordStandIn()
    await tg.start()
    await dc.start()
    env = _env(tg, dc, "a-wrong-discord-token")
    proc, db = await _serve(env, tmp_path)
    try:
        code, line = await _health_until(proc, env, tmp_path, db, "telegram connected")
        assert code == 1, line
        assert line == ("store ok; discord FAILED (LoginFailure; stopped, the other platforms keep running); "
                        "telegram connected")
        group = Chat(id=-1002, type="group", title="Club")
        tg.user_message(group, User(id=7, first_name="Tina"), "/practice 4")
        await tg.wait_sent(group.id, "secret code", timeout=15)
        assert proc.returncode is None  # still serving
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
        await dc.stop()
        await tg.stop()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert "discord stopped: it could not start (LoginFailure)" in err.decode()
    leakscan.bot_process(err.decode(), tokens=[tg.token, tg.token.split(":")[1], "a-wrong-discord-token"])


async def test_telegram_unreachable_at_start_is_retried_while_discord_serves(tmp_path: Path) -> None:
    """A network error is worth retrying: Telegram keeps trying in the background (before, the
    process exited and only systemd tried again), Discord serves meanwhile."""
    dc = DiscordStandIn()
    await dc.start()
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_TOKEN="123:unreachable", TELEGRAM_BASE_URL="http://127.0.0.1:9/bot",
               DISCORD_TOKEN=BOT_TOKEN, DISCORD_API_BASE=dc.api_base)
    env = leakscan.process_env(env)
    proc, db = await _serve(env, tmp_path)
    try:
        code, line = await _health_until(proc, env, tmp_path, db, "discord connected; telegram DISCONNECTED (retrying",
                                         retrying=True)
        assert code == 1
        assert line == "store ok; discord connected; telegram DISCONNECTED (retrying after TelegramStartError)"
        await dc.slash(CHANNEL_ID, dc.add_user("Dora"), "practice", {"length": "5"})
        await dc.wait_for(lambda c: "5 digits" in str(c.body), timeout=15)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
        await dc.stop()
    assert proc.returncode == 0, err.decode()[-2000:]
    assert "telegram could not start (TelegramStartError); trying again" in err.decode()
    leakscan.bot_process(err.decode(), tokens=["123:unreachable", "unreachable", BOT_TOKEN])
