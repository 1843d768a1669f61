"""One busy Telegram group or Discord channel (bench/busy_group.py), with the adapter as it was or paced.

Three players practise 1A2B and guess at `rate` a minute; `before` is the adapter without its Pacer and
Outbox, `after` with them (the module docstring of bench/busy_group.py).
"""

from __future__ import annotations

import asyncio
import functools
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from adapters.discord import DiscordAdapter
from adapters.discord.pacing import Pacing as DiscordPacing
from adapters.telegram import TelegramAdapter
from adapters.telegram.outbox import Pacing
from bench.busy_run import Run, collect, guess
from bot.app.app import App
from tests.discord import model as discord_model
from tests.discord import standin as discord_standin
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import SENDING, Limits
from tests.telegram.standin_objects import Chat, User

GROUP = Chat(id=-100900, type="group", title="Busy group")
PLAYERS = [User(id=7100 + i, first_name=name, language_code="en")
           for i, name in enumerate(("Ann", "Ben", "Cem"))]


async def secret_of(app: App, player: User) -> str:
    rows = await app.store.seated_games("telegram", str(player.id), str(GROUP.id))
    return str(rows[-1].state["secret"])


def picked_telegram(call: Any, p: User) -> bool:
    """The stand-in's call that answers `p`'s /practice."""
    return bool(call.ok) and f"{p.first_name}, I have picked" in call.text


async def play(mode: str, rate: float, seconds: float, scale: float, drain: float, seed: int) -> Run:
    run = Run(mode, rate)
    standin = StandIn(limits=Limits(time_scale=scale))
    await standin.start()
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "busy.sqlite"), seed=seed)
    if mode == "before":
        limiter = AIORateLimiter(overall_time_period=scale, group_time_period=60 * scale, max_retries=5)
        adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(),
                                  base_url=standin.base_url, rate_limiter=limiter)
    else:
        adapter = TelegramAdapter(standin.token, app.handle, app.command_menu(),
                                  base_url=standin.base_url, pacing=Pacing(time_scale=scale))
    await adapter.start()
    rng = random.Random(seed)
    try:
        for player in PLAYERS:
            standin.user_message(GROUP, player, "/practice")
        for player in PLAYERS:
            await standin.wait_for(functools.partial(picked_telegram, p=player),
                                   timeout=120 * max(scale, 0.1))
        secrets = {p.id: await secret_of(app, p) for p in PLAYERS}
        # Let the start-up messages' minute pass, so every run begins from the same quiet group.
        await asyncio.sleep(60 * scale)
        mark = standin.mark()
        start = time.monotonic()

        async def send(index: int, code: str) -> float:
            standin.user_message(GROUP, PLAYERS[index], code)
            return time.monotonic()

        await guess(run, rng, PLAYERS, secrets, send, start + seconds * scale, 60.0 / rate * scale)
        await collect(run, standin, lambda c: c.text if c.ok and c.method in SENDING and c.chat_id == GROUP.id
                      else None, mark, start, drain, scale)
        group = [c for c in standin.calls[mark:] if c.method in SENDING and c.chat_id == GROUP.id]
        run.sends = sum(1 for c in group if c.ok)
        run.refused = sum(1 for c in group if c.status == 429)
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return run


@dataclass
class Player:
    id: int
    first_name: str


async def play_discord(mode: str, rate: float, seconds: float, scale: float, drain: float,
                       seed: int) -> Run:
    """One run in one Discord channel (module docstring, `--discord`)."""
    run = Run(mode, rate)
    standin = discord_standin.StandIn()
    standin.rate_scale = scale
    await standin.start()
    channel = discord_model.CHANNEL_ID
    tmp = tempfile.TemporaryDirectory()
    app = await App.open(db_path=str(Path(tmp.name) / "busy.sqlite"), seed=seed)
    adapter = DiscordAdapter(discord_model.BOT_TOKEN, app.handle, app.command_menu(),
                             api_base=standin.api_base, ready_timeout=30.0, guild_ready_timeout=0.05,
                             pacing=DiscordPacing(time_scale=scale), paced=mode != "before")
    users = [standin.add_user(p.first_name) for p in PLAYERS]
    players = [Player(u.id, u.name) for u in users]
    rng = random.Random(seed)

    def ok(call: discord_model.Call) -> bool:
        return call.status < 300 and call.channel_id == channel and call.method == "POST"

    def picked_discord(call: discord_model.Call, u: Any) -> bool:
        return ok(call) and f"{u.name}, I have picked" in call.content

    try:
        await adapter.start()
        for user in users:
            await standin.say(channel, user, "!practice")
        for user in users:
            await standin.wait_for(functools.partial(picked_discord, u=user),
                                   timeout=60)
        rows = {u.id: await app.store.seated_games("discord", str(u.id), str(channel)) for u in users}
        secrets = {uid: str(r[-1].state["secret"]) for uid, r in rows.items()}
        await asyncio.sleep(5 * scale)  # the start-up posts' window passes: every run starts quiet
        mark = len(standin.calls)
        start = time.monotonic()

        async def say(index: int, code: str) -> float:
            sent = time.monotonic()
            await standin.say(channel, users[index], code)
            return sent

        await guess(run, rng, players, secrets, say, start + seconds * scale, 60.0 / rate * scale)
        await collect(run, standin, lambda c: c.content if ok(c) else None, mark, start, drain, scale)
        posts = [c for c in standin.calls[mark:] if c.channel_id == channel and c.method in ("POST", "PATCH")]
        run.sends = sum(1 for c in posts if c.status < 300)
        run.refused = sum(1 for c in standin.calls[mark:] if c.status == 429)
    finally:
        await adapter.stop()
        await app.close()
        await standin.stop()
        tmp.cleanup()
    return run
