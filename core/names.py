"""Names as people see them: one spelling for what looks the same.

`Bir\u200bgit` and `Birgit` look alike in a chat, and a right-to-left override can make a name read
backwards. Every name the bot compares or stores (a player's display name, a Kegeln club member,
a name typed after /duel, /stats, /scorer or /kegelstats) goes through `clean` first: Unicode NFKC,
invisible format characters (zero-width spaces and joiners, bidi controls, the BOM, soft hyphens)
and other control characters dropped, runs of whitespace collapsed to one space, ends trimmed.
Blank-looking letters (the Braille blank, the Hangul fillers, Khmer inherent vowels) are dropped
like the invisible ones, and a name of nothing but accents (combining marks) is no name.
`key` is the form names are compared in (case-insensitive); `mixed_script` finds a word whose
letters come from two of the alphabets whose letters look alike (Latin "Klaus", Cyrillic "Кlaus")."""

from __future__ import annotations

import unicodedata

# letters that show as nothing: the Braille blank, Hangul fillers (NFKC makes U+FFA0 and U+3164 U+1160),
# Khmer inherent vowels, the Mongolian vowel separator
BLANKS = frozenset("\u2800\u115f\u1160\u3164\uffa0\u17b4\u17b5\u180e")
LOOKALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")  # alphabets sharing letter shapes (K/К/Κ, a/а/α …)


def clean(name: str) -> str:
    """The name to show and store; "" when nothing visible is left."""
    text = unicodedata.normalize("NFKC", name)
    kept: list[str] = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch.isspace():
            kept.append(" ")
        elif cat in ("Cf", "Cc", "Cs") or ch in BLANKS:  # format (zero-width, bidi), control, surrogate, blanks
            continue
        else:
            kept.append(ch)
    out = " ".join("".join(kept).split())
    if not any(unicodedata.category(ch)[0] not in "MZ" for ch in out):  # accents only: nothing to read
        return ""
    return out


def mixed_script(name: str) -> bool:
    """Whether a word of the name mixes letters of two look-alike alphabets ("Кlaus": a Cyrillic К)."""
    for word in name.split():
        scripts = {s for ch in word if ch.isalpha()
                   for s in LOOKALIKE_SCRIPTS if unicodedata.name(ch, "").startswith(s)}
        if len(scripts) > 1:
            return True
    return False


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
