"""Whether the bot receives a group's plain messages: Telegram's privacy mode, as the bot can know it.

In privacy mode (BotFather's default) a bot in a group gets only commands, replies to its messages and
service messages; an admin bot, or one whose privacy mode is off, gets every message
(https://core.telegram.org/bots/features#privacy-mode). The bot learns the first from `getMe`
(`can_read_all_group_messages`) and the second from `getChatAdministrators`, which lists admin bots
too (cached, adapters/telegram/admins.py). The App is told the fact (`Inbound.reads_all`) and words
its prompts for it; the adapter decides nothing else with it.
"""

from __future__ import annotations

from telegram import Message, MessageEntity

from adapters.telegram.admins import Admins


def addressed(message: Message, bot_id: int | None, bot_username: str | None) -> bool:
    """A message privacy mode lets through: a command, a reply to the bot, a mention of it."""
    text = message.text or ""
    if text.startswith("/"):
        return True
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.from_user.id == bot_id:
        return True
    if bot_username:
        mentions = message.parse_entities([MessageEntity.MENTION]).values()
        return any(m.lstrip("@").lower() == bot_username.lower() for m in mentions)
    return False


async def reads_all(admins: Admins | None, reads_everywhere: bool, chat_id: int, bot_id: int | None,
                    bot_username: str | None, message: Message | None) -> bool | None:
    """True where every plain message reaches the bot, False where only addressed ones do; None when
    it cannot tell (not started)."""
    if reads_everywhere:
        return True
    if message is not None and message.text is not None and not addressed(message, bot_id, bot_username):
        return True  # a plain message arrived: privacy mode does not hold here
    if admins is None or bot_id is None:
        return None
    return await admins.is_admin(chat_id, bot_id)
