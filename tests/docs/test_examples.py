"""Every example in README.md and docs/*.md is run: the docs cannot drift from what the bot does.

- Every backticked `/command …` of the pages is found automatically (tests/docs/examples.py): a new example is
  picked up without editing this file. Command syntax (`/practice [3|4|5] [repeats]`, `/scorer NAME`) is not an
  example; its command must exist. Spans that are not this bot's commands (paths, BotFather's commands) are
  listed in NOT_OURS with the reason.
- Each example runs in a fresh console session through the real App on a real SQLite file, after the setup lines
  of its context (a running Kegeln game for `/wurf 7 H`, a finished game for `/analyse`, a lobby for `/join` …).
  It must be answered, and the answer must not be a refusal: neither the App's verdict (`refused:<code>`) nor
  any text of the English catalog's refusal keys (`error.*`, `help.unknown`, …), nor the console's `? usage`.
- An example the docs show as refused input is in REFUSED with the refusal key the doc's words describe.
- Console transcripts in ``` blocks are played as scripts; the bot's reply lines a page shows are compared with
  what the bot says (numbers and dates that differ per run as placeholders).

A failing example reads `page:line: `example` → what the bot said`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app.turn import command_aliases
from bot.games.registry import commands
from tests.docs.examples import (
    PAGES,
    ROOT,
    Block,
    Said,
    Span,
    blocks,
    buttons,
    command_of,
    is_path,
    is_template,
    note,
    run,
    spans,
    texts,
)

# ------------------------------------------------------------------ what is not an example, and why
NOT_OURS = {  # command-like spans that are not this bot's commands
    "/cmd": "README: the generic form `/cmd` of any command",
    "/cmd@YourBot": "README: the generic Telegram form of any command (`/duel@KegelclubBot` is run)",
    "/newbot": "telegram.md: a BotFather command",
    "/mybots": "telegram.md: a BotFather command",
    "/setprivacy": "README: a BotFather command",
}
SKIPPED = {  # this bot's commands written in a form the console cannot run, or not an example at all
    "/guess code:0352": "discord.md: Discord's slash-command option form; the same guess is `/guess 0352`",
    "/kegeln high 3": "benchmarks.md: the start of a sentence ('with four names'), not a whole command",
    "/scorer": "kegeln.md: `/scorer` alone is for chat admins; console players are never admins",
    "/kasse absent": "kegeln.md: offers a /termin evening that has begun; the console's clock cannot reach one"
                     " (tests/club/test_cash_treasurer.py plays it)",
}
REFERENCES = {  # a bare command name in prose that needs its argument: its examples with arguments are run
    "guess", "wurf", "throw", "kegeln", "kegelmerge",
}
REFUSED = {  # examples the docs show as refused, with the refusal (catalog key) the docs' words describe
    "/": "error.no_command_name",  # README: "a lone `/` is told how a command is written"
    "/help foo": "help.unknown",  # README: "`/help foo` says that `foo` is unknown, then lists the commands"
    "/guess рос-т": "error.words.not_a_word",  # words.md: "no word of letters at all … is not a word"
    "/scorer Zoe": "error.kegeln.unknown_user",  # kegeln.md: "a name nobody … has written under … is refused"
    "/saison 31.02.": "error.kegeln.season.bad_date",  # kegeln.md: "A day that does not exist … is refused"
    "/timezone Europe/Berlin": "error.timezone.admins_only",  # daily.md: "the console has no admins, so … refused"
    "/posts off": "error.posts.admins_only",  # retention.md, README: "on the console without `--admin` … refused"
    "/kasse pay Klaus 5 USD": "error.kegeln.cash.other_currency",  # kegeln.md: "in another currency is refused"
}

# ------------------------------------------------------------------ contexts: what must have happened first
PRELUDE = ["bob: hello"]  # bob has written in the chat, so `/duel bob`, `/stats bob` know him


@dataclass(frozen=True)
class Context:
    setup: tuple[str, ...] = ()
    actor: str = "alice"  # who types the example; "starter": whoever the lot made the starter


def ctx(*setup: str, actor: str = "alice") -> Context:
    return Context(tuple(setup), actor)


DUEL_RUNNING = ("alice: /duel bob", "bob: /accept", "alice> 0123", "bob> 4567")
LOGIK_RUNNING = ("alice: /logik bob", "bob: /accept", "alice> 12345", "bob> 54321")
# dave (the console's chat admin, tests/docs/examples.py ADMIN) appoints alice the club's scorer: her games count
CLUB_SCORER = ("alice: hi", "dave: /verein scorer alice")
KEGELN = (*CLUB_SCORER, "alice: /kegeln high 3 Birgit Klaus Sven")
KEGELN_DONE = (*CLUB_SCORER, "alice: /kegeln high 2 Birgit Klaus", "alice: /wurf 7 10", "alice: /wurf 3 10",
               "alice: /wurf 5", "alice: /wurf 4")
KEGELN_TWO_NAMES = (*KEGELN_DONE, "alice: /kegeln high 2 Klausi Birgit", "alice: /wurf 7 10", "alice: /wurf 3 10",
                    "alice: /wurf 5", "alice: /wurf 4", "alice: /kegeln low 2 Klaus Sven", "alice: /wurf 2 10",
                    "alice: /wurf 3 10", "alice: /wurf 1", "alice: /wurf 4")
WORDS_JOINED = ("alice: /words", "bob: /join")
# the club's scorer alice sets its season start and merges (a role, never games played)
KEGELN_CLUB = CLUB_SCORER

# the cash box on, dave (the console's chat admin, tests/docs/examples.py ADMIN) its treasurer, Klaus a member
# with a fine booked tonight, the absent charged the evening's average, Dora a member without a game linked to dave
CASH = ("dave: hello", "dave: /kasse on", *KEGELN_DONE, "dave: /kasse average on", "dave: /kasse member Dora @dave")

CONTEXTS = {
    "none": ctx(),
    "practice": ctx("alice: /practice"),
    "practice over": ctx("alice: /practice", "alice: 0123", "alice: /giveup"),
    "challenge": ctx("alice: /duel bob", actor="bob"),
    "own challenge": ctx("alice: /duel bob"),
    "duel": ctx(*DUEL_RUNNING),
    "duel, the starter": ctx(*DUEL_RUNNING, actor="starter"),
    "duel over": ctx(*DUEL_RUNNING, "alice: /resign"),
    "bot duel over": ctx("alice: /duel bot easy 3", "alice> 012", "alice: 345", "alice: /resign"),
    "logik challenge": ctx("alice: /logik bob", actor="bob"),
    "own logik challenge": ctx("alice: /logik bob"),
    "logik": ctx(*LOGIK_RUNNING),
    "logik over": ctx(*LOGIK_RUNNING, "alice: /resign"),
    "lobby": ctx("alice: /words", actor="bob"),
    "own lobby": ctx(*WORDS_JOINED),
    "joined lobby": ctx(*WORDS_JOINED, actor="bob"),
    "words solo": ctx("alice: /words solo"),
    "daily": ctx("alice: /daily"),
    "kegeln": ctx(*KEGELN),
    "kegeln, a throw in": ctx(*KEGELN, "alice: /wurf 5 1"),
    "kegeln over": ctx(*KEGELN_DONE),
    "kegeln, two names of one member": ctx(*KEGELN_CLUB, *KEGELN_TWO_NAMES),
    "kegeln club over": ctx(*KEGELN_CLUB, *KEGELN_DONE),
    "club evening set": ctx(*KEGELN_CLUB, "alice: /termin 12.12. 19:30 Gasthof Krone"),  # alice is a scorer
    "club, the chair": ctx(*KEGELN_DONE, actor="dave"),  # the chat's admin keeps the roster
    "club, bob a scorer": ctx(*KEGELN_DONE, "bob: hi", "dave: /verein scorer bob", actor="dave"),
    "club, a link asked": ctx(*KEGELN_DONE, "bob: /verein link Klaus", actor="dave"),
    "kegeln, bob a scorer": ctx(*KEGELN, "bob: hi", "dave: /verein scorer bob"),  # a club game goes to a scorer
    "cash box, the treasurer": ctx(*CASH, actor="dave"),
    "kegeln, a chat admin": ctx("dave: hello", *KEGELN, actor="dave"),  # /tv new: only an admin makes a new link
}
BY_EXAMPLE = {  # an example whose arguments say which game it belongs to
    "/guess 0123": "practice", "/guess 1234": "practice", "/guess 4071": "duel, the starter",
    "/guess r g b y k": "logik", "/guess 12345": "logik",
    "/guess forte": "words solo", "/guess crane": "words solo", "/guess slump": "words solo",
    "/guess рос-т": "words solo",
    "/kegelstats Birgit": "kegeln over", "/scorer bob": "kegeln, bob a scorer",
    "/verein scorer remove bob": "club, bob a scorer", "/verein confirm Klaus": "club, a link asked",
    "/scorer Zoe": "kegeln",
    **{f"/{name}": "club evening set" for name in ("termin", "evening", "traff", "träff", "vstrecha", "встреча",
                                                    "sreshta", "среща")},  # shows the evening set
    "/termin cancel": "club evening set",
    **dict.fromkeys(("/tv new", "/tv neu", "/tv ny", "/tv новая"), "kegeln, a chat admin"),
}
BY_PAGE = {  # a bare command means what the page around it is about
    ("docs/logik.md", "accept"): "logik challenge", ("docs/logik.md", "decline"): "logik challenge",
    ("docs/logik.md", "cancel"): "own logik challenge", ("docs/logik.md", "resign"): "logik",
    ("docs/logik.md", "giveup"): "logik", ("docs/logik.md", "board"): "logik",
    ("docs/logik.md", "rematch"): "logik over",
    ("docs/words.md", "giveup"): "words solo", ("docs/words.md", "board"): "words solo",
    ("docs/words.md", "cancel"): "own lobby", ("docs/words.md", "resign"): "joined lobby",
    ("docs/kegeln.md", "board"): "kegeln", ("docs/kegeln.md", "cancel"): "kegeln",
    ("docs/daily.md", "board"): "daily", ("docs/daily.md", "giveup"): "daily",
    ("docs/solver.md", "rematch"): "bot duel over", ("docs/benchmarks.md", "board"): "duel",
}
BY_COMMAND = {
    "hint": "practice", "analyse": "practice over", "giveup": "practice", "resign": "duel", "board": "duel",
    "rematch": "duel over", "accept": "challenge", "decline": "challenge", "cancel": "own challenge",
    "join": "lobby", "begin": "own lobby", "leave": "joined lobby",
    "wurf": "kegeln", "throw": "kegeln", "undo": "kegeln, a throw in",
    "kegelstats": "kegeln over", "abend": "kegeln over", "kegelexport": "kegeln over",
    "saison": "kegeln club over", "jahresrueckblick": "kegeln over", "yearreview": "kegeln over",
    "arsrevy": "kegeln over", "itogi_goda": "kegeln over", "итоги_года": "kegeln over",
    "godishen_pregled": "kegeln over", "годишен_преглед": "kegeln over",
    "kegelmerge": "kegeln, two names of one member",
    "termin": "kegeln club over", "evening": "kegeln club over",  # alice: the club's appointed scorer
    **dict.fromkeys(("verein", "club", "klubb", "klub", "клуб"), "club, the chair"),
    **dict.fromkeys(("kasse", "cashbox", "kassa", "kasa", "касса", "каса"), "cash box, the treasurer"),
    "tv": "kegeln", "anzeigetafel": "kegeln", "resultattavla": "kegeln", "табло": "kegeln", "tablo": "kegeln",
}


def context_of(span: Span) -> str:
    cmd = command_of(span.text) or ""
    return BY_EXAMPLE.get(span.text) or BY_PAGE.get((span.page, cmd)) or BY_COMMAND.get(cmd, "none")


# ------------------------------------------------------------------ the examples
def _classify() -> tuple[list[Span], list[tuple[Span, str]], list[Span]]:
    """(examples to run — one per page and text, templates, skipped with the reason)."""
    run_, skipped, templates, seen = [], [], [], set()
    for page in PAGES:
        for span in spans(page):
            s = span.text
            if is_path(s):
                continue
            if is_template(s):
                templates.append(span)
            elif s in NOT_OURS:
                skipped.append((span, NOT_OURS[s]))
            elif s in SKIPPED:
                skipped.append((span, SKIPPED[s]))
            elif command_of(s) in REFERENCES and len(s.split()) == 1:
                skipped.append((span, "a bare command name in prose; its examples with arguments are run"))
            elif (span.page, s) not in seen:
                seen.add((span.page, s))
                run_.append(span)
    return run_, skipped, templates


EXAMPLES, SKIPPED_SPANS, TEMPLATES = _classify()

XFAIL: dict[tuple[str, str], str] = {  # (page, example) → why it fails today (strict: a fix must remove it)
}


def _param(span: Span) -> object:
    reason = XFAIL.get((span.page, span.text))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(span, id=f"{span.page}:{span.text}", marks=marks)


def play_example(span: Span, tmp: Path) -> tuple[Said, list[Said]]:
    context = CONTEXTS[context_of(span)]
    setup = run([*PRELUDE, *context.setup], tmp / "db.sqlite3") if context.setup else []
    actor = context.actor
    if actor == "starter":
        m = re.search(r"(\w+) starts, then", "".join(s.reply for s in setup))
        assert m, f"{span}: the duel of the context did not start: {[s.short() for s in setup]}"
        actor = m.group(1)
    said = run([*PRELUDE, *context.setup, f"{actor}: {span.text}"], tmp / "db2.sqlite3")
    return said[-1], said


def failure(span: Span, said: Said, what: str, context: str) -> str:
    return f"{span} [{context}] {what} → {said.short()[:400]}"


@pytest.mark.parametrize("span", [_param(s) for s in EXAMPLES])
def test_doc_example_is_answered_and_not_refused(span: Span, tmp_path: Path) -> None:
    said, _ = play_example(span, tmp_path)
    context = context_of(span)
    assert said.reply.strip(), failure(span, said, "not answered", context)
    expected = REFUSED.get(span.text)
    if expected:
        assert expected in said.refused(), failure(span, said, f"should be refused with {expected}", context)
    else:
        assert not said.refused(), failure(span, said, f"refused {said.refused()}", context)


def test_every_command_of_the_docs_exists() -> None:
    """Syntax lines (`/practice [3|4|5] [repeats]`) name real commands; so do the examples."""
    known = {c.name for c in commands()} | set(command_aliases(commands()))  # and their localised names
    unknown = [str(s) for s in TEMPLATES + EXAMPLES if command_of(s.text) not in known and s.text != "/"]
    assert not unknown, "\n".join(unknown)


def test_the_extraction_finds_the_examples() -> None:
    """The extractor sees the examples the docs are known to hold (a guard against a regex that finds nothing)."""
    texts_ = {(s.page, s.text) for s in EXAMPLES}
    for known in [("README.md", "/wurf 7 H"), ("README.md", "/duel bot strong"), ("docs/words.md", "/words limit 25"),
                  ("README.md", "/kegeln low 3 teams Birgit Klaus / Sven Hanne / Ute"), ("docs/kegeln.md", "/wurf 7h")]:
        assert known in texts_, known
    assert len(EXAMPLES) > 100
    assert all(reason for _, reason in SKIPPED_SPANS)


# ------------------------------------------------------------------ console transcripts
def transcript_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page) if b.inputs()]


def test_there_are_transcripts() -> None:
    assert any(b.page == "README.md" for b in transcript_blocks())


@pytest.mark.parametrize("block", [pytest.param(b, id=f"{b.page}:{b.line}") for b in transcript_blocks()])
def test_console_transcript_runs(block: Block, tmp_path: Path) -> None:
    """The input lines of a ``` block, played in order: every line answered as its note says, none refused.
    A guess "whoever the lot made the starter" needs the lot to pick that player: seeds are tried until it does."""
    failures: list[str] = []
    for seed in range(1, 9):
        said = run(block.inputs(), tmp_path / f"db{seed}.sqlite3", seed=seed)
        failures = [f"{block.page}:{block.line}: `{s.line}` refused {s.refused()} → {s.short()[:300]}"
                    for s in said if s.refused()]
        failures += _check_notes(block, said)
        if not failures:
            break
    assert not failures, "\n".join(failures)


def _check_notes(block: Block, said: list[Said]) -> list[str]:
    """`bob clicks b1   # bob presses button b1 (✅ Accept)`: b1 is the button the note names."""
    out, shown = [], ""
    notes = [note(x) for x in block.lines if x.strip() and (note(x) or not x.startswith("#"))]
    for s, n in zip(said, notes, strict=False):
        m = re.match(r"(\w+) clicks (b\d+)", s.line)
        label = re.search(r"\(([^)]*)\)\s*$", n)
        if m and label and buttons(shown).get(label.group(1)) != m.group(2):
            out.append(f"{block.page}:{block.line}: `{s.line}`: {m.group(2)} is not “{label.group(1)}”: "
                       f"{buttons(shown)}")
        shown += s.reply
    return out


def test_readme_says_how_the_console_answers(tmp_path: Path) -> None:
    """README: the bot answers `[#table] …` for the group, `[@alice] …` privately; buttons `(b3) Accept  (b4) …`."""
    block = next(b for b in transcript_blocks() if b.page == "README.md")
    out = "".join(s.reply for s in run(block.inputs(), tmp_path / "db.sqlite3", seed=1))
    assert re.search(r"^\[#table\] ", out, re.M) and re.search(r"^\[@alice\] ", out, re.M), out
    assert re.search(r"\(b\d+\) \S* ?Accept  \(b\d+\) \S* ?Decline", out), out


# ------------------------------------------------------------------ reply blocks: what the bot is shown to say
@dataclass(frozen=True)
class Reply:
    script: tuple[str, ...]  # console lines; the last one's answer is compared with the block
    placeholders: tuple[tuple[str, str], ...] = ()  # doc text → regex, for what differs per run


def _kegeln_evening() -> tuple[str, ...]:
    """Two games that give exactly the evening docs/kegeln.md shows: Sven wins a high game, Hanne a low one
    after a tie the scorer decides; Hanne and Sven threw two 9s, Klaus and Sven one Pumpe, Hanne ⌀ 6.0."""
    game1 = ["/kegeln high 3 Sven Hanne Klaus", "/wurf 9 h", "/wurf 9 h", "/wurf 0 h", "/wurf 9 t", "/wurf 8 t",
             "/wurf 5 t", "/wurf 0", "/wurf 9", "/wurf 5"]
    game2 = ["/kegeln low 2 Hanne Klaus Sven", "/wurf 1 t", "/wurf 1 t", "/wurf 5 t", "/wurf 3", "/wurf 3", "/wurf 5"]
    return (*CLUB_SCORER, *(f"alice: {x}" for x in game1 + game2), "alice clicks 🏆 Hanne", "alice: /abend")


REPLIES = {  # (page, first line of the block) → how to make the bot say it
    ("docs/kegeln.md", "🎳 Birgit: 7 pins → hundreds."): Reply(
        ("alice: /kegeln high 3 Birgit Klaus Sven", "alice: /wurf 7 H")),
    ("docs/kegeln.md", "📅 Next club evening: Sat, Dec 12, 2026, 19:30 — Gasthof Krone"): Reply(
        (*KEGELN_CLUB, "alice: /termin 12.12. 19:30 Gasthof Krone", "Birgit clicks ✅ I'm coming",
         "Sven clicks ✅ I'm coming", "Klaus clicks ❌ I can't", "alice: /termin"),
        (("Sat, Dec 12, 2026", r"[A-Z][a-z]{2}, Dec 12, \d{4}"),)),  # the next 12 December
    ("docs/kegeln.md", "🎳 Club evening, Mar 7, 2026: 2 games"): Reply(
        _kegeln_evening(), (("Mar 7, 2026", r"[A-Z][a-z]{2} \d{1,2}, \d{4}"), ("#12", "#1"), ("#13", "#2"))),
}


def reply_blocks() -> list[tuple[Block, Reply | None]]:
    """Blocks without input lines that show what the bot says: they start like a bot message (an emoji)."""
    found = []
    for page in PAGES:
        for b in blocks(page):
            if not b.inputs() and b.lines and re.match(r"[^\w\s#$`{<>/.-]", b.lines[0]):
                found.append((b, REPLIES.get((b.page, b.lines[0]))))
    return found


def test_every_reply_block_has_a_script() -> None:
    missing = [f"{b.page}:{b.line}: {b.lines[0]}" for b, r in reply_blocks() if r is None]
    assert not missing, "a ``` block shows bot output but REPLIES has no script for it:\n" + "\n".join(missing)
    assert len(reply_blocks()) >= 2


def _press(lines: tuple[str, ...], tmp: Path) -> list[Said]:
    """Play `lines`; `who clicks LABEL` presses the newest button with that label (found by playing the lines
    before it: a seeded session numbers its buttons the same every time)."""
    script = list(lines)
    for i, line in enumerate(script):
        m = re.match(r"(\w+) clicks (?!b\d+$)(.+)$", line)
        if m:
            shown = buttons("".join(s.reply for s in run(script[:i], tmp / f"db{i}.sqlite3")))
            assert m.group(2) in shown, f"no button {m.group(2)!r} in {shown}"
            script[i] = f"{m.group(1)} clicks {shown[m.group(2)]}"
    return run(script, tmp / "db.sqlite3")


@pytest.mark.parametrize("block,reply", [pytest.param(b, r, id=f"{b.page}:{b.line}") for b, r in reply_blocks()
                                         if r is not None])
def test_reply_block_is_what_the_bot_says(block: Block, reply: Reply, tmp_path: Path) -> None:
    said = _press(reply.script, tmp_path)
    last = said[-1]
    assert not last.refused(), f"{block.page}:{block.line}: `{last.line}` refused → {last.short()}"
    got = [x.strip() for x in texts(last.reply).splitlines()]
    at = 0  # the doc's lines, in the doc's order
    for doc_line in block.lines:
        pattern = re.escape(doc_line.strip())
        for text, regex in reply.placeholders:
            pattern = pattern.replace(re.escape(text), regex)
        found = next((i for i in range(at, len(got)) if re.fullmatch(pattern, got[i])), None)
        assert found is not None, \
            f"{block.page}:{block.line}: the doc shows “{doc_line.strip()}”, the bot said:\n" + "\n".join(got[at:])
        at = found + 1


# ------------------------------------------------------------------ no dead ends: what the pages link to exists
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces → hyphens."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.M)}


def test_every_link_of_the_docs_leads_somewhere() -> None:
    dead = []
    for page in PAGES:
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # https://…, mailto: — outside the repository
                file, _, anchor = target.partition("#")
                path = (page.parent / file) if file else page
                if not path.exists() or (anchor and path.suffix == ".md" and anchor not in _anchors(path)):
                    dead.append(f"{page.relative_to(ROOT)}:{number}: ({target})")
    assert not dead, "links to nothing:\n" + "\n".join(dead)


def test_the_docs_cite_no_file_outside_the_repository() -> None:
    """A rule or a file the docs cite is one a reader of the repository can open (docs/rules.md, not a shared
    folder of the project's authors)."""
    outside = [f"{page.relative_to(ROOT)}:{n}: {line.strip()}" for page in PAGES
               for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
               if re.search(r"/work/|\.\./shared|(?<![\w/.])RULES\.md", line)]
    assert not outside, "\n".join(outside)


# ------------------------------------------------------------------ no false words: the bot's sentences the docs quote
def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


LOGIK_ROUNDS = ("Bob: hello", "alice: /logik Bob", "Bob: /accept", "alice> 12345", "Bob> 54321")
QUOTES = [  # (page, the quote as the page writes it, a session whose answers say it)
    ("docs/zahlenraten.md", "“12a4” is not a code: a code here is 4 digits 0–9, all digits different",
     ("Bob: hello", "alice: /duel Bob", "Bob: /accept", "alice> 12a4")),
    ("docs/zahlenraten.md", "The challenge has not been accepted yet",
     ("Bob: hello", "alice: /duel Bob", "alice: 1234")),
    ("docs/zahlenraten.md", "Bob has not set a secret code yet",
     ("Bob: hello", "alice: /duel Bob", "Bob: /accept", "alice> 0123", "alice: 4567")),
    ("docs/logik.md", "“rows” needs the number of rows after it: 8–12", ("alice: /logik rows",)),
    ("docs/logik.md", "“z” is not a colour", ("Bob: hello", "alice: /logik Bob", "Bob: /accept", "alice> rgbyz")),
    ("docs/logik.md", "Bob has not set a secret row yet",
     ("Bob: hello", "alice: /logik Bob", "Bob: /accept", "alice> 12345", "alice: 12345")),
    ("docs/logik.md", "`12349` → \"“9” is not a colour\"", (*LOGIK_ROUNDS, "alice: 12349")),
    ("docs/logik.md", "`r g b y x` (\"“x” is not a colour\")", (*LOGIK_ROUNDS, "alice: r g b y x")),
    ("docs/logik.md", "`r g b` (\"A row has 5 pegs, not 3\")", (*LOGIK_ROUNDS, "alice: r g b")),
    ("docs/logik.md", "`rgbyz` (\"“z” is not a colour\")", (*LOGIK_ROUNDS, "alice: rgbyz")),
    ("docs/logik.md", "`rgby` (\"A row has 5 pegs, not 4\")", (*LOGIK_ROUNDS, "alice: rgby")),
    ("docs/logik.md", "`hello` during the rounds gets \"“h” is not a colour\"", (*LOGIK_ROUNDS, "alice: hello")),
    ("docs/logik.md", "`row 3: Alice ✓ — waiting for Bob`",
     ("Bob: hello", "Alice: /logik Bob", "Bob: /accept", "Alice> 12345", "Bob> 54321", "Alice: 11111",
      "Bob: 11111", "Alice: 22222", "Bob: 22222", "Alice: 33333")),
    ("docs/words.md", "`/guess рос-т` → \"“рос-т” is not a word\"",
     ("alice: /words solo lang ru length 5", "alice: /guess рос-т")),
    ("docs/words.md", "\"The word is given up; it was crane. Bob gets 10 guesses added as a penalty\"",
     ("Ann: /words", "Bob: /join", "Ann: /begin", "Ann> crane", "Bob> crane", "Bob: /giveup", "Ann: /giveup")),
    ("docs/words.md", "\"You are not in this lobby yet: /join it first. Ann opened it …\"",
     ("Ann: /words", "Bob: /begin")),
    ("docs/kegeln.md", "\"No 9s tonight.\" / \"No Pumpe tonight\"", (*KEGELN_DONE, "alice: /abend")),
    ("docs/kegeln.md", "the \"no finished Kegeln games\" text", ("alice: /kegelexport",)),
    ("docs/solver.md", "`💡 Ann: 1293 words still fit. A strong next guess: stare`",
     ("Ann: /words solo answers counts", "Ann: /hint")),
]


def _said_parts(quote: str) -> list[str]:
    """What the bot must say: the "…" or `…` parts of the quote (else all of it), without a trailing …."""
    parts = re.findall(r"\"([^\"]+)\"", quote) or re.findall(r"`([^`]+)`$", quote) or [quote]
    return [p.rstrip(" …") for p in parts]


@pytest.mark.parametrize("page,quote,script", [pytest.param(*q, id=f"{q[0]}:{q[1][:40]}") for q in QUOTES])
def test_a_quoted_answer_is_what_the_bot_says(page: str, quote: str, script: tuple[str, ...], tmp_path: Path) -> None:
    """The page still quotes it, and the session says it. A quote that names a player needs the lot to have
    picked that player (the setter, the starter): seeds are tried until it has."""
    assert _flat(quote) in _flat((ROOT / page).read_text(encoding="utf-8")), f"{page} no longer says {quote}"
    missing: list[str] = []
    for seed in range(1, 9):
        said = run(list(script), tmp_path / f"db{seed}.sqlite3", seed=seed)
        out = _flat(texts("".join(s.reply for s in said)))
        missing = [p for p in _said_parts(quote) if _flat(p) not in out]
        if not missing:
            return
    raise AssertionError(f"{page}: the page quotes “{' / '.join(missing)}”, the bot said: "
                         + " ⏎ ".join(s.short() for s in said[-3:]))
