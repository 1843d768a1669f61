"""The bot's messages at the stand-in Bot API: sends (text, photo, document), edits, deletes and answers
to button presses, as Telegram takes them and refuses them (tests/telegram/botapi_rules.py)."""

from __future__ import annotations

import time
from typing import Any

from tests.telegram import botapi_rules as rules
from tests.telegram import forum
from tests.telegram.botapi_rules import Refused
from tests.telegram.standin_objects import BOT_ID, Chat
from tests.telegram.standin_state import State

DELETE_WINDOW = 48 * 3600  # seconds a message can still be deleted (https://core.telegram.org/bots/api#deletemessage)


class Messages(State):
    """The messages the bot sends, edits and deletes, and its answers to callback queries."""

    # -- tg-ops: the bot's rights ----------------------------------------------------------------------
    # https://core.telegram.org/bots/api#deletemessage — "A message can only be deleted if it was sent
    # less than 48 hours ago"; "Bots can delete outgoing messages in private chats, groups, and
    # supergroups"; "Bots can delete incoming messages in private chats"; "If the bot is an
    # administrator of a group, it can delete any message there"; "If the bot has can_delete_messages
    # permission in a supergroup or a channel, it can delete any message there". Anything else is
    # refused with 400 "Bad Request: message can't be deleted" (the same text for a message too old).
    # A bot added to a group is a plain member until an admin promotes it: by default it deletes only
    # its own messages there.

    def age(self, chat: Chat, message_id: int, seconds: float) -> None:
        """The message was sent `seconds` earlier than it was (for the 48-hour window)."""
        self.messages[(chat.id, message_id)]["date"] -= int(seconds)

    def _may_delete(self, chat_id: int, message: dict[str, Any]) -> bool:
        if time.time() - message["date"] >= DELETE_WINDOW:
            return False
        chat = self.chats.get(chat_id)
        if chat is None or chat.type == "private" or message.get("from", {}).get("id") == BOT_ID:
            return True
        if chat_id not in self.bot_rights and chat_id not in self.bot_admin:
            return False
        # a supergroup needs can_delete_messages (standin_identity's admin bot has it)
        return chat.type == "group" or self.bot_rights.get(chat_id, True)

    def _chat_dict(self, chat_id: int) -> dict[str, Any]:
        chat = self.chats.get(chat_id)
        if chat is None:
            chat = Chat(id=chat_id, type="private" if chat_id > 0 else "group")
        return chat.to_dict()

    def _new_bot_message(self, params: dict[str, Any], **content: Any) -> dict[str, Any]:
        chat_id = params["chat_id"]
        if not isinstance(chat_id, int):
            raise Refused(400, "Bad Request: chat not found")
        if chat_id in self.blocked:
            raise Refused(403, "Forbidden: bot can't initiate conversation with a user")
        try:
            topic = forum.thread_fields(self, chat_id, params)  # into a forum topic, if it may
        except forum.ApiRefusal as exc:
            raise Refused(exc.status, exc.description) from None
        message = {
            "message_id": self._next_message_id(chat_id), "date": int(time.time()),
            "chat": self._chat_dict(chat_id), "from": {
                k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")},
            **content, **topic,
        }
        if _keyboard(params.get("reply_markup")):
            message["reply_markup"] = params["reply_markup"]
        self.messages[(chat_id, message["message_id"])] = message
        self.last_bot[chat_id] = BOT_ID
        return message

    async def _api_sendMessage(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("text"), params.get("parse_mode"))
        rules.check_entities(params.get("text"), params.get("entities"), params.get("parse_mode"))
        rules.check_markup(params.get("reply_markup"))
        extra = {"entities": params["entities"]} if params.get("entities") else {}
        return self._new_bot_message(params, text=params["text"], **extra)

    async def _api_sendPhoto(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("caption"), params.get("parse_mode"), caption=True)
        rules.check_markup(params.get("reply_markup"))
        photo = [{"file_id": "photo1", "file_unique_id": "u1", "width": 1, "height": 1}]
        extra = {"caption": params["caption"]} if params.get("caption") else {}
        return self._new_bot_message(params, photo=photo, **extra)

    async def _api_sendDocument(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("caption"), params.get("parse_mode"), caption=True)
        rules.check_markup(params.get("reply_markup"))
        sent = params.get("document") or {}
        document = {"file_id": "doc1", "file_unique_id": "d1", "file_name": sent.get("file", ""),
                    "file_size": sent.get("size", 0)}
        extra = {"caption": params["caption"]} if params.get("caption") else {}
        return self._new_bot_message(params, document=document, **extra)

    def _existing(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        message = None if chat_id is None or message_id is None else self.messages.get((chat_id, message_id))
        if message is None:
            raise Refused(400, "Bad Request: message to edit not found")
        return message

    async def _api_editMessageText(self, params: dict[str, Any]) -> Any:
        rules.check_text(params.get("text"), params.get("parse_mode"))
        rules.check_markup(params.get("reply_markup"))
        message = self._existing(params)
        markup = _keyboard(params.get("reply_markup"))
        if message.get("text") == params.get("text") and _keyboard(message.get("reply_markup")) == markup:
            raise Refused(400, rules.NOT_MODIFIED)
        message["text"] = params["text"]
        return self._edited(message, markup)

    async def _api_editMessageReplyMarkup(self, params: dict[str, Any]) -> Any:
        rules.check_markup(params.get("reply_markup"))
        message = self._existing(params)
        markup = _keyboard(params.get("reply_markup"))
        if _keyboard(message.get("reply_markup")) == markup:
            raise Refused(400, rules.NOT_MODIFIED)
        return self._edited(message, markup)

    def _edited(self, message: dict[str, Any], markup: dict[str, Any] | None) -> dict[str, Any]:
        message.pop("reply_markup", None)
        if markup:
            message["reply_markup"] = markup
        message["edit_date"] = int(time.time())
        return message

    async def _api_answerCallbackQuery(self, params: dict[str, Any]) -> Any:
        """Once per query, while the user's client still waits for it; an alert of 200 at most."""
        text = params.get("text")
        if text is not None and rules.length(str(text)) > rules.MAX_CALLBACK_ANSWER:
            raise rules.bad("MESSAGE_TOO_LONG")
        query_id = str(params.get("callback_query_id") or "")
        born, answered = self._queries.get(query_id, (0.0, True))
        if answered or time.monotonic() - born > self.limits.callback_lifetime:
            raise Refused(400, rules.TOO_OLD)
        self._queries[query_id] = (born, True)
        return True

    async def _api_deleteMessage(self, params: dict[str, Any]) -> Any:
        """As the Bot API's limits say (the block "the bot's rights" above)."""
        key = (params.get("chat_id"), params.get("message_id"))
        if key[0] in self.no_delete:
            raise Refused(400, "Bad Request: message can't be deleted")
        message = self.messages.get(key)  # type: ignore[arg-type]
        if message is None:
            raise Refused(400, "Bad Request: message to delete not found")
        if not self._may_delete(key[0], message):  # type: ignore[arg-type]
            raise Refused(400, "Bad Request: message can't be deleted")
        del self.messages[key]  # type: ignore[arg-type]
        return True


def _keyboard(markup: Any) -> dict[str, Any] | None:
    """An inline keyboard with at least one button, else None (Telegram shows no empty keyboard)."""
    if isinstance(markup, dict) and any(markup.get("inline_keyboard") or []):
        return markup
    return None
