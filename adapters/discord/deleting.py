"""Deleting a member's message (a secret typed in the open), and why it may stay: Discord lets a bot
delete another's message in a guild channel only with Manage Messages there, and never in a DM
(https://discord.com/developers/docs/resources/message#delete-message)."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger(__name__)


async def delete(message: discord.Message) -> str | None:
    """None when the message is gone; else why it stays, for the App (`Inbound.undeleted`): "rights"
    (refused: 403), or "failed"."""
    try:
        await message.delete()
    except discord.NotFound:  # deleted already (by its author or a moderator)
        pass
    except discord.Forbidden:
        log.info("no permission to delete a message in channel %s", message.channel.id)
        return "rights"
    except Exception as exc:
        if isinstance(exc, discord.HTTPException):
            log.warning("Discord refused deleting a message: HTTP %s code %s", exc.status, exc.code)
        else:
            log.warning("Discord call failed (deleting a message): %s", type(exc).__name__)
        return "failed"
    return None
