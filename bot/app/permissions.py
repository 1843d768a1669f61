"""Where the bot may not post: a game asked for there is refused, to the asker alone, naming the
permission it lacks — a game the group could not follow (its turns, results and timeouts are posts)
would otherwise start in silence, and every guess typed there would go unanswered."""

from __future__ import annotations

from core.errors import GameError
from core.messages import Chat, Inbound, Text

# the permissions an adapter may report missing (Inbound.cannot_post), by their names in the catalogs
PERMISSIONS = {
    "view_channel": "permission.view_channel",
    "send_messages": "permission.send_messages",
    "send_messages_in_threads": "permission.send_messages_in_threads",
}


def check_can_post(inbound: Inbound, chat: Chat) -> None:
    """Raise `permission.missing` for a game in the inbound's own chat where the platform says the
    bot cannot post (the first such permission named; an unknown one by its platform name)."""
    if chat.private or chat != inbound.chat or not inbound.cannot_post:
        return
    name = inbound.cannot_post[0]
    if name == "thread_member":  # a private thread the bot is not in: no permission to grant, it must be added
        raise GameError("permission.private_thread")
    key = PERMISSIONS.get(name)
    raise GameError("permission.missing", permission=Text(key) if key else name)
