"""No catalog placeholder ever reaches a user: every command, with typical and odd arguments, in a group
and privately, in every language, on an empty chat and on a chat with games of every kind (running,
finished, an earlier season's), through the real App over a real SQLite file. Every rendered reply —
texts, button labels, notices — is searched for a `{name}` left unfilled and for a bare catalog key;
the suite-wide guard (tests/textguard.py) also fails on any text rendered without a parameter."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

from bot.app.app import App
from bot.games.registry import commands
from core.messages import Actor, Chat, Inbound, Response
from tests.app.conftest import Clock
from tests.app.harness import PLATFORM, Table

RAW = re.compile(r"\{[A-Za-z_][\w.]*\}")
GROUP = Chat(PLATFORM, "group-1", private=False)
LANGS = ("en", "de", "ru", "bg", "sv")
# arguments every command gets (typical ones, odd ones, a year, a name, a mention, a number)
COMMON: tuple[tuple[str, ...], ...] = (
    (), ("foo",), ("2024",), ("2025",), ("0",), ("<@bob>",), ("Anna",), ("all",), ("Anna", "Ben"), ("??",),
)
OWN: dict[str, tuple[tuple[str, ...], ...]] = {  # what a command takes besides
    "kegeln": (("high", "3", "Anna", "Ben"), ("low", "2", "teams", "A", "B", "/", "C", "D")),
    "wurf": (("7",), ("7", "h"), ("pumpe",)), "duel": (("<@bob>", "5"), ("bot", "strong")),
    "daily": (("logik",), ("words", "board"), ("1a2b", "table")), "top": (("duel", "all"), ("kegeln", "all")),
    "rating": (("kegeln", "Anna"), ("duel", "bob")), "stats": (("logik",), ("kegeln",)),
    "guess": (("0123",), ("12345",)), "kegelmerge": (("Anna", "Ben"), ("Anna", "/", "Zed")),
    "timezone": (("Europe/Berlin",), ("Mars/Base",)), "lang": (("de",), ("xx",)),
    "help": (("kegelexport",), ("nothing",)), "words": (("5",), ("solo",)), "logik": (("bot",),),
}


def scan(r: Response, catalog_keys: set[str], where: str) -> list[str]:
    """What of a reply shows a raw placeholder or a bare catalog key."""
    found = []
    shown = [("notice", r.notice or "")]
    for m in r.messages:
        shown.append(("text", m.text))
        shown += [("button", b.label) for row in m.buttons for b in row]
    for part, text in shown:
        if RAW.search(text) or any(line.strip() in catalog_keys for line in text.splitlines()):
            found.append(f"{where} {part}: {text[:160]!r}")
    return found


async def finished_kegeln(app: App, who: str = "keeper") -> None:
    table = Table(app)
    await table.say(who, "/kegeln high 2 Anna Ben")
    for pins, pos in ((7, "10"), (3, "10"), (2, "1"), (5, "1")):
        r = await table.say(who, f"/wurf {pins} {pos}")
    assert "🏆" in "\n".join(m.text for m in r.messages)


async def drive(app: App, catalog_keys: set[str], tag: str) -> list[str]:
    """Every command with every argument set, in the group and privately; the player (a scorer, or
    not) and the language rotate, so that each command is read in every language."""
    found: list[str] = []
    n = 0
    for cmd in commands():
        for args in (*COMMON, *OWN.get(cmd.name, ())):
            for private in (False, True):
                n += 1
                who = ("alice", "scorer")[n // 2 % 2]
                chat = Chat(PLATFORM, f"dm-{who}", private=True) if private else GROUP
                lang = LANGS[n % len(LANGS)]
                r = await app.handle(Inbound(Actor(PLATFORM, who, who.capitalize(), lang), chat, command=cmd.name,
                                             args=args, event_id=f"{tag}-{n}"))
                where = f"/{cmd.name} {' '.join(args)} ({who}, {lang}, {'private' if private else 'group'}, {tag})"
                found += scan(r, catalog_keys, where)
                found += await press_all(app, r, who, chat, catalog_keys, f"{tag}-{n}")
    return found


async def press_all(app: App, r: Response, who: str, chat: Chat, catalog_keys: set[str], tag: str) -> list[str]:
    """Every button of a reply pressed by someone else (the usual refusals), and by the actor."""
    found = []
    for i, action in enumerate(b.action for m in r.messages for row in m.buttons for b in row):
        if action.endswith((":yes", "-yes")):
            continue  # a merge's ✅ would change the chat under the next commands
        for presser in ("mallory", who):
            ib = Inbound(Actor(PLATFORM, presser, presser.capitalize(), LANGS[i % len(LANGS)]), chat, action=action,
                         event_id=f"{tag}-b{i}-{presser}")
            found += scan(await app.handle(ib), catalog_keys, f"button {action} ({presser})")
    return found


async def test_no_reply_of_any_command_shows_a_raw_placeholder(
        db: str, clock: Clock, _no_raw_texts: list[logging.LogRecord]) -> None:
    clock.now = datetime(2025, 3, 7, 20, 0, tzinfo=UTC).timestamp()  # a Kegel evening of season 2025
    app = await App.open(db, seed=3, clock=clock, idle_timeout=3600 * 24 * 400)
    try:
        keys = {k for cat in app.catalogs.catalogs.values() for k in cat}
        found = await drive(app, keys, "empty")  # an empty chat
        await finished_kegeln(app)
        clock.now = datetime(2026, 11, 30, 19, 0, tzinfo=UTC).timestamp()  # this season has no game yet
        table = Table(app)
        await table.say("bob", "/practice 3")
        await table.say("carol", "/duel <@dave>")
        await table.say("erin", "/words")
        await table.say("scorer", "/kegeln low 2 Cleo Dan")
        found += await drive(app, keys, "busy")
        unfilled = sorted({r.getMessage() for r in _no_raw_texts})
        _no_raw_texts.clear()  # said here, not again at teardown
        assert (found, unfilled) == ([], []), "\n".join(found[:20] + unfilled)
    finally:
        await app.close()
