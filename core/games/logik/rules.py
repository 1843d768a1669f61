"""Logik: the simultaneous Mastermind duel, 8 colours × 5 pegs (docs/rules.md §2, seeds 001 and 003).

Phases: CHALLENGE → SECRETS → PLAYING → FINISHED, like the 1A2B duel. In PLAYING both
players submit one row per round; the feedback of a round is computed and revealed only
when both rows of that round are in. The challenger plays "white", the other "black";
a rematch swaps the colours and keeps the match score.

Colour initials are localised: the App reads them from the catalogs (`logik.initial.*`)
of every language and stores the letter → colour map in the state (`letters`), so the
rules stay pure and a restart parses exactly as before. The presenter is core/games/logik/presenter.py,
the game object core/games/logik/game.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core import serial
from core.errors import GameError
from core.games import challenge
from core.games.base import Ctx, Event, Player, ResultRow
from core.games.challenge import ChallengeState, Phase, other, players, seat, unplayed_offer
from core.games.challenge_events import UNPLAYED, Challenged, ChallengeOutcome, SecretSet
from core.games.logik.events import BothSolved, LogikRematch, Revealed, RowsUsed, Solved, Started, Submitted
from core.options import Vocabulary, meaning
from core.pegs import PEGS, SEPARATORS, parse_row
from core.scoring import bulls_cows

ROWS_MIN, ROWS_MAX, ROWS_DEFAULT = 8, 12, 10


BLACK_PEG, WHITE_PEG = "⚫", "⚪"
SIDE_KEYS = {"white": "logik.side_white", "black": "logik.side_black"}


@dataclass(frozen=True)
class Row:
    """A revealed row: the guessed code (digits 1–8) and its pegs."""

    code: str
    black: int
    white: int


@dataclass
class State(ChallengeState):
    challenger: Player
    opponent: Player | None  # None: an open challenge, anyone may accept
    rows_max: int = ROWS_DEFAULT
    letters: dict[str, str] = field(default_factory=dict)  # lower-case initial → colour digit
    white: str = ""  # user id of the player on the white side (the challenger in a first game)
    rows: dict[str, list[Row]] = field(default_factory=dict)  # guesser id → revealed rows
    pending: dict[str, str] = field(default_factory=dict)  # guesser id → this round's row, not yet revealed
    solved_round: int | None = None


# ---------------------------------------------------------------- codes

def random_code(ctx: Ctx) -> str:
    return "".join(ctx.rng.choice("12345678") for _ in range(PEGS))


def accepts_text(state: State, text: str) -> bool:
    """Whether a plain message from a seated player is meant as a row (digit runs are routed
    anyway). It then becomes a move, or is refused with the reason; anything else is chat and
    ignored. Row-like is:
      - five symbols, separators aside, each a digit 1–8 or a colour initial, at least one
        letter (`RGBYK`, `r g b y k`, `1r2g3`);
      - pegs written apart: three or more single letters or digits between separators
        (`1 2 3 4 5`, `r g b y x`, `r,g,b`);
      - one word of 4–6 letters and digits that mixes both (`1r2g3x`);
      - while the rounds run, one word of 4–6 letters at most one of which is not a colour
        initial (`rgbyx`, `rgby`) — a typo of a row. Not before: while a secret is due, a word
        like `hello` would otherwise be deleted as a secret typed in the open.
    So `hallo` (h and a are no initials), `ok` or a sentence stay chat."""
    t = text.strip().lower()
    raw = "".join(ch for ch in t if ch not in SEPARATORS)
    symbols = set(state.letters) | set("12345678")
    if len(raw) == PEGS and any(ch.isalpha() for ch in raw) and all(ch in symbols for ch in raw):
        return True
    tokens = "".join(" " if ch in SEPARATORS else ch for ch in t).split()
    if len(tokens) >= 3 and all(len(w) == 1 and w.isalnum() for w in tokens):
        return True
    if len(tokens) != 1 or not PEGS - 1 <= len(raw) <= PEGS + 1 or not raw.isalnum():
        return False
    if any(ch.isdecimal() for ch in raw):
        return any(ch.isalpha() for ch in raw)
    return (state.phase is Phase.PLAYING and raw.isalpha()
            and sum(ch not in state.letters for ch in raw) <= 1)


def check_rows(n: int) -> int:
    if not ROWS_MIN <= n <= ROWS_MAX:
        raise GameError("logik.rows_range", given=n, low=ROWS_MIN, high=ROWS_MAX)
    return n


def parse_options(args: Sequence[str], vocab: Vocabulary | None = None) -> tuple[str | None, int]:
    """`[opponent] [rows N]` in any order (also `rows=N` or a bare N; the rows word in any language,
    core/options.py) → (opponent as written, rows)."""
    opponent, rows = None, ROWS_DEFAULT
    words = [w for a in args for w in a.replace("=", " ").split()]
    i = 0
    while i < len(words):
        word = words[i].lower()
        rows_word = meaning(word, vocab, ("rows",)) is not None
        if rows_word and i + 1 < len(words) and words[i + 1].isdecimal():
            rows = check_rows(int(words[i + 1]))
            i += 2
            continue
        if word.isdecimal():
            rows = check_rows(int(word))
        elif rows_word:
            raise GameError("logik.rows_needs_number", word=words[i][:20], low=ROWS_MIN, high=ROWS_MAX)
        elif opponent is None:
            opponent = words[i]
        else:
            raise GameError("bad_option", option=words[i][:30])
        i += 1
    return opponent, rows


# ---------------------------------------------------------------- creation

def new(challenger: Player, opponent: Player | None, rows_max: int, letters: Mapping[str, str],
        ctx: Ctx) -> tuple[State, list[Event]]:
    """An open or targeted challenge; the challenger plays white."""
    if opponent is not None and opponent.user_id == challenger.user_id:
        raise GameError("self_challenge")
    state = State(challenger=challenger, opponent=opponent, rows_max=check_rows(rows_max),
                  letters=dict(letters), white=challenger.user_id, updated=ctx.now)
    return state, [Challenged()]


def rematch(old: State, by: str, ctx: Ctx) -> tuple[State, list[Event]]:
    """Same players and rows, colours swapped, the match score carries on; the other player accepts."""
    again = unplayed_offer(old)  # an offer nobody played (declined, withdrawn, expired) is offered again as it was
    if old.phase is not Phase.FINISHED or old.opponent is None or (old.outcome in UNPLAYED and not again):
        raise GameError("no_rematch")
    seat(old, by)
    white = old.white if again else other(old, old.white).user_id
    state = State(challenger=old.challenger, opponent=old.opponent, rows_max=old.rows_max,
                  letters=dict(old.letters), white=white, offered_by=by, match=serial.clone(old.match),
                  updated=ctx.now)
    return state, [LogikRematch(by, white)]


# ---------------------------------------------------------------- queries

def black(state: State) -> Player | None:
    """The player on the black side (None while an open challenge waits)."""
    for p in players(state):
        if p.user_id != state.white:
            return p
    return None


def side(state: State, user_id: str) -> str:
    return "white" if user_id == state.white else "black"


def by_side(state: State) -> list[Player]:
    """White first, then black."""
    return sorted(players(state), key=lambda p: p.user_id != state.white)


def round_no(state: State) -> int:
    """The round being played (1-based): every revealed round added both players' rows."""
    return min((len(v) for v in state.rows.values()), default=0) + 1


# ---------------------------------------------------------------- rules

def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """The one entry for every move (core/games/challenge.py); raises GameError and leaves `state`
    untouched when invalid."""
    return challenge.apply(state, action, actor, ctx, set_secret=_set_secret, guess=_guess, end=_finish,
                           idle=lambda s: [p.user_id for p in players(s) if p.user_id not in s.pending]
                           if s.phase is Phase.PLAYING else [])


def _set_secret(s: State, seat: str, text: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    challenge.need_secret(s, seat)
    s.secrets[seat] = random_code(ctx) if text is None else parse_row(text, s.letters)
    events: list[Event] = [SecretSet(seat, text is None)]
    if len(s.secrets) == 2:
        s.phase = Phase.PLAYING
        s.rows = {p.user_id: [] for p in players(s)}
        events.append(Started())
    return s, events


def _guess(s: State, seat: str, text: str) -> tuple[State, list[Event]]:
    challenge.need_playing(s, seat, lambda name: GameError("logik.secret_missing", name=name))
    n = round_no(s)
    if seat in s.pending:
        raise GameError("logik.already_submitted", n=n, name=other(s, seat).name)
    s.pending[seat] = parse_row(text, s.letters)
    events: list[Event] = [Submitted(seat, n)]
    if len(s.pending) < 2:
        return s, events
    # both rows of the round are in: score and reveal them together
    solved = []
    for p in players(s):
        code = s.pending[p.user_id]
        b, w = bulls_cows(s.secrets[other(s, p.user_id).user_id], code)
        s.rows[p.user_id].append(Row(code, b, w))
        if b == PEGS:
            solved.append(p.user_id)
    s.pending = {}
    events.append(Revealed(n))
    if len(solved) == 2:
        s.solved_round = n
        return _finish(s, ChallengeOutcome.DRAW, None, [*events, BothSolved(n)])
    if solved:
        s.solved_round = n
        return _finish(s, ChallengeOutcome.WIN, solved[0], [*events, Solved(solved[0], n)])
    if n >= s.rows_max:
        return _finish(s, ChallengeOutcome.DRAW, None, [*events, RowsUsed(s.rows_max)])
    return s, events


def _finish(s: State, outcome: ChallengeOutcome, winner: str | None, events: list[Event]) -> tuple[State, list[Event]]:
    return challenge.finish(s, outcome, winner, events)


def results(state: State) -> list[ResultRow]:
    """One line per player with their side; only games that got past the challenge count."""
    return challenge.results(state, lambda uid: len(state.rows.get(uid, [])), lambda uid: side(state, uid))


# ---------------------------------------------------------------- /cancel and the rematch (core/games/logik/game.py)

def cancel_action(state: State, user_id: str) -> object:
    return challenge.cancel_action(state, GameError("logik.cancel_running"))


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    return challenge.follow_up(old, verb, user_id, ctx, rematch)
