"""Discord adapter: discord.py client ⇄ neutral Inbound/Response (see docs/discord.md)."""

from .adapter import DiscordAdapter

__all__ = ["DiscordAdapter"]
