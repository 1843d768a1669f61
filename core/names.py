"""Names as people see them: one spelling for what looks the same.

`Bir\u200bgit` and `Birgit` look alike in a chat, and a right-to-left override can make a name read
backwards. Every name the bot compares or stores (a player's display name, a Kegeln club member,
a name typed after /duel, /stats, /scorer or /kegelstats) goes through `clean` first: Unicode NFKC,
invisible format characters (zero-width spaces and joiners, bidi controls, the BOM, soft hyphens)
and other control characters dropped, runs of whitespace collapsed to one space, ends trimmed.
`key` is the form names are compared in (case-insensitive)."""

from __future__ import annotations

import unicodedata


def clean(name: str) -> str:
    """The name to show and store; "" when nothing visible is left."""
    text = unicodedata.normalize("NFKC", name)
    kept: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch.isspace():
            kept.append(" ")
        elif cat in ("Cf", "Cc", "Cs"):  # format (zero-width, bidi controls), control, lone surrogate
            continue
        else:
            kept.append(ch)
    return " ".join("".join(kept).split())


TITLE_CHARS = 40  # a chat's title as shown in private messages and buttons (a longer one is cut, "…")


def title(raw: str | None) -> str | None:
    """A chat's title as the bot keeps and shows it (user-controlled text, like a name): cleaned as
    `clean` does (one line, no invisible or bidi characters) and cut to `TITLE_CHARS`; None when
    nothing visible is left."""
    text = clean(raw or "")
    if not text:
        return None
    return text if len(text) <= TITLE_CHARS else text[:TITLE_CHARS - 1].rstrip() + "…"


def key(name: str) -> str:
    """The form two names are compared in: cleaned and case-folded."""
    return clean(name).casefold()
