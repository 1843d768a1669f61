"""The stand-in's rules of who a group message is from and whether the bot gets it: posts on behalf of
a chat (anonymous admins, "send as channel", a linked channel's automatic forwards), privacy mode,
and a group upgraded to a supergroup. Functions of the `StandIn` (tests/telegram/standin.py), which
calls them; each models the Bot API as documented, cited where it is modelled.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from tests.telegram.standin_objects import BOT_ID, BOT_USERNAME

if TYPE_CHECKING:
    from tests.telegram.standin import StandIn
    from tests.telegram.standin_objects import Chat, User
    from tests.telegram.standin_state import State

# The service accounts Telegram puts in `from` of a message sent on behalf of a chat
# (https://core.telegram.org/bots/api#message: "For backward compatibility, if the message was sent on
# behalf of a chat, the field contains a fake sender user in non-channel chats"; the ids are those of
# https://core.telegram.org/api/peers, "GroupAnonymousBot", "Channel_Bot", "Service notifications").
GROUP_ANONYMOUS_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}
TELEGRAM = {"id": 777000, "is_bot": False, "first_name": "Telegram"}
UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"


def posted_as(standin: State, chat: Chat, user: User, sender: Chat, automatic: bool = False) -> dict[str, Any]:
    """The fields of a message `user` posts on behalf of `sender` in `chat` (Message.sender_chat):
    - the group itself: only its administrators may post anonymously ("Remain anonymous" right); the
      bot sees @GroupAnonymousBot and the group, and the admin's custom title as `author_signature`;
    - a channel: a member posting "as channel" (one of their own channels); the bot sees @Channel_Bot;
    - `automatic`: the linked channel's post, forwarded into its discussion group by Telegram
      (`is_automatic_forward`, from the service account 777000)."""
    if automatic:
        return {"from": dict(TELEGRAM), "sender_chat": sender.to_dict(), "is_automatic_forward": True}
    if sender.id == chat.id:
        assert user in standin.admins.get(chat.id, []), f"only an admin of {chat.id} can post as the group"
        return {"from": dict(GROUP_ANONYMOUS_BOT), "sender_chat": sender.to_dict()}
    assert sender.type == "channel", "a member can post only as one of their channels"
    return {"from": dict(CHANNEL_BOT), "sender_chat": sender.to_dict()}


def delivered(standin: State, chat: Chat, message: dict[str, Any]) -> bool:
    """Whether the bot gets this group message (https://core.telegram.org/bots/features#privacy-mode).

    All bots get all messages of private chats; an admin bot, or one with privacy mode off, every group
    message. In privacy mode only: commands explicitly meant for the bot (`/command@this_bot`); general
    commands (`/start`) if the bot was the last bot to send a message to the group; replies to its
    messages; and — as BotFather's /setprivacy puts it ("messages that either start with the '/'
    symbol or mention the bot by username") — mentions of its @username. What it does not get is kept
    in `unheard` (a test can say what the bot never saw)."""
    if chat.type == "private" or not standin.privacy or chat.id in standin.bot_admin:
        return True
    text = str(message.get("text") or "")
    command = re.match(r"^/[A-Za-z0-9_]+(?:@([A-Za-z0-9_]+))?", text)
    if command is not None:
        target = command.group(1)
        if target is not None:
            heard = target.lower() == BOT_USERNAME.lower()
        else:
            heard = standin.last_bot.get(chat.id, BOT_ID) == BOT_ID
    else:
        replied = (message.get("reply_to_message") or {}).get("from") or {}
        mentioned = f"@{BOT_USERNAME}".lower() in text.lower()
        heard = replied.get("id") == BOT_ID or mentioned
    if not heard:
        standin.unheard.append(message)
    return heard


def other_bot_posts(standin: StandIn, chat: Chat, bot: User) -> None:
    """Another bot sent the group's latest bot message: a bare /command then goes to that bot, not ours."""
    standin.last_bot[chat.id] = bot.id


def promote_bot(standin: StandIn, chat: Chat, by: User) -> None:
    """`by` makes the bot an administrator: it then gets every message, `getChatAdministrators` lists it,
    and a `my_chat_member` update says so (https://core.telegram.org/bots/api#update, my_chat_member:
    "The bot's chat member status was updated in a chat")."""
    standin.bot_admin.add(chat.id)
    standin._push({"my_chat_member": {
        "chat": chat.to_dict(), "from": by.to_dict(), "date": int(time.time()),
        "old_chat_member": {"status": "member", "user": _bot_user(standin)},
        "new_chat_member": _bot_admin(standin),
    }})


def bot_admins(standin: State, chat: Chat) -> list[dict[str, Any]]:
    """The bot in `getChatAdministrators` where it administers the group (the method lists admin bots)."""
    return [_bot_admin(standin)] if chat.id in standin.bot_admin else []


def _bot_user(standin: State) -> dict[str, Any]:
    return {k: standin.bot[k] for k in ("id", "is_bot", "first_name", "username")}


def _bot_admin(standin: State) -> dict[str, Any]:
    return {
        "status": "administrator", "user": _bot_user(standin), "can_be_edited": False,
        "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
        "can_manage_video_chats": False, "can_restrict_members": False,
        "can_promote_members": False, "can_change_info": False, "can_invite_users": False,
        "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
    }


def carry_over(standin: State, old: Chat, new: Chat) -> None:
    """An upgraded group keeps its members, its admins and the bot's rights in the supergroup; the old
    id answers every call with `migrate_to_chat_id` from now on."""
    standin.upgraded[old.id] = new.id
    standin.members[new.id] = dict(standin.members.get(old.id, {}))
    standin.admins[new.id] = list(standin.admins.get(old.id, []))
    if old.id in standin.bot_admin:
        standin.bot_admin.add(new.id)


def upgraded_refusal(standin: StandIn, params: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A call for a group that became a supergroup: 400 with the new id in `parameters`
    (https://core.telegram.org/bots/api#responseparameters, `migrate_to_chat_id`: "The group has been
    migrated to a supergroup with the specified identifier")."""
    new = standin.upgraded.get(params.get("chat_id"))  # type: ignore[arg-type]
    if new is None:
        return None
    return UPGRADED, {"migrate_to_chat_id": new}
