"""Entry point: `python -m bot` reads settings, opens the store, builds the App and runs
the adapters that have tokens — or the console when none has."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.app import achievements, ratings_rebuild
from bot.app.app import App, is_postgres
from bot.games.registry import link_prefixes
from bot.process import ops
from bot.process.platforms import Adapter, Platform, start_all
from bot.process.runtime import tune_gc
from bot.process.settings import Settings
from bot.schedule import own_posts
from bot.storage.base import StoreOpenError
from bot.storage.store import RatingsMoved
from bot.texts.i18n import languages

if TYPE_CHECKING:
    from bot.web.server import TvServer

log = logging.getLogger("bot")
SWEEP_SECONDS = 60.0
WATCH_SECONDS = 5.0  # how often the bot checks that some platform is still running
RETRY_SECONDS = 1.0  # how often the bot looks for its own moves refused as busy (MoveRunner.retry_bot_moves)


class Sender(Protocol):
    """What delivers the App's own messages: every adapter, the console one included."""

    async def send(self, messages: Sequence[Any]) -> None: ...


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="chatgames", description="Chat game bot (Discord, Telegram, console).")
    p.add_argument("command", nargs="?", default="run", choices=["run", "sync-commands", "backup", "health", "ratings"],
                   help="run the bot (default); sync Discord slash commands; backup PATH: an online copy of "
                        "the database; health: exit 0 when the store answers and every adapter is connected; "
                        "ratings rebuild: replay the finished games into the skill ratings and their history")
    p.add_argument("path", nargs="?", help="with backup: where to write the copy; with ratings: rebuild")
    p.add_argument("--db", help="SQLite database file or postgresql:// URL (default: DATABASE_URL, else "
                                "DATABASE_PATH, else bot.sqlite3 in the state folder: STATE_DIR or the "
                                "platform's default, docs/deploy.md)")
    p.add_argument("--seed", type=int, help="seed for codes and lots (deterministic console sessions)")
    p.add_argument("--lang", help=f"console players' language ({', '.join(languages())})")
    p.add_argument("--console", action="store_true", help="console play even when tokens are configured")
    p.add_argument("--admin", action="append", default=[], metavar="NAME",
                   help="a console player who is the table's admin (/timezone, /posts); repeatable")
    p.add_argument("--guild", type=int, help="with sync-commands: sync to this guild only")
    p.add_argument("--starting-ok", action="store_true",
                   help="with health: no status file yet is healthy (a container's check: the bot is still starting)")
    return p.parse_args(argv)


def setup_logging(level: str, console: bool) -> None:
    # Console play owns stdout; logs go to stderr, quietly unless asked.
    logging.basicConfig(level=logging.WARNING if console and level == "INFO" else level,
                        stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    quiet_libraries()


def quiet_libraries() -> None:
    """httpx logs request URLs (they hold the Telegram token); aiosqlite and discord.py at DEBUG log
    SQL parameters and request bodies (they hold secrets and private texts). The Telegram adapter
    quiets python-telegram-bot's loggers itself (adapters/telegram/logsafe.py)."""
    for noisy in ("httpx", "httpcore", "aiosqlite"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLogger().level))


async def run(args: argparse.Namespace, settings: Settings) -> int:
    db = args.db or settings.database_url or settings.db_path
    status_db = settings.db_path if is_postgres(db) else db  # where the health status file goes
    folder = Path(status_db).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreOpenError(f"cannot create the directory {folder} for the database: {exc.strerror or exc}") from None
    if args.command == "run":
        with contextlib.suppress(OSError):
            ops.clear_status(status_db)  # an earlier process's status; health says "starting" until ours
    adapters_wanted = not args.console and bool(settings.telegram_token or settings.discord_token)
    # a database it cannot use raises StoreOpenError: main() prints its one line
    app = await App.open(db, seed=args.seed, default_lang=args.lang or settings.default_lang,
                         idle_timeout=settings.idle_timeout_hours * 3600, synchronous=settings.sqlite_synchronous,
                         # flood control guards chats; console play is local, and scripts type fast
                         rate=settings.rate_per_minute / 60 if adapters_wanted else 0.0, burst=settings.rate_burst,
                         max_games_chat=settings.max_games_per_chat, max_games_user=settings.max_games_per_user,
                         list_lines=settings.list_lines)
    app.solver_cache = str(Path(settings.state_dir) / "solver-cache")  # the state folder's, never beside the code
    tune_gc()
    tv = None
    try:
        if args.command == "sync-commands":
            return await sync_commands(app, settings, args.guild)
        tv = await start_tv(app, settings)
        try:
            adapters = [] if args.console else platform_adapters(app, settings)
        except ValueError as exc:  # a setting the platform would refuse: one line that says which
            print(exc, file=sys.stderr)
            return 2
        if not adapters:
            return await run_console(app, args, Path(settings.state_dir) / "boards")
        return await run_platforms(app, adapters, status_db)
    finally:
        await stop_tv(tv)
        await app.close()
        if TERMINATED.is_set():
            # Stopped by SIGTERM in the console: the App is closed, every move on disk. The console's reader
            # thread still waits in stdin's readline, which nothing interrupts, and asyncio.run would wait
            # for it forever (as would the interpreter's exit): the process ends here.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(0)


def platform_adapters(app: App, settings: Settings) -> list[Adapter]:
    adapters: list[Adapter] = []
    from adapters import logged as adapters_logged
    from adapters.editmap import JsonEditMap
    from bot.yourdata import logged

    adapters_logged.use(logged.person)  # the adapters' warnings name a person as the App's lines do

    def edits(platform: str) -> JsonEditMap:  # which message shows which standings, kept next to the database
        return JsonEditMap(Path(settings.db_path).with_suffix(f".{platform}-edits.json"))

    if settings.telegram_token:
        from adapters.telegram import TelegramAdapter

        adapters.append(TelegramAdapter(
            settings.telegram_token, app.handle, app.command_menu(), base_url=settings.telegram_base_url,
            webhook_url=settings.telegram_webhook_url, webhook_listen=settings.telegram_webhook_listen,
            webhook_port=settings.telegram_webhook_port, webhook_secret=settings.telegram_webhook_secret,
            edit_map=edits("telegram"), link_prefixes=link_prefixes()))
    if settings.discord_token:
        from adapters.discord import DiscordAdapter

        adapters.append(DiscordAdapter(
            settings.discord_token, app.handle, app.command_menu(), api_base=settings.discord_api_base,
            shard_ids=settings.discord_shard_ids, shard_count=settings.discord_shard_count,
            message_content=settings.discord_message_content, edit_map=edits("discord")))
    return adapters


TERMINATED = threading.Event()  # SIGTERM ended console play (run_console, run)


def _terminate(reader: asyncio.Task[None]) -> None:
    TERMINATED.set()
    reader.cancel()


async def start_tv(app: App, settings: Settings) -> TvServer | None:
    """The TV pages (bot/web/server.py `start`) where WEB_PORT or WEB_PUBLIC_URL asks for them: aiohttp is
    imported only then, so that the console and a bot without pages start without it (start-up time)."""
    if settings.web_port is None and not settings.web_public_url:
        return None
    from bot.web import server
    return await server.start(app, settings.web_host, settings.web_port, settings.web_public_url,
                              settings.web_proxies)


async def stop_tv(tv: TvServer | None) -> None:
    if tv is not None:
        from bot.web import server
        await server.stop(tv)


async def run_console(app: App, args: argparse.Namespace, files: Path) -> int:
    """`files`: where the console writes pictures and sent files (/mydata), in the state folder."""
    from adapters.console import ConsoleAdapter

    console = ConsoleAdapter(app.handle, locale=args.lang, admins=args.admin, image_dir=files)
    banner = ("# Console play. Type `alice: /help` (alice in #table), `alice> 1234` (privately), "
              "`alice clicks b1`. Ctrl-D ends.") if sys.stdin.isatty() else None
    await resume(app, [console])
    sweeper = asyncio.create_task(sweep_forever(app, [console]))
    retrier = asyncio.create_task(retry_forever(app, [console]))
    poster = asyncio.create_task(post_forever(app, [console]))
    reader = asyncio.create_task(console.run(banner=banner))
    with contextlib.suppress(NotImplementedError):  # SIGTERM (`docker stop`) ends the session as Ctrl-D does
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, _terminate, reader)
    try:
        await reader
    except asyncio.CancelledError:
        if not TERMINATED.is_set():
            raise
    finally:
        for task in (sweeper, retrier, poster):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return 0


async def run_platforms(app: App, adapters: list[Adapter], db: str) -> int:
    """Serve every platform until SIGINT/SIGTERM, each on its own (bot/process/platforms.py): one that cannot
    start or stops for good leaves the others running; exit 1 only when none is left."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    changed = asyncio.Event()
    platforms = [Platform(adapter, changed=changed) for adapter in adapters]
    heart = asyncio.create_task(heartbeat(db, platforms, changed))
    starting = asyncio.create_task(start_all(platforms))
    await asyncio.wait({starting, asyncio.create_task(stop.wait())}, return_when=asyncio.FIRST_COMPLETED)
    tasks = [heart]
    if starting.done() and any(p.running for p in platforms):
        log.info("running %s", ", ".join(p.name for p in platforms if p.running))
        await resume(app, adapters)
        tasks += [asyncio.create_task(sweep_forever(app, adapters)), asyncio.create_task(retry_forever(app, adapters)),
                  asyncio.create_task(post_forever(app, adapters))]
        while not stop.is_set() and any(p.running for p in platforms):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), WATCH_SECONDS)
    starting.cancel()
    for task in tasks:
        task.cancel()
    with contextlib.suppress(OSError):
        ops.status_path(db).unlink()
    for platform in platforms:
        await platform.stop()
    if stop.is_set():
        return 0
    log.error("no platform is left running: %s", ", ".join(f"{p.name} ({p.failed or p.adapter_failure()})"
                                                          for p in platforms))
    return 1


async def heartbeat(db: str, platforms: Sequence[Platform], changed: asyncio.Event) -> None:
    """Tell `python -m bot health` each platform's state, every few seconds and when one changes."""
    while True:
        changed.clear()
        try:
            ops.write_status(db, {p.name: p.state() for p in platforms})
        except OSError as exc:
            log.warning("cannot write the health status: %s", exc)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), ops.HEARTBEAT)


async def sweep_forever(app: App, adapters: Sequence[Sender]) -> None:
    """Time out abandoned games and tell their chats, once a minute."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        await produce(adapters, app.runner.sweep, "timeout sweep failed")


async def retry_forever(app: App, adapters: Sequence[Sender]) -> None:
    """The bot's own moves refused as busy are tried again when due (MoveRunner.retry_bot_moves)."""
    while True:
        await asyncio.sleep(RETRY_SECONDS)
        if app.runner.owed:
            await produce(adapters, app.runner.retry_bot_moves, "retrying the bot's busy moves failed")


async def post_forever(app: App, adapters: Sequence[Sender]) -> None:
    """The bot's own posts when due (bot/schedule/scheduler.py, bot/schedule/own_posts.py), every few seconds."""
    while True:
        await asyncio.sleep(own_posts.POST_SECONDS)
        await produce(adapters, app.scheduler.tick, "the bot's own posts failed")


async def resume(app: App, adapters: Sequence[Sender]) -> None:
    """At start: the bot makes the moves it owed when the process stopped (MoveRunner.resume)."""
    await produce(adapters, app.runner.resume, "resuming the bot's pending moves failed")


async def produce(adapters: Sequence[Sender], make: Callable[[], Awaitable[Sequence[Any]]], failure: str) -> None:
    """Deliver what the App made on its own; where making it fails, log `failure` and go on."""
    try:
        messages = await make()
    except Exception:
        log.exception(failure)
        return
    await deliver(adapters, messages)


async def deliver(adapters: Sequence[Sender], messages: Sequence[Any]) -> None:
    """Messages the App produced on its own (no inbound): each goes out through its platform's adapter."""
    for adapter in adapters:
        mine = [m for m in messages if m.to.platform == getattr(adapter, "platform", "console")]
        if mine:
            with contextlib.suppress(Exception):
                await adapter.send(mine)


async def sync_commands(app: App, settings: Settings, guild: int | None) -> int:
    if not settings.discord_token:
        print("DISCORD_TOKEN is not set.", file=sys.stderr)
        return 2
    from adapters.discord import DiscordAdapter

    adapter = DiscordAdapter(settings.discord_token, app.handle, app.command_menu(),
                             api_base=settings.discord_api_base)
    try:
        await adapter.sync_commands(guild)  # REST only: no gateway connection
        invite = adapter.invite_url()
    finally:
        await adapter.stop()
    print("Slash commands synced" + (f" to guild {guild}." if guild else " globally."))
    if invite:
        print(f"Invite the bot with the permissions it needs: {invite}")
    return 0


async def rebuild_ratings(db: str) -> int:
    """`python -m bot ratings rebuild`: bot/app/ratings_rebuild.py on the database, one line of what it did."""
    if not is_postgres(db) and not Path(db).is_file():
        print(f"no database at {db}", file=sys.stderr)
        return 1
    app = await App.open(db)
    try:
        done = await ratings_rebuild.rebuild(app)
        awards = await achievements.rebuild(app)  # replayed from the same stored games
    except RatingsMoved as exc:
        print(f"ratings rebuild failed: {exc}", file=sys.stderr)
        return 1
    finally:
        await app.close()
    print(f"ratings rebuilt from {done.games} finished games ({done.rated} rated): {done.ratings} ratings, "
          f"{done.steps} history rows")
    print(f"achievements rebuilt: {awards}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    settings = Settings.load()
    db = args.db or settings.database_url or settings.db_path
    if args.command == "backup":
        if not args.path:
            print("usage: python -m bot backup PATH", file=sys.stderr)
            return 2
        postgres = is_postgres(db)  # pg_dump's custom format; restore with pg_restore (docs/deploy.md)
        try:
            size = (ops.backup_postgres if postgres else ops.backup)(db, args.path)
        except ops.BackupError as exc:
            print(f"backup failed: {exc}", file=sys.stderr)
            return 1
        print(f"backup of {ops.redact(db) if postgres else db} written to {args.path} ({size} bytes)")
        return 0
    if args.command == "health":
        healthy, line = ops.health(db, status_db=settings.db_path if is_postgres(db) else None,
                                   starting_ok=args.starting_ok)
        print(line)
        return 0 if healthy else 1
    if args.command == "ratings":
        if args.path != "rebuild":
            print("usage: python -m bot ratings rebuild", file=sys.stderr)
            return 2
        try:
            return asyncio.run(rebuild_ratings(db))
        except StoreOpenError as exc:
            print(exc, file=sys.stderr)
            return 2
    setup_logging(settings.log_level, console=args.console or not (settings.telegram_token or settings.discord_token))
    try:
        return asyncio.run(run(args, settings))
    except StoreOpenError as exc:  # one line that says what and where; a traceback would only hide it
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
