"""Telegram adapter: PTB updates <-> neutral Inbound/Outbound (see docs/telegram.md)."""

from adapters.telegram.adapter import TelegramAdapter, TelegramStartError

__all__ = ["TelegramAdapter", "TelegramStartError"]
