"""What the real Bot API refuses, for the stand-in (tests/telegram/standin.py) to refuse alike.

Each check raises `Refused(status, description)` with Telegram's own error code and description
(https://core.telegram.org/bots/api, and the texts the Bot API actually answers). The shape checks
hold the stand-in to python-telegram-bot's own classes: every method must exist on `telegram.Bot`
and take the parameters it is given, and every object the stand-in emits must round-trip through
PTB's `de_json` without losing a field — so the stand-in cannot drift into leniency.
"""

from __future__ import annotations

import functools
import inspect
from html.parser import HTMLParser
from typing import Any

import telegram
from telegram import TelegramObject

MAX_TEXT = 4096  # message text, after entity parsing
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64  # bytes
MAX_CALLBACK_ANSWER = 200  # answerCallbackQuery text
# An inline keyboard's size. The Bot API's reference names no limit (#inlinekeyboardmarkup); what Telegram
# does is known from its users. At most 100 buttons: more is refused with "reply markup is too long"
# (pyTelegramBotAPI#511 "The limit is 100 buttons", yagop/node-telegram-bot-api#200 REPLY_MARKUP_TOO_LONG;
# long labels or data make it refuse even fewer, python-telegram-bot#5104). At most 8 buttons a row
# (tginfo/Telegram-Limits#228; rubenlagus/TelegramBots#218: "8 for inline keyboards"): Telegram does not
# refuse a wider row, its apps leave out the buttons that do not fit (pyTelegramBotAPI#930 "telegram just
# ignored buttons that didn't fit") — the stand-in refuses it, so that a test sees what a player would miss.
MAX_BUTTONS = 100
MAX_ROW_BUTTONS = 8
TOO_LONG = "Bad Request: reply markup is too long"
TOO_WIDE = "Bad Request: more than 8 buttons in a row (the stand-in's: Telegram's apps leave the rest out)"
TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = ("Bad Request: message is not modified: specified new message content and reply "
                "markup are exactly the same as a current content and reply markup of the message")
# Parameters PTB adds itself and that are not Bot API parameters of a method.
_PTB_ONLY = {"self", "read_timeout", "write_timeout", "connect_timeout", "pool_timeout", "api_kwargs"}


class Refused(Exception):
    """The Bot API's answer to a call it refuses."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


def bad(description: str) -> Refused:
    return Refused(400, f"Bad Request: {description}")


def length(text: str) -> int:
    """Telegram measures texts in UTF-16 code units (an emoji outside the BMP counts twice)."""
    return len(text.encode("utf-16-le")) // 2


# ---------------------------------------------------------------- methods and parameters


@functools.cache
def accepted_parameters(method: str) -> frozenset[str] | None:
    """The Bot API parameters `telegram.Bot` takes for `method` (camelCase); None: no such method."""
    if not method[:1].islower() or method.startswith("_"):
        return None
    func = getattr(telegram.Bot, method, None)
    if func is None or not callable(func):
        return None
    names = set(inspect.signature(func).parameters) - _PTB_ONLY
    return frozenset(names)


def check_method(method: str, params: dict[str, Any]) -> None:
    """A real Bot API method (as PTB knows it) with only parameters PTB's signature accepts."""
    accepted = accepted_parameters(method)
    if accepted is None:
        raise Refused(404, "Not Found")
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise bad(f"unexpected parameter {unknown[0]!r} for {method} (not in telegram.Bot's signature)")


# ---------------------------------------------------------------- texts and entities


_HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
              "code", "pre", "blockquote", "tg-emoji"}


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS:
            raise bad(f'can\'t parse entities: Unsupported start tag "{tag}" at byte offset '
                      f"{self.getpos()[1]}")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            raise bad(f'can\'t parse entities: Unmatched end tag at byte offset {self.getpos()[1]}, '
                      f'expected "</{self.stack[-1] if self.stack else tag}>", found "</{tag}>"')
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _html_text(text: str) -> str:
    parser = _Html()
    parser.feed(text)
    parser.close()
    if parser.stack:
        raise bad(f'can\'t parse entities: Can\'t find end tag corresponding to start tag "{parser.stack[-1]}"')
    return "".join(parser.text)


_MD2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def _markdown_v2_text(text: str) -> str:
    out: list[str] = []
    open_marks: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 < len(text):
                out.append(text[i + 1])
            i += 2
            continue
        mark = text[i:i + 2] if text[i:i + 2] in ("__", "||") else c
        if mark in ("*", "_", "__", "~", "||", "`", "[", "]"):
            if mark == "]":
                if not open_marks or open_marks[-1][0] != "[":
                    raise bad("can't parse entities: Character ']' is reserved and must be escaped "
                              "with the preceding '\\'")
                open_marks.pop()
                if text[i + 1:i + 2] == "(":
                    end = text.find(")", i + 2)
                    if end < 0:
                        raise bad("can't parse entities: Can't find end of a URL")
                    i = end + 1
                    continue
            elif open_marks and open_marks[-1][0] == mark:
                open_marks.pop()
            else:
                open_marks.append((mark, len(text[:i].encode())))
            i += len(mark)
            continue
        if c in _MD2_RESERVED:
            raise bad(f"can't parse entities: Character '{c}' is reserved and must be escaped with "
                      "the preceding '\\'")
        out.append(c)
        i += 1
    if open_marks:
        raise bad(f"can't parse entities: Can't find end of the entity starting at byte offset "
                  f"{open_marks[-1][1]}")
    return "".join(out)


def _markdown_text(text: str) -> str:
    out: list[str] = []
    open_mark: tuple[str, int] | None = None
    for i, c in enumerate(text):
        if c in "*_`[":
            if open_mark is None:
                open_mark = ("]" if c == "[" else c, i)
            elif open_mark[0] == c:
                open_mark = None
            continue
        if c == "]" and open_mark is not None and open_mark[0] == "]":
            open_mark = None
            continue
        out.append(c)
    if open_mark is not None:
        raise bad(f"can't parse entities: Can't find end of the entity starting at byte offset "
                  f"{len(text[:open_mark[1]].encode())}")
    return "".join(out)


def parsed_text(text: str, parse_mode: str | None) -> str:
    """The text a user sees once `parse_mode` markup is taken out; refuses markup Telegram refuses."""
    if not parse_mode:
        return text
    mode = parse_mode.lower()
    if mode == "html":
        return _html_text(text)
    if mode == "markdownv2":
        return _markdown_v2_text(text)
    if mode == "markdown":
        return _markdown_text(text)
    raise bad(f"unsupported parse_mode {parse_mode!r}")


def check_text(text: Any, parse_mode: str | None, *, caption: bool = False) -> None:
    if text is None or text == "":
        if not caption:
            raise bad("message text is empty")
        return
    visible = parsed_text(str(text), parse_mode)
    if caption and length(visible) > MAX_CAPTION:
        raise bad("message caption is too long")
    if not caption:
        if not visible.strip():
            raise bad("message text is empty")
        if length(visible) > MAX_TEXT:
            raise bad("message is too long")


# https://core.telegram.org/bots/api#messageentity: "offset: Offset in UTF-16 code units to the start of
# the entity", "length: Length of the entity in UTF-16 code units", "user: Optional. For "text_mention"
# only, the mentioned user"; sendMessage's `entities` "can be specified instead of parse_mode".
ENTITY_TYPES = frozenset({"mention", "hashtag", "cashtag", "bot_command", "url", "email", "phone_number", "bold",
                          "italic", "underline", "strikethrough", "spoiler", "blockquote", "expandable_blockquote",
                          "code", "pre", "text_link", "text_mention", "custom_emoji"})


def check_entities(text: Any, entities: Any, parse_mode: str | None) -> None:
    """Entities as sendMessage takes them: a list of known types inside the text; a text_mention names a
    user by an integer id (Telegram answers "can't parse entities" otherwise)."""
    if entities is None:
        return
    if parse_mode:
        raise bad("can't parse entities: entities are given together with parse_mode")  # "instead of"
    if not isinstance(entities, list):
        raise bad("can't parse entities JSON object")
    size = length(str(text or ""))
    for e in entities:
        if not isinstance(e, dict) or e.get("type") not in ENTITY_TYPES:
            raise bad("can't parse entities: unsupported entity type")
        offset, span = e.get("offset"), e.get("length")
        if not isinstance(offset, int) or not isinstance(span, int) or offset < 0 or span <= 0 \
                or offset + span > size:
            raise bad("can't parse entities: entity beyond the end of the text")
        user = e.get("user")
        if e["type"] == "text_mention" and (not isinstance(user, dict) or not isinstance(user.get("id"), int)
                                            or not user.get("first_name")):
            raise bad("can't parse entities: text_mention without a user")


def check_markup(markup: Any) -> None:
    """An inline keyboard Telegram would take: each button a label and exactly one action; at most 100
    buttons, at most 8 a row."""
    if markup is None or markup == "":
        return
    if not isinstance(markup, dict):
        raise bad("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return  # a reply keyboard or a removal: the bot does not use them
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise bad("field \"inline_keyboard\" of the InlineKeyboardMarkup must be an Array of Arrays")
    if sum(len(row) for row in rows) > MAX_BUTTONS:
        raise Refused(400, TOO_LONG)
    if any(len(row) > MAX_ROW_BUTTONS for row in rows):
        raise Refused(400, TOO_WIDE)
    for row in rows:
        for button in row:
            if not str(button.get("text") or "").strip():
                raise bad("BUTTON_TEXT_INVALID")
            actions = [k for k in button if k != "text"]
            if len(actions) != 1:
                raise bad("can't parse inline keyboard button: exactly one of the optional fields "
                          "must be used")
            if "callback_data" in button:
                data = str(button["callback_data"]).encode()
                if not 1 <= len(data) <= MAX_CALLBACK_DATA:
                    raise bad("BUTTON_DATA_INVALID")
            if "url" in button:
                url = str(button["url"])
                if not url.startswith(("http://", "https://", "tg://")) or " " in url:
                    raise bad("BUTTON_URL_INVALID")


# ---------------------------------------------------------------- shapes


def _lost(original: Any, roundtrip: Any, path: str) -> list[str]:
    if isinstance(original, dict):
        if not isinstance(roundtrip, dict):
            return [path]
        lost = []
        for key, value in original.items():
            if key not in roundtrip:
                lost.append(f"{path}.{key}")
            else:
                lost.extend(_lost(value, roundtrip[key], f"{path}.{key}"))
        return lost
    if isinstance(original, list):
        if not isinstance(roundtrip, list) or len(roundtrip) != len(original):
            return [path]
        return [p for i, (a, b) in enumerate(zip(original, roundtrip, strict=True))
                for p in _lost(a, b, f"{path}[{i}]")]
    return [] if original == roundtrip else [f"{path} ({original!r} != {roundtrip!r})"]


def _unknown(obj: Any, path: str) -> list[str]:
    """Fields PTB did not recognise (kept in api_kwargs): the stand-in made them up."""
    if isinstance(obj, (list, tuple)):
        return [p for i, o in enumerate(obj) for p in _unknown(o, f"{path}[{i}]")]
    if not isinstance(obj, TelegramObject):
        return []
    found = [f"{path}.{k}" for k in obj.api_kwargs]
    for name, value in obj._get_attrs(recursive=False).items():
        found.extend(_unknown(value, f"{path}.{name}"))
    return found


def drift(cls: type[TelegramObject], data: dict[str, Any]) -> list[str]:
    """What of `data` PTB's `cls` would not read back: fields lost or unknown, values changed.
    Dates must be whole seconds (Telegram's unit)."""
    problems = []
    for key in ("date", "edit_date"):
        for found in _dates(data, key):
            if not isinstance(found, int) or found > 10**11:
                problems.append(f"{key}={found!r} is not a Unix time in seconds")
    try:
        parsed = cls.de_json(dict(data), None)
    except (ValueError, TypeError, KeyError) as exc:
        return [*problems, f"{cls.__name__}.de_json failed: {exc!r}"]
    if parsed is None:
        return [f"{cls.__name__}.de_json gave None"]
    problems.extend(_unknown(parsed, cls.__name__))
    problems.extend(_lost(data, parsed.to_dict(recursive=True), cls.__name__))
    return problems


def _dates(data: Any, key: str) -> list[Any]:
    if isinstance(data, dict):
        found = [data[key]] if key in data else []
        return found + [d for v in data.values() for d in _dates(v, key)]
    if isinstance(data, list):
        return [d for v in data for d in _dates(v, key)]
    return []
