"""Settings from the environment and `.env` (see .env.example); command-line flags win."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

from bot.process import state


def _int(name: str, default: int | None) -> int | None:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    return default if not value else value not in ("0", "false", "no", "off")


def _ids(name: str) -> list[int] | None:
    value = os.environ.get(name, "").strip()
    return [int(x) for x in value.split(",") if x.strip()] if value else None


@dataclass(frozen=True)
class Settings:
    db_path: str = "data/bot.sqlite3"  # load(): DATABASE_PATH, else bot.sqlite3 in the state folder
    state_dir: str = "data"  # load(): STATE_DIR, else the platform's default (bot/process/state.py)
    database_url: str | None = None  # postgresql://… : PostgreSQL instead of the SQLite file
    sqlite_synchronous: str = "FULL"
    default_lang: str = "en"
    idle_timeout_hours: float = 24.0
    log_level: str = "INFO"
    rate_per_minute: float = 60.0
    rate_burst: int = 20
    max_games_per_chat: int = 20  # running games in one chat (0: no bound)
    max_games_per_user: int = 5  # running games one user started, plays or scores in one chat (0: no bound)
    list_lines: int = 10  # lines of a list reply (/board, /top, the club table) before "… and K more"
    telegram_token: str | None = None
    telegram_base_url: str | None = None
    telegram_webhook_url: str | None = None
    telegram_webhook_listen: str = "0.0.0.0"
    telegram_webhook_port: int = 8443
    telegram_webhook_secret: str | None = None
    discord_token: str | None = None
    discord_api_base: str | None = None
    discord_shard_ids: list[int] | None = None
    discord_shard_count: int | None = None
    discord_message_content: bool = True
    web_host: str = "127.0.0.1"  # the TV page (docs/tv.md): served only when WEB_PORT is set
    web_port: int | None = None
    web_public_url: str | None = None  # the address /tv's links start with (behind a proxy: its https:// one)
    web_proxies: tuple[str, ...] = ()  # trusted reverse proxies' addresses: their X-Forwarded-For names the client

    @classmethod
    def load(cls, env_file: str | Path = ".env") -> Settings:
        load_dotenv(env_file, override=False)
        env = os.environ.get
        folder = state.folder()
        return cls(
            db_path=env("DATABASE_PATH") or str(folder / "bot.sqlite3"),
            state_dir=str(folder),
            database_url=env("DATABASE_URL") or None,
            sqlite_synchronous=(env("SQLITE_SYNCHRONOUS") or cls.sqlite_synchronous).upper(),
            default_lang=env("DEFAULT_LANG") or cls.default_lang,
            idle_timeout_hours=float(env("IDLE_TIMEOUT_HOURS") or cls.idle_timeout_hours),
            log_level=(env("LOG_LEVEL") or cls.log_level).upper(),
            rate_per_minute=float(env("RATE_LIMIT_PER_MINUTE") or cls.rate_per_minute),
            rate_burst=_int("RATE_LIMIT_BURST", cls.rate_burst) or 0,
            max_games_per_chat=_int("MAX_GAMES_PER_CHAT", cls.max_games_per_chat) or 0,
            max_games_per_user=_int("MAX_GAMES_PER_USER", cls.max_games_per_user) or 0,
            list_lines=_int("LIST_MAX_LINES", cls.list_lines) or cls.list_lines,
            telegram_token=env("TELEGRAM_TOKEN") or None,
            telegram_base_url=env("TELEGRAM_BASE_URL") or None,
            telegram_webhook_url=env("TELEGRAM_WEBHOOK_URL") or None,
            telegram_webhook_listen=env("TELEGRAM_WEBHOOK_LISTEN") or cls.telegram_webhook_listen,
            telegram_webhook_port=_int("TELEGRAM_WEBHOOK_PORT", cls.telegram_webhook_port) or 8443,
            telegram_webhook_secret=env("TELEGRAM_WEBHOOK_SECRET") or None,
            discord_token=env("DISCORD_TOKEN") or None,
            discord_api_base=env("DISCORD_API_BASE") or None,
            discord_shard_ids=_ids("DISCORD_SHARD_IDS"),
            discord_shard_count=_int("DISCORD_SHARD_COUNT", None),
            discord_message_content=_flag("DISCORD_MESSAGE_CONTENT", True),
            web_host=env("WEB_HOST") or cls.web_host,
            web_port=_int("WEB_PORT", None),
            web_public_url=env("WEB_PUBLIC_URL") or None,
            web_proxies=tuple(a.strip() for a in (env("WEB_PROXIES") or "").split(",") if a.strip()),
        )
