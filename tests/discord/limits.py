"""What real Discord refuses in a message or modal, as the stand-in checks it.

`message_errors` and `modal_errors` return Discord's error tree for an invalid form body
(empty when valid); the stand-in answers such a call with HTTP 400, code 50035 "Invalid
Form Body" and that tree, as Discord does. Limits from Discord's API reference (message
content, components, embeds, modals, allowed mentions); shapes from discord.py's own
TypedDicts (see dtypes.py).
"""

from __future__ import annotations

import re
from typing import Any

from .dtypes import COMPONENT_SHAPES, shape, shape_errors

INVALID_FORM_BODY = 50035
EMPTY_MESSAGE = 50006

CONTENT = 2000
ROWS = 5
PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
MODAL_TITLE = 45
MODAL_ROWS = 5
INPUT_LABEL = 45
INPUT_MAX = 4000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
EMBED_TOTAL = 6000
MENTION_TYPES = frozenset({"users", "roles", "everyone"})
MENTION_IDS = 100

Tree = dict[str, Any]


def _err(code: str, message: str) -> Tree:
    return {"_errors": [{"code": code, "message": message}]}


def _put(tree: Tree, path: list[str | int], error: Tree) -> None:
    node = tree
    for step in path:
        node = node.setdefault(str(step), {})
    node.setdefault("_errors", []).extend(error["_errors"])


def _max_len(tree: Tree, path: list[str | int], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        _put(tree, path, _err("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _count(tree: Tree, path: list[str | int], items: Any, low: int, high: int) -> None:
    if not isinstance(items, list) or not low <= len(items) <= high:
        _put(tree, path, _err("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."))


def _shape(tree: Tree, path: list[str | int], payload: Any, module: str, name: str,
           *, required: bool = True) -> None:
    found = shape(module, name)
    for problem in shape_errors(payload, found):
        if required or "unknown key" in problem:
            _put(tree, path, _err("SHAPE", problem))


def _component(tree: Tree, path: list[str | int], comp: Any) -> None:
    kind = comp.get("type") if isinstance(comp, dict) else None
    if kind not in COMPONENT_SHAPES:
        choices = sorted(COMPONENT_SHAPES)
        _put(tree, path, _err("UNION_TYPE_CHOICES", f"Value of field \"type\" must be one of {choices}."))
        return
    module, name = COMPONENT_SHAPES[kind]
    _shape(tree, path, comp, module, name)
    _max_len(tree, [*path, "custom_id"], comp.get("custom_id"), CUSTOM_ID)
    if kind == 2:
        _max_len(tree, [*path, "label"], comp.get("label"), BUTTON_LABEL)
        if comp.get("style") == 5:
            if not comp.get("url") or "custom_id" in comp:
                _put(tree, path, _err("BUTTON_COMPONENT_INVALID_URL", "A link button needs a url and no custom_id."))
        elif not comp.get("custom_id") or "url" in comp:
            _put(tree, path, _err("BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A non-link button must have a custom_id."))
    elif kind == 3:
        options = comp.get("options")
        _count(tree, [*path, "options"], options, 1, SELECT_OPTIONS)
        _max_len(tree, [*path, "placeholder"], comp.get("placeholder"), PLACEHOLDER)
        values = set()
        for i, option in enumerate(options or []):
            _shape(tree, [*path, "options", i], option, "components", "SelectOption")
            for key in ("label", "value", "description"):
                _max_len(tree, [*path, "options", i, key], option.get(key), OPTION_TEXT)
            values.add(option.get("value"))
        if options and len(values) != len(options):
            _put(tree, [*path, "options"], _err("SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                                                "Option values must be unique."))
    elif kind == 4:
        _max_len(tree, [*path, "label"], comp.get("label"), INPUT_LABEL)
        if int(comp.get("max_length") or 0) > INPUT_MAX:
            _put(tree, [*path, "max_length"], _err("NUMBER_TYPE_MAX", f"int value should be <= {INPUT_MAX}."))
        _max_len(tree, [*path, "placeholder"], comp.get("placeholder"), OPTION_TEXT)


def _rows(tree: Tree, rows: Any, *, modal: bool = False) -> None:
    _count(tree, ["components"], rows, 1 if modal else 0, MODAL_ROWS if modal else ROWS)
    for r, row in enumerate(rows if isinstance(rows, list) else []):
        path: list[str | int] = ["components", r]
        if isinstance(row, dict) and row.get("type") == 18:  # a modal's label around one input
            _component(tree, path, row)
            _component(tree, [*path, "component"], row.get("component"))
            _max_len(tree, [*path, "label"], row.get("label"), INPUT_LABEL)
            continue
        if not isinstance(row, dict) or row.get("type") != 1:
            _put(tree, path, _err("UNION_TYPE_CHOICES", "A top-level component must be an action row."))
            continue
        _component(tree, path, row)
        children = row.get("components")
        _count(tree, [*path, "components"], children, 1, PER_ROW)
        kinds = [c.get("type") for c in children or [] if isinstance(c, dict)]
        if any(k in (3, 4) for k in kinds) and len(kinds) > 1:
            _put(tree, [*path, "components"], _err("COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                                                   "The specified component exceeds the maximum width"))
        for c, child in enumerate(children or []):
            _component(tree, [*path, "components", c], child)
    ids = [cid for cid in _custom_ids(rows)]
    if len(ids) != len(set(ids)):
        _put(tree, ["components"], _err("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"))


def _custom_ids(rows: Any) -> list[str]:
    out: list[str] = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            continue
        inner = row.get("components") or ([row["component"]] if isinstance(row.get("component"), dict) else [])
        out += [c["custom_id"] for c in inner if isinstance(c, dict) and "custom_id" in c]
    return out


def _embeds(tree: Tree, embeds: Any) -> None:
    if not isinstance(embeds, list):
        return
    if len(embeds) > EMBEDS:
        _put(tree, ["embeds"], _err("BASE_TYPE_MAX_LENGTH", f"Must be {EMBEDS} or fewer in length."))
    total = 0
    for e, embed in enumerate(embeds):
        path: list[str | int] = ["embeds", e]
        _shape(tree, path, embed, "embed", "Embed")
        if not isinstance(embed, dict):
            continue
        _max_len(tree, [*path, "title"], embed.get("title"), EMBED_TITLE)
        _max_len(tree, [*path, "description"], embed.get("description"), EMBED_DESCRIPTION)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            _put(tree, [*path, "fields"], _err("BASE_TYPE_MAX_LENGTH", f"Must be {EMBED_FIELDS} or fewer in length."))
        for f, fld in enumerate(fields):
            _shape(tree, [*path, "fields", f], fld, "embed", "EmbedField")
            _max_len(tree, [*path, "fields", f, "name"], fld.get("name"), FIELD_NAME)
            _max_len(tree, [*path, "fields", f, "value"], fld.get("value"), FIELD_VALUE)
            total += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
        footer = embed.get("footer") or {}
        author = embed.get("author") or {}
        _max_len(tree, [*path, "footer", "text"], footer.get("text"), FOOTER)
        _max_len(tree, [*path, "author", "name"], author.get("name"), AUTHOR)
        total += sum(len(str(x or "")) for x in (embed.get("title"), embed.get("description"),
                                                   footer.get("text"), author.get("name")))
    if total > EMBED_TOTAL:
        _put(tree, ["embeds"], _err("MESSAGE_EMBEDS_LENGTH_EXCEEDED",
                                    f"Embed size exceeds maximum size of {EMBED_TOTAL}"))


def _allowed_mentions(tree: Tree, mentions: Any) -> None:
    if mentions is None:
        return
    path: list[str | int] = ["allowed_mentions"]
    found = shape("message", "AllowedMentions")
    if not isinstance(mentions, dict):
        _put(tree, path, _err("DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType"))
        return
    for key in sorted(mentions.keys() - found.allowed):
        _put(tree, path, _err("SHAPE", f"AllowedMentions: unknown key {key!r}"))
    parse = mentions.get("parse", [])
    if not isinstance(parse, list) or not set(parse) <= MENTION_TYPES:
        _put(tree, [*path, "parse"], _err("ENUM_TYPE_COERCE", f"Value must be one of {sorted(MENTION_TYPES)}."))
        parse = []
    for kind in ("users", "roles"):
        ids = mentions.get(kind)
        if ids is None:
            continue
        if not isinstance(ids, list) or len(ids) > MENTION_IDS:
            _put(tree, [*path, kind], _err("BASE_TYPE_MAX_LENGTH", f"Must be {MENTION_IDS} or fewer in length."))
        elif ids and kind in parse:
            _put(tree, path, _err("MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                                  f"parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive."))


def message_errors(body: dict[str, Any], *, new: bool, files: int = 0) -> Tree:
    """The error tree for a message body (a new message, an edit, an interaction reply)."""
    tree: Tree = {}
    _max_len(tree, ["content"], body.get("content"), CONTENT)
    if "components" in body and body["components"] is not None:
        _rows(tree, body["components"])
    _embeds(tree, body.get("embeds"))
    _allowed_mentions(tree, body.get("allowed_mentions"))
    return tree


def is_empty(body: dict[str, Any], files: int) -> bool:
    """Discord refuses a new message with nothing to show (50006)."""
    return not (body.get("content") or body.get("embeds") or body.get("components") or files
                or body.get("sticker_ids") or body.get("poll"))


def modal_errors(data: dict[str, Any]) -> Tree:
    tree: Tree = {}
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= MODAL_TITLE:
        _put(tree, ["title"], _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MODAL_TITLE} in length."))
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID:
        _put(tree, ["custom_id"], _err("BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {CUSTOM_ID} in length."))
    _rows(tree, data.get("components"), modal=True)
    return tree


# Application commands (bulk overwrite): names, their localisations and descriptions.
# https://discord.com/developers/docs/interactions/application-commands#application-command-object
COMMANDS = 100
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # lowercase where the script has case (checked apart)
COMMAND_DESCRIPTION = 100
LOCALES = frozenset({"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
                     "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
                     "th", "zh-CN", "ja", "zh-TW", "ko"})


def _name_errors(name: Any) -> bool:
    return not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower()


def command_errors(payload: list[dict[str, Any]]) -> dict[str, Any]:
    """What Discord refuses in a bulk overwrite of application commands: more than 100 commands, an
    invalid or duplicate name (also a localised one, or unique per locale), an unknown locale, a
    description of 1–100 characters missing or too long (also localised); options named likewise."""
    tree: dict[str, Any] = {}
    if len(payload) > COMMANDS:
        tree["_errors"] = [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {COMMANDS} or fewer in length."}]
    seen: dict[str, set[str]] = {}
    for i, cmd in enumerate(payload):
        bad: list[str] = []
        names = {"": cmd.get("name"), **(cmd.get("name_localizations") or {})}
        for locale, name in names.items():
            if locale and locale not in LOCALES:
                bad.append(f"name_localizations.{locale}: unknown locale")
            if _name_errors(name):
                bad.append(f"name{'.' + locale if locale else ''}: {name!r} is not a valid command name")
            elif name in seen.setdefault(locale, set()):
                bad.append(f"name{'.' + locale if locale else ''}: {name!r} is used twice")
            else:
                seen[locale].add(name)
        texts = {"": cmd.get("description"), **(cmd.get("description_localizations") or {})}
        for locale, text in texts.items():
            if not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION:
                bad.append(f"description{'.' + locale if locale else ''}: 1–{COMMAND_DESCRIPTION} characters")
        for opt in cmd.get("options") or []:
            for locale, name in {"": opt.get("name"), **(opt.get("name_localizations") or {})}.items():
                if _name_errors(name):
                    bad.append(f"options.{opt.get('name')}.name{'.' + locale if locale else ''}: invalid")
        if bad:
            tree[str(i)] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": m} for m in bad]}
    return tree

