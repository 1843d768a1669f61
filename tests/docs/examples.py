"""What the docs promise, in a form a test can run: every backticked `/command …` of README.md and docs/*.md,
the console transcripts in ``` blocks, and a console session that plays them through the real App.

A refusal is recognised by the App's own verdict (the `refused:<code>` outcome it logs for every inbound) and by
the English catalog: every `error.*` text (and the other "I cannot do that" texts in REFUSAL_KEYS) becomes a
pattern, so no refusal phrase is written down twice."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters.console.adapter import CLICK, LINE, ConsoleAdapter, parse_command
from bot.app.app import App
from bot.texts.i18n import Catalogs
from bot.web import server as tv_server

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```[^\n]*$", re.S | re.M)
SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
PLACEHOLDER = re.compile(r"[A-Z]{3,}(-\S*)?…?|N")  # CODE, NAME, PINS, PLACE, NAME-or-mention, N
TEMPLATE_MARKS = ("[", "]", "|", "…")
ADMIN = "dave"  # the console player who administers #table (`--admin`): only the cash box's examples use him


def page_name(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ extraction
@dataclass(frozen=True)
class Span:
    page: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: `{self.text}`"


def spans(path: Path) -> list[Span]:
    """Every backticked span outside ``` blocks that starts with "/" (`\\|` of tables unescaped)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), path.read_text(encoding="utf-8"))
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in SPAN.finditer(line):
            s = m.group(1).replace("\\|", "|").strip()
            if s.startswith("/"):
                found.append(Span(page_name(path), number, s))
    return found


def is_path(s: str) -> bool:
    """`/proc/self/status`, `/api/v10`, `/work/…`: a file or URL path, not a command."""
    return " " not in s and s.count("/") >= 2


def is_template(s: str) -> bool:
    """Command syntax (`/practice [3|4|5] [repeats]`, `/scorer NAME`), not an example."""
    return any(mark in s for mark in TEMPLATE_MARKS) or any(PLACEHOLDER.fullmatch(tok) for tok in s.split()[1:])


def command_of(s: str) -> str | None:
    parsed = parse_command(s)
    return parsed[0] if parsed else None


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # the line of the opening ```
    lines: tuple[str, ...]

    def inputs(self) -> list[str]:
        return [strip_note(x) for x in self.lines if is_input(strip_note(x))]


INPUT = re.compile(r"^[A-Za-z]\w*(: |> | clicks b\d+\b)")


def is_input(line: str) -> bool:
    return bool(INPUT.match(line) and (LINE.match(line) or CLICK.match(line)))


def strip_note(line: str) -> str:
    """`alice: /duel bob          # alice challenges bob` → `alice: /duel bob` (two spaces and # start a note)."""
    return re.sub(r"\s{2,}#.*$", "", line).rstrip()


def note(line: str) -> str:
    m = re.search(r"\s{2,}#\s*(.*)$", line)
    return m.group(1) if m else ""


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return [Block(page_name(path), text[:m.start()].count("\n") + 1, tuple(m.group(1).rstrip("\n").split("\n")))
            for m in FENCE.finditer(text)]


# ------------------------------------------------------------------ refusals, from the catalog
REFUSAL_KEYS = ("error.", "help.unknown", "private.hint", "private.no_game")
CATALOGS = Catalogs()
EN: dict[str, Any] = CATALOGS.catalogs["en"]


def _pattern(template: str) -> re.Pattern[str] | None:
    parts = re.split(r"\{[^{}]*\}", template)
    if sum(len(p.strip()) for p in parts) < 8:
        return None
    return re.compile(".+?".join(re.escape(p) for p in parts), re.S)


def _refusal_patterns() -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for key, entry in EN.items():
        if not key.startswith(REFUSAL_KEYS):
            continue
        for text in entry.values() if isinstance(entry, dict) else [entry]:
            pattern = _pattern(str(text))
            if pattern:
                out.append((key, pattern))
    return out


REFUSALS = _refusal_patterns()
CONSOLE_REFUSAL = re.compile(r"^\[@?[^\]]+\] \? ", re.M)  # the console's own "? usage" / "? b99"


def texts(reply: str) -> str:
    """The console's output as the messages' own text: no `[#table] ` heads, no two-space indent."""
    return re.sub(r"^(\[[^\]\n]+\] |  )", "", reply, flags=re.M)


def refusal_keys(reply: str) -> list[str]:
    plain = texts(reply)
    keys = [key for key, pattern in REFUSALS if pattern.search(plain)]
    if CONSOLE_REFUSAL.search(reply):
        keys.append("console.usage")
    return keys


# ------------------------------------------------------------------ a console session through the real App
@dataclass
class Said:
    line: str
    reply: str
    outcomes: list[str] = field(default_factory=list)

    def refused(self) -> list[str]:
        """Catalog keys of the refusals in the reply, plus the App's own refused:/crashed verdicts."""
        found = refusal_keys(self.reply)
        found += [o for o in self.outcomes if o.startswith("refused:") or o == "crashed"]
        return found

    def short(self) -> str:
        return " ⏎ ".join(x.strip() for x in self.reply.strip().splitlines()) or "(no answer)"


class _Outcomes(logging.Handler):
    """The App logs `… -> OUTCOME (n ms)` for every inbound; collect the outcomes."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        m = re.search(r" -> (\S+) \(", record.getMessage())
        if m:
            self.seen.append(m.group(1))


async def play(lines: list[str], db: Path, seed: int = 3, lang: str | None = None) -> list[Said]:
    """Feed console protocol lines one by one to a fresh App on `db`; what each line got back."""
    app = await App.open(str(db), seed=seed, default_lang=lang or "en")
    await tv_server.start(app, "127.0.0.1", None, "http://127.0.0.1:8080")  # /tv's links (docs/tv.md); no server
    out = io.StringIO()
    console = ConsoleAdapter(app.handle, out=out, locale=lang, image_dir=db.parent / "boards",
                             admins=(ADMIN,))
    handler = _Outcomes()
    applog = logging.getLogger("bot.app.app")
    level = applog.level
    applog.addHandler(handler)
    applog.setLevel(logging.INFO)
    said = []
    try:
        for line in lines:
            start, seen = out.tell(), len(handler.seen)
            await console.feed(line)
            said.append(Said(line, out.getvalue()[start:], handler.seen[seen:]))
    finally:
        applog.removeHandler(handler)
        applog.setLevel(level)
        await app.close()
    return said


def run(lines: list[str], db: Path, seed: int = 3, lang: str | None = None) -> list[Said]:
    return asyncio.run(play(lines, db, seed, lang))


def buttons(text: str) -> dict[str, str]:
    """Label → number of the buttons shown in `text` (the newest wins)."""
    return {label.strip(): num for num, label in re.findall(r"\((b\d+)\) ([^(\n]+)", text)}

