"""The users the stand-in's tests speak as, and who is what in a group: users' messages, button presses
and edits, joining and leaving, admins, the bot's own rights there, and a group's upgrade to a
supergroup; getChatMember and getChatAdministrators answer from it."""

from __future__ import annotations

import time
from typing import Any

from telegram import ChatMember

from tests.telegram import forum
from tests.telegram import standin_identity as identity
from tests.telegram import standin_membership as membership
from tests.telegram.botapi_rules import Refused
from tests.telegram.standin_objects import BOT_ID, MENTION_RE, Chat, User, utf16
from tests.telegram.standin_updates import Updates


class Users(Updates):
    """Speaking as users, and the members, admins and bot rights of a group."""

    def _seen_in(self, chat: Chat, user: User) -> None:
        """Only a member writes or presses in a group (a user who left or was banned cannot)."""
        self._users[user.id] = user
        if chat.type != "private":
            status = self.members.setdefault(chat.id, {}).setdefault(user.id, "member")
            assert status == "member", f"user {user.id} is {status} in chat {chat.id}: they cannot act there"

    def join(self, chat: Chat, user: User) -> None:
        """`user` is a member of the group (joined earlier; they need not have written there)."""
        self._register(chat)
        self._users[user.id] = user
        self.members.setdefault(chat.id, {})[user.id] = "member"

    def leave(self, chat: Chat, user: User, banned: bool = False) -> None:
        """`user` leaves the group (or is banned from it): a `chat_member` update says so, as
        Telegram sends it to a bot that administers the group."""
        old = self.members.setdefault(chat.id, {}).get(user.id, "left")
        new = "kicked" if banned else "left"
        self.members[chat.id][user.id] = new
        self._push({"chat_member": {
            "chat": chat.to_dict(), "from": user.to_dict(), "date": int(time.time()),
            "old_chat_member": self._member_dict(chat, user, old),
            "new_chat_member": self._member_dict(chat, user, new),
        }})

    def _member_dict(self, chat: Chat, user: User, status: str) -> dict[str, Any]:
        """A ChatMember as the Bot API writes it: each status with exactly its own fields."""
        admins = self.admins.get(chat.id, [])
        if status == "member" and user in admins:
            return self._admin_dict(user, creator=admins.index(user) == 0)
        if status == "kicked":
            return {"status": "kicked", "user": user.to_dict(), "until_date": 0}  # 0: banned for ever
        return {"status": status, "user": user.to_dict()}

    @staticmethod
    def _admin_dict(user: User, creator: bool) -> dict[str, Any]:
        if creator:
            return {"status": "creator", "user": user.to_dict(), "is_anonymous": False}
        return {
            "status": "administrator", "user": user.to_dict(), "can_be_edited": False,
            "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
            "can_manage_video_chats": True, "can_restrict_members": True,
            "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
            "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
            "can_pin_messages": True, "can_manage_topics": False,
        }

    def user_message(
        self, chat: Chat, user: User, text: str, reply_to: int | None = None,
        entities: list[dict[str, Any]] | None = None, topic: int | None = None, as_chat: Chat | None = None,
    ) -> dict[str, Any]:
        """`user` writes `text` in `chat`; returns the message (with its message_id).
        As the Bot API does, a leading /command gets its bot_command entity and every @username a
        mention entity (which names no user); `entities` adds more (e.g. `text_mention`); all are
        sorted by offset. A message of another bot account is kept (it can be replied to) but not
        delivered: Telegram never shows a bot the messages of other bots. `as_chat`: `user` posts on
        behalf of that chat (the group itself: as an anonymous admin; a channel: "send as channel"), and
        the bot sees the chat, not the user (`standin_identity.posted_as`). With `privacy` on, a group
        delivers only what privacy mode lets through (`standin_identity.delivered`)."""
        assert chat.id not in self.upgraded, f"group {chat.id} is a supergroup now: {self.upgraded.get(chat.id)}"
        self._register(chat)
        self._seen_in(chat, user)
        if chat.type == "private":
            self.blocked.discard(user.id)  # writing to the bot lets it answer
        message: dict[str, Any] = {
            "message_id": self._next_message_id(chat.id), "date": int(time.time()),
            "chat": chat.to_dict(), "from": user.to_dict(), "text": text,
        }
        if as_chat is not None:
            message.update(identity.posted_as(self, chat, user, as_chat))
        found: list[dict[str, Any]] = []
        if text.startswith("/"):
            found.append({"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])})
        for match in MENTION_RE.finditer(text):
            if not (text.startswith("/") and match.start() < len(text.split()[0])):  # not /cmd@Bot
                found.append({"type": "mention", "offset": utf16(text[:match.start()]),
                              "length": utf16(match.group())})
        found += entities or []
        if found:
            message["entities"] = sorted(found, key=lambda e: (e["offset"], -e["length"]))
        if reply_to is not None and (chat.id, reply_to) in self.messages:
            replied = dict(self.messages[(chat.id, reply_to)])
            replied.pop("reply_to_message", None)  # the Bot API nests one level only
            message["reply_to_message"] = replied
        forum.into_topic(self, chat, topic, message)  # `topic`: written in that forum topic
        self.messages[(chat.id, message["message_id"])] = message
        if not user.is_bot and membership.hears(self, chat) and identity.delivered(self, chat, message):
            self._push({"message": message})
        return message

    def press(self, chat: Chat, user: User, message_id: int, data: str) -> str:
        """`user` presses the button with callback `data` under message `message_id`."""
        self._seen_in(chat, user)
        message = self.messages.get((chat.id, message_id)) or {
            "message_id": message_id, "date": int(time.time()), "chat": chat.to_dict(),
        }
        query_id = f"cq{next(self._callback_ids)}"
        self._queries[query_id] = (time.monotonic(), False)
        self._push({"callback_query": {
            "id": query_id, "from": user.to_dict(), "message": message,
            "chat_instance": f"ci{chat.id}", "data": data,
        }})
        return query_id

    def demote(self, chat: Chat, by: User, user: User) -> None:
        """`by` takes `user`'s administrator rights in `chat`: the list changes and a `chat_member`
        update says so (Telegram sends it to a bot that administers the group)."""
        self.admins[chat.id] = [u for u in self.admins.get(chat.id, []) if u != user]
        member = {"user": user.to_dict()}
        self._push({"chat_member": {
            "chat": chat.to_dict(), "from": by.to_dict(), "date": int(time.time()),
            "old_chat_member": {**member, "status": "administrator", "can_be_edited": True,
                                "is_anonymous": False, "can_manage_chat": True,
                                "can_delete_messages": True, "can_manage_video_chats": True,
                                "can_restrict_members": True, "can_promote_members": False,
                                "can_change_info": True, "can_invite_users": True,
                                "can_post_stories": False, "can_edit_stories": False,
                                "can_delete_stories": False},
            "new_chat_member": {**member, "status": "member"},
        }})

    def migrate(self, chat: Chat, user: User, new_chat_id: int, announce: bool = True) -> Chat:
        """The group becomes a supergroup: the service messages in the old chat and in the new one
        (`announce` False: the bot missed both, e.g. it was down for longer than Telegram keeps
        updates); from now on the old id is refused (`standin_identity.upgraded_refusal`)."""
        self._register(chat)
        new = Chat(id=new_chat_id, type="supergroup", title=chat.title)
        self._register(new)
        identity.carry_over(self, chat, new)
        if announce:
            self._push({"message": {
                "message_id": self._next_message_id(chat.id), "date": int(time.time()),
                "chat": chat.to_dict(), "from": user.to_dict(), "migrate_to_chat_id": new_chat_id,
            }})
            self._push({"message": {
                "message_id": self._next_message_id(new.id), "date": int(time.time()),
                "chat": new.to_dict(), "from": user.to_dict(), "migrate_from_chat_id": chat.id,
            }})
        return new

    # -- tg-ops: the bot's rights (what they let it delete: standin_messages.py) and users' edits -------

    def promote_bot(self, chat: Chat, can_delete_messages: bool = True) -> None:
        """An admin makes the bot an administrator of `chat` (with or without "Delete messages"); a
        `my_chat_member` update tells the bot, as Telegram does."""
        self._register(chat)
        old = self._bot_member(chat.id)
        self.bot_rights[chat.id] = can_delete_messages
        self.bot_admin.add(chat.id)  # one bot admin status for both models (standin_identity: it gets everything)
        self._push({"my_chat_member": {
            "chat": chat.to_dict(), "from": {"id": 1, "is_bot": False, "first_name": "Admin"},
            "date": int(time.time()), "old_chat_member": old, "new_chat_member": self._bot_member(chat.id),
        }})

    def _bot_member(self, chat_id: int) -> dict[str, Any]:
        user = {k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")}
        if chat_id not in self.bot_rights and chat_id in self.bot_admin:  # promoted by standin_identity
            return identity._bot_admin(self)
        if chat_id not in self.bot_rights:
            return {"status": "member", "user": user}
        rights = self._admin_dict(User(BOT_ID, "Club Bot"), creator=False)
        return {**rights, "user": user, "can_delete_messages": self.bot_rights[chat_id]}

    def user_edit(self, chat: Chat, user: User, message_id: int, text: str) -> dict[str, Any]:
        """`user` edits their message `message_id` to `text`: an `edited_message` update with the
        message's own id and date and an `edit_date` (https://core.telegram.org/bots/api#update), sent
        only to a bot that asked for edits in `allowed_updates`."""
        message = self.messages[(chat.id, message_id)]
        assert message["from"]["id"] == user.id, "only its author edits a message"
        message["text"] = text
        message.pop("entities", None)
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": utf16(text.split()[0])}]
        message["edit_date"] = max(int(time.time()), message["date"] + 1)
        self._push({"edited_message": message})
        return message

    async def _api_getChatAdministrators(self, params: dict[str, Any]) -> Any:
        """As the Bot API answers: the creator and the administrators of a group, this bot among them
        where it is one (`bot_admin`); a private chat has none."""
        chat_id = params.get("chat_id")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise Refused(400, "Bad Request: chat not found")
        if chat.type == "private":
            raise Refused(400, "Bad Request: there are no administrators in the private chat")
        admins = [self._admin_dict(user, index == 0) for index, user in enumerate(self.admins.get(chat.id, []))]
        return admins + identity.bot_admins(self, chat)

    async def _api_getChatMember(self, params: dict[str, Any]) -> Any:
        """As the Bot API answers: both parameters required; an unknown chat is "chat not found"; a
        user id that is no user is refused; in a group the user's status with exactly its fields —
        `left` for a user who is not (or no longer) in it, `kicked` (with `until_date`) for a banned
        one; in a private chat the user of that chat is a member."""
        chat_id, user_id = params.get("chat_id"), params.get("user_id")
        if chat_id is None:
            raise Refused(400, "Bad Request: chat_id is empty")
        if user_id is None:
            raise Refused(400, "Bad Request: user_id not specified")
        if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
            raise Refused(400, "Bad Request: invalid user_id specified")
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise Refused(400, "Bad Request: chat not found")
        user = self._users.get(user_id) or User(user_id, "User")
        if chat.type == "private":
            if chat.id != user_id:
                raise Refused(400, "Bad Request: member not found")
            member = {"status": "member", "user": user.to_dict()}
        elif user_id == BOT_ID:  # tg-ops: the bot itself, with its rights there
            member = self._bot_member(chat.id)
        else:
            member = self._member_dict(chat, user, self.members.get(chat.id, {}).get(user_id, "left"))
        self._check_shape(ChatMember, member)
        return member
