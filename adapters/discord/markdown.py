"""Rendered texts → Discord message content, split into messages Discord accepts (`split_content`).

Discord formats every message as markdown and turns `<@id>` into a mention, so the parts of a
text the App marked as parameters (`Outbound.marked`, see core/messages.py) are made safe here:
a one-line string parameter (a name, a word, a typed text) has its markdown and mentions
escaped; a multi-line one (a standings board, a table, a list) is set in a code block, where
the columns line up in a monospace font and nothing inside is formatted. The catalog text
around them is never touched. The players a message asks to act (`Outbound.mention`) are
mentioned in front of it — the only mentions in a message, and the only users it pings.
"""

from __future__ import annotations

import re

import discord

from core.messages import BLOCK, USER_TEXT, Outbound

FENCE = "```"
_USER = re.compile(re.escape(USER_TEXT[0]) + "(.*?)" + re.escape(USER_TEXT[1]), re.DOTALL)
_BLOCK = re.compile(re.escape(BLOCK[0]) + "(.*?)" + re.escape(BLOCK[1]), re.DOTALL)
_MARKERS = {ord(c): None for c in (*USER_TEXT, *BLOCK)}
# the characters Discord's markdown (and its mention and custom emoji syntax) gives a meaning
# anywhere, and those that do at the start of a line (a heading, a quote, a list, subtext); a
# backslash before ASCII punctuation shows the character itself
_SPECIAL = re.compile(r"([\\*_~|`\[\]<])")
_LINE_START = re.compile(r"^(\s*)([#>\-+])")
_SNOWFLAKE = re.compile(r"[0-9]{15,20}")  # a Discord user id (the computer opponent's "bot" is none)


def escape(text: str) -> str:
    """User text shown as typed: no bold, italics, spoilers, masked links, headings or mentions."""
    escaped = _LINE_START.sub(r"\1\\\2", _SPECIAL.sub(r"\\\1", text))
    return discord.utils.escape_mentions(escaped)


def code_block(text: str) -> str:
    """A table in a monospace block; a run of backticks inside cannot close it."""
    inner = re.sub("`(?=`)", "`\u200b", text.translate(_MARKERS)).strip("\n")
    return f"{FENCE}\n{inner}\n{FENCE}"


def content(out: Outbound) -> str:
    """The message content for Discord: the marked text with its parameters made safe."""
    if out.marked is None:
        text = out.text
    else:
        text = _BLOCK.sub(lambda m: code_block(m.group(1)), out.marked)
        text = _USER.sub(lambda m: escape(m.group(1)), text).translate(_MARKERS)
    ping = " ".join(f"<@{i}>" for i in to_ping(out))
    return f"{ping} {text}" if ping else text


def to_ping(out: Outbound) -> list[int]:
    """The users who must act on this message (`Outbound.mention`): Discord user ids only."""
    return list(dict.fromkeys(int(i) for i in out.mention if _SNOWFLAKE.fullmatch(i)))


MAX_CONTENT = 2000  # characters in one message


def split_content(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split at line breaks into chunks Discord accepts (the last one carries buttons); a code
    block cut in two is closed at the end of one chunk and opened again in the next."""
    if len(text) <= limit:
        return [text]
    if FENCE not in text:
        return _split_lines(text, limit)
    chunks = _split_lines(text, limit - 2 * (len(FENCE) + 1))
    inside = False
    for i, chunk in enumerate(chunks):
        opened = inside
        inside ^= chunk.count(FENCE) % 2 == 1
        if opened:
            chunk = f"{FENCE}\n{chunk}"
        if inside:
            chunk = f"{chunk.rstrip(chr(10))}\n{FENCE}"
        chunks[i] = chunk
    return chunks


def _split_lines(text: str, limit: int) -> list[str]:
    chunks: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                chunks.append(current)
                current = ""
            chunks.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            chunks.append(current)
            current = ""
        current += line
    if current:
        chunks.append(current)
    return chunks
