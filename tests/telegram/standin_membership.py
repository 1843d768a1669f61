"""The stand-in's model of the bot removed from a group, muted there, or General hidden (issue 35).

As the Bot API documents and answers it:

- `my_chat_member` (https://core.telegram.org/bots/api#update): "The bot's chat member status was updated
  in a chat" — sent when an admin removes the bot (new status "kicked", a `ChatMemberBanned` with
  `until_date` 0: for ever) or it is made to leave ("left", `ChatMemberLeft`), and when it is restricted
  (`ChatMemberRestricted`, https://core.telegram.org/bots/api#chatmemberrestricted, with `is_member` and
  the `can_send_*` rights; muted: `can_send_messages` false).
- Once removed, every call to the chat is refused with 403: "Forbidden: bot was kicked from the group
  chat" / "… from the supergroup chat" (kicked), "Forbidden: bot is not a member of the group chat" /
  "… supergroup chat" (left); the group's messages no longer reach the bot.
- Muted, a send is refused with 400 "Bad Request: not enough rights to send text messages to the chat"
  (python-telegram-bot#3956, TelegramBotAPI/errors#5); a photo or a document alike ("… to send photos",
  "… to send documents"). A test may mute the bot without telling it (`tell=False`): the refusal is
  then the first the bot hears of it.
- hideGeneralForumTopic (https://core.telegram.org/bots/api#hidegeneralforumtopic): "The topic will be
  automatically closed if it was open" — a `general_forum_topic_hidden` service message in General, and
  General refuses the bot's sends as a closed topic does (tests/telegram/forum.py); unhiding sends
  `general_forum_topic_unhidden` (General stays closed until reopened).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.telegram.standin import StandIn
    from tests.telegram.standin_objects import Chat, User
    from tests.telegram.standin_state import State

# the Bot API methods that post into a chat, and what a muted bot is told for each
MUTED = {"sendMessage": "text messages", "sendPhoto": "photos", "sendDocument": "documents"}


def _bot_user(standin: StandIn) -> dict[str, Any]:
    return {k: standin.bot[k] for k in ("id", "is_bot", "first_name", "username")}


def _tell(standin: StandIn, chat: Chat, by: User, new: dict[str, Any]) -> None:
    standin._push({"my_chat_member": {
        "chat": chat.to_dict(), "from": by.to_dict(), "date": int(time.time()),
        "old_chat_member": {"status": "member", "user": _bot_user(standin)}, "new_chat_member": new,
    }})


def remove_bot(standin: StandIn, chat: Chat, by: User, status: str = "kicked") -> None:
    """`by` removes the bot from `chat` ("kicked": banned; "left"): told by `my_chat_member`."""
    assert status in ("kicked", "left")
    standin.removed[chat.id] = status
    new: dict[str, Any] = {"status": status, "user": _bot_user(standin)}
    if status == "kicked":
        new["until_date"] = 0
    _tell(standin, chat, by, new)


def add_bot(standin: StandIn, chat: Chat, by: User) -> None:
    """`by` adds the bot to `chat` again (or gives its rights back): a plain member once more."""
    standin.removed.pop(chat.id, None)
    standin.muted.discard(chat.id)
    standin._register(chat)
    _tell(standin, chat, by, {"status": "member", "user": _bot_user(standin)})


def mute_bot(standin: StandIn, chat: Chat, by: User, tell: bool = True) -> None:
    """`by` takes the bot's right to send messages in `chat`."""
    standin.muted.add(chat.id)
    if tell:
        rights = {f"can_{r}": False for r in (
            "send_messages", "send_audios", "send_documents", "send_photos", "send_videos",
            "send_video_notes", "send_voice_notes", "send_polls", "send_other_messages",
            "add_web_page_previews", "change_info", "invite_users", "pin_messages", "manage_topics",
            "edit_tag", "react_to_messages")}
        _tell(standin, chat, by, {"status": "restricted", "user": _bot_user(standin), "is_member": True,
                                  "until_date": 0, **rights})


def hide_general(standin: StandIn, chat: Chat, by: User) -> None:
    """An admin hides General: it is closed with it, and a `general_forum_topic_hidden` message says so."""
    assert chat.is_forum
    standin._register(chat)
    standin.general_closed.add(chat.id)
    message_id = standin._next_message_id(chat.id)
    message = {"message_id": message_id, "date": int(time.time()), "chat": chat.to_dict(),
               "from": by.to_dict(), "general_forum_topic_hidden": {}}
    standin.messages[(chat.id, message_id)] = message
    standin._push({"message": message})


def refusal(standin: StandIn, method: str, params: dict[str, Any]) -> tuple[int, str] | None:
    """How the Bot API refuses this call, if the bot was removed from its chat or muted there."""
    if method == "getUpdates":
        return None
    try:
        chat_id = int(params.get("chat_id"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    chat = standin.chats.get(chat_id)
    kind = "supergroup" if chat is not None and chat.type == "supergroup" else "group"
    status = standin.removed.get(chat_id)
    if status == "kicked":
        return 403, f"Forbidden: bot was kicked from the {kind} chat"
    if status == "left":
        return 403, f"Forbidden: bot is not a member of the {kind} chat"
    if chat_id in standin.muted and method in MUTED:
        return 400, f"Bad Request: not enough rights to send {MUTED[method]} to the chat"
    return None


def hears(standin: State, chat: Chat) -> bool:
    """Whether the bot still gets this group's messages (not once it was removed)."""
    return chat.id not in standin.removed
