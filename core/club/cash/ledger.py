"""The club's cash box, pure: the fine catalogue, the fines a game's throws call for, the append-only cash book
and what it adds up to (balances, the club's total, the evening's average for the absent).

Money is an integer number of minor units (cents, öre, stotinki …) of the club's one currency; no float ever
holds an amount. A member is a name (the Kegeln records' `names.key`: cleaned, case-folded).

**Automatic fines are derived, never edited.** `wanted(played, catalogue)` is what a game (as it reports
itself to the club, core/club/records.py) calls for (each Pumpe thrown so far; the last place of a finished
game; a team's fine spread over its members). After every move the bot books the difference between that and
what the cash book already holds for the game (`corrections`): a throw books its Pumpe, an `/undo` books the
same amount back, a `/cancel` takes all of the game's fines back, a `/kegelmerge` moves them from the old name
to the new one. So the cash book's automatic lines always sum, per game and member, to what the game's final
state calls for — whatever happened in between — and nothing is ever rewritten (docs/kegeln.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from core import names
from core.club.records import Played
from core.errors import GameError
from core.money import Money

MAX_AMOUNT = 1_000_000  # minor units one line may move (10 000.00): a typo of a few zeros is refused
MAX_FINES = 20  # fines in one club's catalogue


class Trigger(StrEnum):
    """What books a fine by itself; `MANUAL` fines only the treasurer books."""

    PUMPE = "pumpe"  # each Pumpe (0 pins) thrown
    LOST = "lost"  # the last place of a finished game (a team's: spread over its members)
    MANUAL = "manual"


class Kind(StrEnum):
    """What a cash book line is."""

    AUTO = "auto"  # a fine the throws called for, or its reversal (negative)
    FINE = "fine"  # a fine the treasurer booked
    ABSENT = "absent"  # the evening's average, charged to a member who was not there
    PAYMENT = "payment"  # money paid in (negative: it lowers what the member owes)
    CORRECTION = "correction"  # the treasurer's correction of an earlier line (any sign)
    MERGED = "merged"  # a balance moved to the name a member was merged into (a pair that nets zero)
    CARRY = "carry"  # a balance carried from one season into the next (a pair that nets zero)
    FEE = "fee"  # an entry fee the treasurer booked for a (new) member
    DUES = "dues"  # the club's monthly or yearly dues, booked by the scheduler (`code`: the period, "2026-04")
    EXPENSE = "expense"  # money the club paid out (lane rent, the trip): no member's (`member` ""), positive


CLUB = ""  # the member of the club's own lines (expenses): in no member's balance


@dataclass(frozen=True)
class Fine:
    """One fine of the catalogue: its code (what lines name, stable), emoji, amount, what books it and the
    name the club calls it (seeded in the chat's language when the box is switched on; "" for a default
    fine that was never named: it is then shown in the reader's language, `cash.fine_name.<code>`)."""

    code: str
    emoji: str
    amount: int
    trigger: Trigger = Trigger.MANUAL
    name: str = ""


DEFAULT_FINES = (  # what a new club starts with; the club changes amounts, names them and adds its own
    Fine("pumpe", "🕳", 10, Trigger.PUMPE),
    Fine("lost", "🐢", 50, Trigger.LOST),
    Fine("late", "⏰", 100),
    Fine("absent", "🚪", 200),
)
DEFAULT_CODES = frozenset(f.code for f in DEFAULT_FINES)  # codes with a name in every language's catalog
MAX_NAME = 30  # characters of a fine's name


@dataclass(frozen=True)
class Catalogue:
    """A club's fines, its currency (ISO 4217) and whether the absent pay the evening's average."""

    fines: tuple[Fine, ...] = DEFAULT_FINES
    currency: str = "EUR"
    charge_absent: bool = False

    def fine(self, code: str) -> Fine | None:
        return next((f for f in self.fines if f.code == code), None)

    def find(self, word: str, aliases: Mapping[str, str] | None = None) -> Fine | None:
        """The fine a treasurer means by `word`: its code, the club's name for it (case-folded), or any
        language's word for a default fine (`aliases`: word → code, from the catalogs' `cash.fine_words`)."""
        w = " ".join(word.split()).casefold()
        if not w:
            return None
        for f in self.fines:
            if w in (f.code, f.name.casefold()):
                return f
        code = (aliases or {}).get(w)
        return self.fine(code) if code else None


@dataclass(frozen=True)
class Line:
    """One line of the cash book, as written once: who it is for, how much (+ owed, − paid or taken
    back), why, by whom and when. `game`: the game an automatic line belongs to."""

    kind: Kind
    member: str  # names.key of the member
    amount: int
    code: str = ""  # the fine's code (AUTO, FINE, ABSENT), else ""
    game: int | None = None
    by: str = ""  # the platform user id who booked it ("" for the bot's own automatic lines)
    at: float = 0.0
    note: str = ""
    season: int = 0  # the club season (its first year) the line was booked in


Booked = Mapping[tuple[str, str], int]  # (member key, fine code) → amount


def split(amount: int, parts: int) -> list[int]:
    """`amount` in `parts` whole minor units that sum to it exactly: the first ones get the remainder."""
    if parts <= 0:
        raise ValueError("nothing to split over")
    base, rest = divmod(amount, parts)
    return [base + (1 if i < rest else 0) for i in range(parts)]


def wanted(played: Played, catalogue: Catalogue) -> dict[tuple[str, str], int]:
    """The automatic fines a game calls for now, per (member key, fine code). A cancelled or abandoned
    game calls for none (it has no result)."""
    out: dict[tuple[str, str], int] = {}
    if played.void:
        return out

    def add(member: int, code: str, amount: int) -> None:
        if amount:
            k = (names.key(played.names[member]), code)
            out[k] = out.get(k, 0) + amount
    for f in catalogue.fines:
        if f.trigger is Trigger.PUMPE:
            for member, pins in played.throws:
                if pins == 0:
                    add(member, f.code, f.amount)
        elif f.trigger is Trigger.LOST and played.done:
            for entry in played.losers:  # a team's fine spread over its members
                for m, share in zip(entry, split(f.amount, len(entry)), strict=True):
                    add(m, f.code, share)
    return out


def booked(lines: Iterable[Line], game: int) -> dict[tuple[str, str], int]:
    """What the cash book's automatic lines of one game add up to, per (member key, fine code)."""
    out: dict[tuple[str, str], int] = {}
    for ln in lines:
        if ln.kind is Kind.AUTO and ln.game == game:
            k = (ln.member, ln.code)
            out[k] = out.get(k, 0) + ln.amount
    return {k: v for k, v in out.items() if v}


def corrections(already: Booked, want: Booked, game: int, at: float) -> list[Line]:
    """The automatic lines that bring what is booked for a game to what it calls for (in a stable
    order: member, then fine); none where they agree."""
    out: list[Line] = []
    for member, code in sorted(set(already) | set(want)):
        delta = want.get((member, code), 0) - already.get((member, code), 0)
        if delta:
            out.append(Line(Kind.AUTO, member, delta, code, game, "", at))
    return out


def balances(lines: Iterable[Line]) -> dict[str, int]:
    """What each member owes (positive) or has in credit (negative); members at zero are left out. The
    club's own lines (expenses) are in no balance."""
    out: dict[str, int] = {}
    for ln in lines:
        if ln.kind is not Kind.EXPENSE:
            out[ln.member] = out.get(ln.member, 0) + ln.amount
    return {m: v for m, v in out.items() if v}


def open_sum(lines: Iterable[Line]) -> int:
    """What is open: the sum of what the members who owe owe (a member's credit is not netted against
    another's debt). /kasse's "open" and /jahresrueckblick's "open at the season's end" are this figure."""
    return sum(v for v in balances(lines).values() if v > 0)


def credit_sum(lines: Iterable[Line]) -> int:
    """What the members in credit have in credit (a positive number)."""
    return -sum(v for v in balances(lines).values() if v < 0)


def total(lines: Iterable[Line]) -> int:
    """The sum of every member's line: what the club is owed in all (the balances' sum)."""
    return sum(ln.amount for ln in lines if ln.kind is not Kind.EXPENSE)


def paid(lines: Iterable[Line]) -> int:
    """The money paid in by the members."""
    return -sum(ln.amount for ln in lines if ln.kind is Kind.PAYMENT)


def spent(lines: Iterable[Line]) -> int:
    """The money the club paid out (expenses)."""
    return sum(ln.amount for ln in lines if ln.kind is Kind.EXPENSE)


def till(lines: Sequence[Line]) -> int:
    """The cash on hand: paid in − paid out (beside what is owed, which is not in the till yet)."""
    return paid(lines) - spent(lines)


def dues_lines(members: Iterable[str], amount: int, period: str, lines: Iterable[Line], at: float) -> list[Line]:
    """The dues of `period` ("2026-04", "2026") for each member who has none of that period yet: booked
    once, however often the scheduler's job runs."""
    had = {ln.member for ln in lines if ln.kind is Kind.DUES and ln.code == period}
    return [Line(Kind.DUES, m, amount, period, at=at) for m in dict.fromkeys(members) if m not in had]


def evening_average(fines_by_member: Mapping[str, int]) -> int:
    """The evening's average fine of those who were there (whole minor units, rounded half up):
    what a member who was absent pays where the club decided so; 0 for an evening without fines."""
    if not fines_by_member:
        return 0
    n, s = len(fines_by_member), sum(fines_by_member.values())
    return (2 * s + n) // (2 * n)


SYMBOLS = {"€": "EUR", "$": "USD", "us$": "USD", "£": "GBP", "₽": "RUB", "руб": "RUB", "руб.": "RUB",
           "лв": "BGN", "лв.": "BGN", "kr": "SEK", "kr.": "SEK", "¥": "JPY", "₴": "UAH", "zł": "PLN",
           "fr.": "CHF", "₺": "TRY", "₹": "INR"}  # a sign typed beside an amount → the currency it means
KRONOR = frozenset({"SEK", "NOK", "DKK", "ISK"})  # "kr" is each of them: the club's own where it is one
_AMOUNT = re.compile(
    r"^\s*(?P<pre>[^\d\s+\-−.,]{1,4})?\s*(?P<int>[0-9]{1,7})(?:[.,](?P<frac>[0-9]{1,3}))?\s*(?P<post>[^\d\s]{1,4})?\s*$")


def currency_of(sign: str, currency: str, iso: Collection[str] = ()) -> str | None:
    """The currency a sign or code typed beside an amount means (`€`, `$`, `kr`, `usd`), None for none
    known. `iso`: the codes a three-letter word may be (Babel's list, in bot/)."""
    s = sign.strip().casefold()
    if s.upper() == currency or s.upper() in iso:
        return s.upper()
    found = SYMBOLS.get(s)
    if found == "SEK" and currency in KRONOR:
        return currency
    return found


def parse_amount(text: str, currency: str = "EUR", decimals: int = 2, iso: Collection[str] = ()) -> int:
    """Minor units from what a treasurer types: `2`, `1,50`, `1.5`, `0,10 €`, `€3` (either decimal
    mark, at most `decimals` places, no thousands separators). Refused with `kegeln.cash.bad_amount`:
    a sign, letters, more places than the currency has (`decimals`: Babel's precision of `currency`,
    looked up in bot/), zero, or more than MAX_AMOUNT; with `kegeln.cash.other_currency` an amount in
    another currency than the club's (`5 USD`, `$5`, `5 ₽` where the club keeps EUR): never booked at
    face value."""
    refused = GameError("kegeln.cash.bad_amount", amount=text[:20], most=Money(MAX_AMOUNT, currency))
    m = _AMOUNT.match(text)
    if m is None or (m.group("pre") and m.group("post")):
        raise refused
    sign = m.group("pre") or m.group("post")
    if sign:
        given = currency_of(sign, currency, iso)
        if given is None:
            raise refused
        if given != currency:
            raise GameError("kegeln.cash.other_currency", amount=text.strip()[:20], currency=currency)
    frac = m.group("frac") or ""
    if len(frac) > decimals:
        raise refused
    value: int = int(m.group("int")) * 10**decimals + (int(frac.ljust(decimals, "0")) if decimals else 0)
    if not 0 < value <= MAX_AMOUNT:
        raise refused
    return value


def is_currency(word: str, currency: str, iso: Collection[str] = ()) -> bool:
    """Whether a word standing alone beside an amount is a currency sign or code (`€`, `USD`, `kr`)."""
    return currency_of(word, currency, iso) is not None


def amount_words(words: Sequence[str], currency: str, iso: Collection[str] = ()) -> tuple[str, int]:
    """The amount at the start of `words`, with a currency written apart glued on (`2,50 €`, `€ 3`,
    `5 USD`): (its text, the words it took). A reason may follow it."""
    if not words:
        raise GameError("kegeln.cash.usage")
    if len(words) >= 2 and words[0][:1].isdigit() and is_currency(words[1], currency, iso):
        return words[0] + words[1], 2
    if len(words) >= 2 and is_currency(words[0], currency, iso) and words[1][:1].isdigit():
        return words[0] + words[1], 2
    return words[0], 1


def looks_like_amount(word: str) -> bool:
    """Whether a word starts an amount or a signed one (`0,30`, `+1`, `−0,50`, `€3`, `$5`): where a
    member's name typed before it ends."""
    w = word.lstrip("+-−")
    return bool(w[:1].isdigit() or (w[:1] and not w[:1].isalnum() and w[1:2].isdigit()))


def longest_member(words: Sequence[str], known: Mapping[str, str]) -> tuple[str, int] | None:
    """The member the first words name (`known`: names.key → name), the longest match: "Anna Lena 2"
    is Anna Lena where both Anna and Anna Lena are members. (key, words used), None for none."""
    for n in range(len(words), 0, -1):
        k = names.key(" ".join(words[:n]))
        if k in known:
            return k, n
    return None


def member_words(words: Sequence[str], known: Mapping[str, str]) -> tuple[str, list[str]]:
    """`NAME …`: the known member first (longest match), the rest after it; refused naming what was
    typed up to the amount (`kegeln.cash.unknown_member`)."""
    if not words:
        raise GameError("kegeln.cash.usage")
    found = longest_member(words, known)
    if found is None:
        typed = []
        for w in words:
            if looks_like_amount(w):
                break
            typed.append(w)
        name = names.clean(" ".join(typed or words[:1]))
        raise GameError("kegeln.cash.unknown_member", name=name[:40] or "–")
    key, used = found
    return key, list(words[used:])


def reason_of(words: Sequence[str]) -> str:
    """A manual line's reason as typed after the amount (cleaned, at most MAX_REASON characters)."""
    return names.clean(" ".join(words))[:MAX_REASON]


MAX_REASON = 120  # characters of a manual line's reason


def checked(fines: Sequence[Fine], currency: str = "EUR") -> tuple[Fine, ...]:
    """A catalogue the club set: codes unique, amounts in range, not too many (coded errors)."""
    if len(fines) > MAX_FINES:
        raise GameError("kegeln.cash.too_many_fines", most=MAX_FINES)
    seen: set[str] = set()
    for f in fines:
        said = {f.code, f.name.casefold()} - {""}
        if said & seen:
            raise GameError("kegeln.cash.fine_twice", fine=f.name or f.code)
        seen |= said
        if not 0 <= f.amount <= MAX_AMOUNT:
            raise GameError("kegeln.cash.bad_amount", amount=str(f.amount), most=Money(MAX_AMOUNT, currency))
    return tuple(fines)


def merged(lines: Sequence[Line], old: str, new: str, at: float, by: str = "") -> list[Line]:
    """What /kegelmerge books when member `old` becomes `new` (both names.key): each game's automatic
    fines of `old` moved to `new` as they were booked (the renamed game then calls for exactly what is
    booked for it), and the rest of `old`'s balance moved as one MERGED pair. Every pair nets zero."""
    out: list[Line] = []
    games = {ln.game for ln in lines if ln.kind is Kind.AUTO and ln.member == old and ln.game is not None}
    for game in sorted(games):
        for (member, code), amount in sorted(booked(lines, game).items()):
            if member == old:
                out += [Line(Kind.AUTO, old, -amount, code, game, by, at),
                        Line(Kind.AUTO, new, amount, code, game, by, at)]
    rest = balances([*lines, *out]).get(old, 0)
    if rest:
        out += [Line(Kind.MERGED, old, -rest, by=by, at=at), Line(Kind.MERGED, new, rest, by=by, at=at)]
    return out


def carried(lines: Iterable[Line], season: int, at: float, by: str = "") -> list[Line]:
    """The year's close: each member's balance of the seasons before `season` carried into it — a line
    closing it in the member's last earlier season and one opening `season` with it. Booked once: a
    second call finds nothing left to carry."""
    before: dict[str, int] = {}
    last: dict[str, int] = {}
    for ln in lines:
        if ln.season < season and ln.kind is not Kind.EXPENSE:
            before[ln.member] = before.get(ln.member, 0) + ln.amount
            last[ln.member] = max(last.get(ln.member, ln.season), ln.season)
    out: list[Line] = []
    for member in sorted(m for m, v in before.items() if v):
        out += [Line(Kind.CARRY, member, -before[member], by=by, at=at, season=last[member]),
                Line(Kind.CARRY, member, before[member], by=by, at=at, season=season)]
    return out


def absent_charges(fines: Mapping[str, int], absent: Sequence[str], at: float, by: str = "",
                   code: str = "absent") -> list[Line]:
    """The evening's average (`fines`: what each member who was there was fined that evening, 0 for
    none) charged to each absent member (names.key), once each; refused for a member who was there."""
    there = [m for m in absent if m in fines]
    if there:
        raise GameError("kegeln.cash.was_there", name=there[0][:40])
    average = evening_average(fines)
    if not average:
        raise GameError("kegeln.cash.no_average")
    return [Line(Kind.ABSENT, m, average, code, by=by, at=at) for m in dict.fromkeys(absent)]


def parse_signed(text: str, currency: str = "EUR", decimals: int = 2, iso: Collection[str] = ()) -> int:
    """A correction's amount: `+1,50` (owed more) or `-0,50` / `−0,50` (owed less); as `parse_amount`
    otherwise, a sign required so that a correction's direction is never guessed."""
    t = text.strip()
    if t[:1] in ("+", "-", "−"):
        value = parse_amount(t[1:], currency, decimals, iso)
        return value if t[0] == "+" else -value
    raise GameError("kegeln.cash.needs_sign", amount=text[:20])
