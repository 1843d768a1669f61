"""Telegram text mentions (adapters/telegram/render.py `mentions`): the named users in front of a group
message, each a `text_mention` entity whose offset and length count UTF-16 code units, as the Bot API
measures (https://core.telegram.org/bots/api#messageentity); nothing for a private message or a message
that names no one, and never a mention of an id that is no Telegram user id."""

from __future__ import annotations

from adapters.telegram.render import mentions
from core.messages import Actor, Chat, Outbound

GROUP = Chat("telegram", "-100500", False)


def units(text: str, offset: int, length: int) -> str:
    return text.encode("utf-16-le")[2 * offset:2 * (offset + length)].decode("utf-16-le")


def test_each_name_is_a_text_mention_counted_in_utf16_units() -> None:
    out = Outbound(GROUP, "☀️ Good morning!", mention=("11", "22"), mention_names=("🎳 Åsa", "Bob"))
    text, entities = mentions(out)
    assert text.endswith("\n☀️ Good morning!")
    assert [(e.type, e.user.id if e.user else None) for e in entities] == [("text_mention", 11), ("text_mention", 22)]
    assert [units(text, e.offset, e.length) for e in entities] == ["🎳 Åsa", "Bob"]


def test_no_mention_without_names_privately_or_for_a_foreign_id() -> None:
    assert mentions(Outbound(GROUP, "hi", mention=("11",))) == ("hi", [])  # ids alone: a challenge's ping
    private = Outbound(Actor("telegram", "11", "Åsa"), "hi", mention=("11",), mention_names=("Åsa",))
    assert mentions(private) == ("hi", [])
    text, entities = mentions(Outbound(GROUP, "hi", mention=("bob", "22"), mention_names=("Bob", "Cid")))
    assert [units(text, e.offset, e.length) for e in entities] == ["Cid"]
