"""/abend (tonight's summary) and /kegelexport (the CSV throw log) through the App on real SQLite,
plus the pure report helpers and the console adapter's file output."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from adapters.console.adapter import GROUP as CONSOLE_GROUP
from adapters.console.adapter import ConsoleAdapter
from core.club import season as kegeln_season
from core.club import summary as kegeln_report
from core.messages import Outbound, Response
from tests.app.conftest import Clock
from tests.app.harness import Table, texts
from tests.games.kegeln.test_app import start
from tests.games.kegeln.test_rules import SEED_THROWS

HOUR = 3600.0


def when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")


async def evening(table: Table, clock: Clock) -> tuple[int, int, int, float, float]:
    """Game A (low, yesterday: 13 hours before), then tonight game B (the seed round, high) and
    game C (low, an hour later, a tie the scorer decides for Hanne). Returns the game ids and the
    times of A and B."""
    yesterday = clock.now
    a = await start(table, "/kegeln low 2 Birgit Klaus")
    for cmd in ("9 10", "1 10", "9", "1"):  # Birgit 99, Klaus 11: Klaus wins low; Birgit throws two 9s
        await table.say("alice", f"/wurf {cmd}")
    clock.now = tonight = yesterday + 13 * HOUR
    b = await start(table)
    for pins, pos in SEED_THROWS:
        r = await table.say("alice", f"/wurf {pins} {10 ** pos}")
    assert "Winner: Sven" in texts(r)
    clock.now = tonight + HOUR
    c = await start(table, "/kegeln tief 2 Sven Hanne")
    for cmd in ("pumpe 10", "9 10", "9"):  # Sven: Pumpe (counts 9) + 9 = 99, Hanne 9 + 9 = 99
        r = await table.say("alice", f"/wurf {cmd}")
    r = await table.say("alice", "/wurf 9")
    assert "Tie for first place with 99" in texts(r)
    r = await table.press("alice", table.button(r, ":w1"))
    assert "named the winner: Hanne" in texts(r)
    clock.now = tonight + 2 * HOUR
    return a, b, c, yesterday, tonight


async def test_abend_summarises_this_club_evening(table: Table, clock: Clock) -> None:
    clock.now = datetime(1970, 1, 11, 18, tzinfo=UTC).timestamp()  # A on the 11th, B and C on the 12th
    r = await table.say("bob", "/abend")
    assert texts(r) == "🎳 No Kegeln game has finished in this chat this evening (since 06:00, /timezone)."
    _a, b, c, _, _tonight = await evening(table, clock)
    r = await table.say("bob", "/abend")
    # game A (the evening before) does not count: else Birgit's two 9s and Klaus's low win would show
    assert texts(r) == "\n".join([
        "🎳 Club evening, Jan 12, 1970: 2 games",  # the evening's day, medium format
        f"#{b} high numbers, 3 places: 🏆 Sven",
        f"#{c} low numbers, 2 places: 🏆 Hanne (tie, decided by the scorer)",
        "👑 Evening king: Hanne — 1 win, 6.0 pins per throw",  # Sven won one too, but threw 4.6
        "🎯 Most 9s: Hanne, Sven — 2 nines",  # Sven 1 + 1, Hanne 0 + 2
        "💨 Pumpen king: Klaus, Sven — 1 Pumpe",  # a tie on one Pumpe each: singular
        "📈 Best Kegel-Schnitt: Hanne — 6.0 pins per throw",  # (12 + 18) / 5; Sven 23 / 5 = 4.6
    ])
    german = Table(table.app, locale="de", group=table.group)
    r = await german.say("ute", "/abend")
    assert "Kegelabend, 12.01.1970: 2 Spiele" in texts(r)  # date and decimals in German
    assert "Bester Kegel-Schnitt: Hanne — 6,0 Kegel pro Wurf" in texts(r)
    assert "Pumpenkönig: Klaus, Sven — 1 Pumpe" in texts(r)
    assert "Kegelkönig des Abends: Hanne — 1 Sieg, 6,0 Kegel pro Wurf" in texts(r)
    assert "(Gleichstand, vom Schreiber entschieden)" in texts(r)
    # the evening runs until 06:00 the next morning (UTC here: no /timezone), then a new one starts
    clock.now = datetime(1970, 1, 13, 5, 59, tzinfo=UTC).timestamp()
    assert texts(await table.say("bob", "/abend")).splitlines()[0] == "🎳 Club evening, Jan 12, 1970: 2 games"
    clock.now = datetime(1970, 1, 13, 6, 0, tzinfo=UTC).timestamp()
    assert "No Kegeln game" in texts(await table.say("bob", "/abend"))


async def test_abend_without_nines_and_pumpen(table: Table) -> None:
    await start(table, "/kegeln high 2 Anna Ben")
    for cmd in ("5 10", "4 10", "3", "2"):
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("bob", "/abend")
    assert texts(r).splitlines()[2:] == ["👑 Evening king: Anna — 1 win, 4.0 pins per throw",
                                         "🎯 No 9s tonight.", "💨 No Pumpe tonight — well bowled!",
                                         "📈 Best Kegel-Schnitt: Anna — 4.0 pins per throw"]


async def test_kegelexport_sends_the_throw_log_as_csv(table: Table, clock: Clock) -> None:
    r = await table.say("bob", "/kegelexport")
    assert "No finished Kegeln games" in texts(r) and r.messages[0].file is None
    a, b, c, yesterday, tonight = await evening(table, clock)
    await start(table, "/kegeln high 2 Anna Ben")  # a running game is not in the log
    await table.say("alice", "/wurf 5 10")
    r = await table.say("bob", "/kegelexport")
    (msg,) = r.messages
    assert msg.file is not None
    name, data = msg.file
    assert name == "kegeln-group-1.csv"
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, for spreadsheets
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    y, t, t1 = when(yesterday), when(tonight), when(tonight + HOUR)
    seed_names = ["Birgit", "Klaus", "Sven", "Hanne"] * 3
    season = str(datetime.fromtimestamp(tonight, UTC).year)  # the calendar year by default
    expected = [
        ["date", "game", "member", "pins", "position", "digit", "season"],
        [y, str(a), "Birgit", "9", "10", "9"], [y, str(a), "Klaus", "1", "10", "1"],
        [y, str(a), "Birgit", "9", "1", "9"], [y, str(a), "Klaus", "1", "1", "1"],
        *[[t, str(b), n, str(p), str(10 ** pos), str(p)] for n, (p, pos) in zip(seed_names, SEED_THROWS, strict=True)],
        [t1, str(c), "Sven", "0", "10", "9"], [t1, str(c), "Hanne", "9", "10", "9"],
        [t1, str(c), "Sven", "9", "1", "9"], [t1, str(c), "Hanne", "9", "1", "9"],
    ]
    assert parsed == [expected[0], *([*row, season] for row in expected[1:])]
    # the member table (as /kegelstats shows it) is the message text
    assert texts(r).splitlines() == [
        "📄 The club's throw log: 3 games, 20 throws (CSV). Members (games · wins high/low · 9s · Pumpen · "
        "Kegel-Schnitt):",
        "1. Hanne — 2 · 0/1 · 9×2 · P×0 · ⌀ 6.0",
        "2. Sven — 2 · 1/0 · 9×2 · P×1 · ⌀ 4.6",
        "3. Klaus — 2 · 0/1 · 9×0 · P×1 · ⌀ 2.6",
        "4. Birgit — 2 · 0/0 · 9×2 · P×0 · ⌀ 6.0",
    ]


def test_evening_king_is_most_wins_then_the_best_schnitt() -> None:
    # (name, games, 9s, Pumpen, pins, throws, wins)
    rows = [("Anna", 3, 0, 2, 30, 6, 2), ("Ben", 3, 1, 2, 40, 6, 1), ("Cleo", 3, 0, 0, 24, 6, 2)]
    king = kegeln_report.evening_king(rows)
    assert king == kegeln_report.Best(("Anna",), (2, 5.0))  # Anna and Cleo won two; Anna threw 5.0, Cleo 4.0
    level = [("Anna", 2, 0, 0, 10, 2, 1), ("Ben", 2, 0, 0, 15, 3, 1)]  # 5.0 each: both wear the crown
    assert kegeln_report.evening_king(level) == kegeln_report.Best(("Anna", "Ben"), (1, 5.0))
    assert kegeln_report.evening_king([("Anna", 1, 0, 0, 9, 2, 0)]) is None  # nobody won
    assert kegeln_report.evening_king([]) is None
    assert kegeln_report.pumpen_king(rows) == kegeln_report.Best(("Anna", "Ben"), 2)
    assert kegeln_report.pumpen_king([("Cleo", 3, 0, 0, 24, 6, 2)]) is None  # no Pumpe: no king


def test_crowns_count_the_evenings_each_member_was_king() -> None:
    def row(member: str, day: int, win: int, pins: int, name: str = "") -> kegeln_season.SeasonRow:
        at = datetime(2026, 3, day, 20, tzinfo=UTC).timestamp()
        return kegeln_season.SeasonRow(member, name or member.title(), 1, at, "high", 2, None, 0, 1, win, 2, pins, 0, 0)
    rows = [row("anna", 1, 1, 10), row("ben", 1, 0, 12),  # 1 March: Anna won
            row("anna", 2, 1, 8), row("ben", 2, 1, 8),  # 2 March: one win each, level Schnitt: both crowned
            row("ben", 3, 1, 9, "Benno")]  # 3 March: Ben again, last spelled Benno
    assert kegeln_report.crowns(rows) == kegeln_report.Best(("Anna", "Benno"), 2)  # Anna 1st + 2nd, Ben 2nd + 3rd
    assert kegeln_report.crowns(rows[:1]) == kegeln_report.Best(("Anna",), 1)
    assert kegeln_report.crowns([]) is None
    # the evenings are the chat's: 00:30 in Berlin on 2 March still belongs to the evening of 1 March
    late = row("ben", 2, 1, 18)._replace(at=datetime(2026, 3, 1, 23, 30, tzinfo=UTC).timestamp())
    assert kegeln_report.crowns([row("anna", 1, 1, 10), late], ZoneInfo("Europe/Berlin")) == \
        kegeln_report.Best(("Ben",), 1)


def test_csv_quotes_names_with_commas_and_quotes() -> None:
    rows = [(0.0, 1, 'Jörg "Kegelkönig", jr.', 0, 2, 9)]
    data = kegeln_report.throw_log_csv(rows)
    parsed = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert parsed[1] == ["1970-01-01 00:00:00", "1", 'Jörg "Kegelkönig", jr.', "0", "100", "9", ""]
    assert kegeln_report.file_name("-100123") == "kegeln--100123.csv"
    assert kegeln_report.file_name("#table") == "kegeln-table.csv"
    assert kegeln_report.file_name("../../etc") == "kegeln-etc.csv"


def test_console_writes_the_file_and_prints_its_path(tmp_path: Path) -> None:
    out = io.StringIO()

    async def handle(_inbound: object) -> Response:
        return Response()

    console = ConsoleAdapter(handle, out=out, image_dir=tmp_path / "boards")
    console.show(Response((Outbound(CONSOLE_GROUP, "the log", file=("kegeln-table.csv", b"date,game\n")),)))
    lines = out.getvalue().splitlines()
    assert lines[0] == "[#table] the log"
    path = Path(lines[1].strip())
    assert path == (tmp_path / "boards" / "kegeln-table.csv").resolve()
    assert path.read_bytes() == b"date,game\n"


async def test_kegelexport_names_never_start_a_formula(table: Table) -> None:
    """OWASP CSV injection: a cell that begins with =, +, -, @, a tab or a carriage return would be
    a formula in a spreadsheet; it gets a leading ' (shown as text). A plain negative number stays."""
    names = ['=HYPERLINK("ev.il","Hi")', "+1+1", "-2+3", "@SUM(1)", "-5"]
    await start(table, "/kegeln high 2 " + " ".join(names))
    for cmd in ("3 10", "4 10", "5 10", "6 10", "7 10", "1", "1", "1", "1", "1"):
        await table.say("alice", f"/wurf {cmd}")
    r = await table.say("bob", "/kegelexport")
    (msg,) = r.messages
    assert msg.file is not None
    parsed = list(csv.reader(io.StringIO(msg.file[1].decode("utf-8-sig"), newline="")))
    assert [row[2] for row in parsed[1:]] == 2 * ["'=HYPERLINK(\"ev.il\",\"Hi\")", "'+1+1", "'-2+3",
                                                  "'@SUM(1)", "-5"]
    assert [row[3] for row in parsed[1:]] == ["3", "4", "5", "6", "7", "1", "1", "1", "1", "1"]  # numbers stay
    # the message text is chat text, not a spreadsheet: the names as written
    assert "=HYPERLINK(\"ev.il\",\"Hi\")" in texts(r) and "'=" not in texts(r)


def test_csv_cells_with_tab_or_carriage_return_are_text() -> None:
    rows = [(0.0, 1, "\tcmd", 1, 0, 1), (0.0, 1, "\r=1+1", 2, 0, 2), (0.0, 1, "-0.5", 3, 0, 3),
            (0.0, 1, "Anna", 4, 0, 4)]
    parsed = list(csv.reader(io.StringIO(kegeln_report.throw_log_csv(rows).decode("utf-8-sig"), newline="")))
    assert [row[2] for row in parsed[1:]] == ["'\tcmd", "'\r=1+1", "-0.5", "Anna"]
