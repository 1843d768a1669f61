"""Logik: the simultaneous Mastermind duel, 8 colours × 5 pegs (docs/rules.md §2, seeds 001 and 003).

Phases: CHALLENGE → SECRETS → PLAYING → FINISHED, like the 1A2B duel. In PLAYING both
players submit one row per round; the feedback of a round is computed and revealed only
when both rows of that round are in. The challenger plays "white", the other "black";
a rematch swaps the colours and keeps the match score.

Colour initials are localised: the App reads them from the catalogs (`logik.initial.*`)
of every language and stores the letter → colour map in the state (`letters`), so the
rules stay pure and a restart parses exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from core import serial
from core.errors import GameError
from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret, Timeout
from core.games.base import Ctx, Event, Match, Player, ResultRow, button, say, to_actor
from core.games.challenge import (  # noqa: F401 - players, seated, can_answer … are App hooks
    UNPLAYED,
    accept,
    button_action,
    can_answer,
    check_cancel,
    check_decline,
    offerer,
    other,
    player,
    players,
    quit_action,
    seat,
    seat_ids,
    seated,
    secret_action,
    text_action,
    unplayed_offer,
)
from core.messages import Button, Chat, Message, Text
from core.options import Vocabulary, meaning
from core.scoring import bulls_cows

kind = "logik"
PEGS = 5
ROWS_MIN, ROWS_MAX, ROWS_DEFAULT = 8, 12, 10
SEPARATORS = " ,;-/|·"


@dataclass(frozen=True)
class Colour:
    """One of the eight colours: its number (what the state stores), catalog keys, text symbol, RGB."""

    number: int
    name_key: str
    initial_key: str
    symbol: str
    rgb: tuple[int, int, int]


COLOURS: tuple[Colour, ...] = (
    Colour(1, "logik.colour.red", "logik.initial.red", "🟥", (220, 38, 38)),
    Colour(2, "logik.colour.green", "logik.initial.green", "🟩", (34, 160, 70)),
    Colour(3, "logik.colour.blue", "logik.initial.blue", "🟦", (37, 99, 235)),
    Colour(4, "logik.colour.yellow", "logik.initial.yellow", "🟨", (250, 204, 21)),
    Colour(5, "logik.colour.orange", "logik.initial.orange", "🟧", (249, 115, 22)),
    Colour(6, "logik.colour.purple", "logik.initial.purple", "🟪", (147, 51, 234)),
    Colour(7, "logik.colour.white", "logik.initial.white", "⬜", (245, 245, 245)),
    Colour(8, "logik.colour.black", "logik.initial.black", "⬛", (23, 23, 23)),
)
BY_NUMBER = {c.number: c for c in COLOURS}
BLACK_PEG, WHITE_PEG = "⚫", "⚪"
SIDE_KEYS = {"white": "logik.side_white", "black": "logik.side_black"}


class Phase(StrEnum):
    CHALLENGE = "challenge"
    SECRETS = "secrets"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True)
class Row:
    """A revealed row: the guessed code (digits 1–8) and its pegs."""

    code: str
    black: int
    white: int


@dataclass
class State:
    challenger: Player
    opponent: Player | None  # None: an open challenge, anyone may accept
    rows_max: int = ROWS_DEFAULT
    letters: dict[str, str] = field(default_factory=dict)  # lower-case initial → colour digit
    phase: Phase = Phase.CHALLENGE
    white: str = ""  # user id of the player on the white side (the challenger in a first game)
    offered_by: str | None = None  # who offered a rematch (the other one accepts)
    secrets: dict[str, str] = field(default_factory=dict)  # owner id → the code the other cracks
    rows: dict[str, list[Row]] = field(default_factory=dict)  # guesser id → revealed rows
    pending: dict[str, str] = field(default_factory=dict)  # guesser id → this round's row, not yet revealed
    outcome: str | None = None  # "win" | "draw" | "resigned" | "timeout" | "declined" | "cancelled"
    winner: str | None = None
    solved_round: int | None = None
    match: Match = field(default_factory=Match)
    updated: float = 0.0
    disguise: int | None = None  # the computer opponent's hidden random seed (core/solver/games.py)
    next_game: int | None = None  # id of the rematch offered from this finished game (set by the App)


state_type = State


# ---------------------------------------------------------------- codes

def parse_row(text: str, letters: Mapping[str, str]) -> str:
    """The code (5 digits 1–8) a player wrote as digits and/or colour initials, else a GameError."""
    raw = "".join(ch for ch in text.strip() if ch not in SEPARATORS)
    if len(raw) != PEGS:
        raise GameError("logik.row_length", n=len(raw), pegs=PEGS)
    code, bad = [], []
    for ch in raw:
        low = ch.lower()
        if low in "12345678":
            code.append(low)
        elif low in letters:
            code.append(letters[low])
        else:
            bad.append(ch)
    if bad:
        raise GameError("logik.bad_symbol", given="".join(bad)[:10])
    return "".join(code)


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
    return state, [Event("challenged", {})]


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
    return state, [Event("rematch", {"by": by, "white": white})]


# ---------------------------------------------------------------- queries







def black(state: State) -> Player | None:
    """The player on the black side (None while an open challenge waits)."""
    for p in players(state):
        if p.user_id != state.white:
            return p
    return None


def side(state: State, user_id: str) -> str:
    return "white" if user_id == state.white else "black"




def is_over(state: State) -> bool:
    return state.phase is Phase.FINISHED


def last_activity(state: State) -> float:
    return state.updated


def round_no(state: State) -> int:
    """The round being played (1-based): every revealed round added both players' rows."""
    return min((len(v) for v in state.rows.values()), default=0) + 1




def awaiting_secret(state: State, user_id: str) -> bool:
    return state.phase is Phase.SECRETS and user_id not in state.secrets and user_id in seat_ids(state)


# ---------------------------------------------------------------- rules

def apply(state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    """The one entry for every move; raises GameError and leaves `state` untouched when invalid."""
    if state.phase is Phase.FINISHED:
        raise GameError("game_over")
    s = serial.clone(state)
    s.updated = ctx.now
    match action:
        case Accept(name=name):
            return accept(s, actor, name)
        case Decline():
            check_decline(s, actor)
            return _finish(s, "declined", None, [Event("declined", {"by": actor})])
        case Cancel():
            check_cancel(s, actor)
            return _finish(s, "cancelled", None, [Event("cancelled", {"by": actor})])
        case SetSecret(code=text):
            return _set_secret(s, seat(s, actor), text, ctx)
        case Guess(code=text):
            return _guess(s, seat(s, actor), text)
        case Resign():
            if s.phase is Phase.CHALLENGE:
                raise GameError("wrong_phase")
            mine = seat(s, actor)
            return _finish(s, "resigned", other(s, mine).user_id, [Event("resigned", {"by": mine})])
        case Timeout():
            if s.phase is Phase.CHALLENGE:  # nobody answered: the challenge lapses, no game was played
                return _finish(s, "expired", None, [Event("timed_out", {"idle": None})])
            idle = [p.user_id for p in players(s) if p.user_id not in s.pending] if s.phase is Phase.PLAYING else []
            return _finish(s, "timeout", None, [Event("timed_out", {"idle": idle})])
    raise GameError("not_now")


def _need_playing(s: State, seat: str) -> None:
    """A guess needs the game running; before that, say what it waits for: an answer to the
    challenge, or a secret row (naming the other player when theirs is the one missing)."""
    if s.phase is Phase.CHALLENGE:
        raise GameError("not_accepted")
    if s.phase is Phase.SECRETS:
        waiting = [p for p in players(s) if p.user_id not in s.secrets]
        late = next((p for p in waiting if p.user_id != seat), waiting[0])
        raise GameError("logik.secret_missing", name=late.name)
    _need(s, Phase.PLAYING)


def _need(s: State, phase: Phase) -> None:
    if s.phase is not phase:
        raise GameError("wrong_phase")










def _set_secret(s: State, seat: str, text: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
    _need(s, Phase.SECRETS)
    if seat in s.secrets:
        raise GameError("secret_locked")
    s.secrets[seat] = random_code(ctx) if text is None else parse_row(text, s.letters)
    events = [Event("secret_set", {"by": seat, "random": text is None})]
    if len(s.secrets) == 2:
        s.phase = Phase.PLAYING
        s.rows = {p.user_id: [] for p in players(s)}
        events.append(Event("started", {}))
    return s, events


def _guess(s: State, seat: str, text: str) -> tuple[State, list[Event]]:
    _need_playing(s, seat)
    n = round_no(s)
    if seat in s.pending:
        raise GameError("logik.already_submitted", n=n, name=other(s, seat).name)
    s.pending[seat] = parse_row(text, s.letters)
    events = [Event("submitted", {"by": seat, "round": n})]
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
    events.append(Event("revealed", {"round": n}))
    if len(solved) == 2:
        s.solved_round = n
        return _finish(s, "draw", None, [*events, Event("both_solved", {"round": n})])
    if solved:
        s.solved_round = n
        return _finish(s, "win", solved[0], [*events, Event("solved", {"by": solved[0], "round": n})])
    if n >= s.rows_max:
        return _finish(s, "draw", None, [*events, Event("rows_used", {"rows": s.rows_max})])
    return s, events


def _finish(s: State, outcome: str, winner: str | None, events: list[Event]) -> tuple[State, list[Event]]:
    was_played = s.phase in (Phase.SECRETS, Phase.PLAYING)
    s.phase, s.outcome, s.winner = Phase.FINISHED, outcome, winner
    if was_played:
        if winner is not None:
            s.match.wins[winner] = s.match.wins.get(winner, 0) + 1
        elif outcome == "draw":
            s.match.draws += 1
    return s, [*events, Event("finished", {"outcome": outcome, "winner": winner})]


def results(state: State) -> list[ResultRow]:
    """One line per player with their side; only games that got past the challenge count."""
    if state.outcome in ("declined", "cancelled", "expired") or state.opponent is None:
        return []
    rows = []
    for p in players(state):
        if state.outcome == "timeout":
            outcome = "abandoned"
        elif state.winner is None:
            outcome = "draw"
        else:
            outcome = "win" if state.winner == p.user_id else "loss"
        rows.append(ResultRow(p.user_id, p.name, outcome, len(state.rows.get(p.user_id, [])),
                              side=side(state, p.user_id)))
    return rows


# ---------------------------------------------------------------- App hooks (see GameKind)

def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    if not awaiting_secret(state, user_id):
        return None
    return Text("logik.secret_prompt_again", {"game": game_id, "opponent": other(state, user_id).name,
                                              "legend": legend()})


def cancel_action(state: State, user_id: str) -> object:
    if state.phase is not Phase.CHALLENGE:
        raise GameError("logik.cancel_running")
    return Cancel()


def follow_up(old: State, verb: str, user_id: str, ctx: Ctx) -> tuple[State, list[Event]] | None:
    return rematch(old, user_id, ctx) if verb == "rematch" else None


# ---------------------------------------------------------------- presenter

def peg(digit: str) -> Text:
    """One peg: its colour symbol with the number and the reader's initial beside it (🟥1R, 🟥1К)."""
    c = BY_NUMBER[int(digit)]
    return Text("logik.peg", {"symbol": c.symbol, "number": c.number, "initial": Text(c.initial_key)})


def pegs(code: str) -> Text:
    """A row of five pegs: 🟥1R 🟩2G … (English), 🟥1К 🟩2З … (Russian)."""
    return Text("logik.pegs", {f"p{i}": peg(d) for i, d in enumerate(code, 1)})


def legend() -> Text:
    """Every colour with its symbol, number, localised initial and name."""
    return Text("logik.legend", {f"c{c.number}": Text("logik.legend_item", {
        "symbol": c.symbol, "number": c.number, "initial": Text(c.initial_key), "name": Text(c.name_key)})
        for c in COLOURS})


def feedback(row: Row) -> Text:
    """Black pegs first, then white, and the same in words: "2 black, 1 white"."""
    return Text("logik.feedback", {"pegs": BLACK_PEG * row.black + WHITE_PEG * row.white or "–",
                                   "blacks": Text("logik.blacks", {"n": row.black}),
                                   "whites": Text("logik.whites", {"n": row.white})})


def row_line(name: str, n: int, row: Row) -> Text:
    return Text("logik.row", {"name": name, "round": n, "pegs": pegs(row.code), "feedback": feedback(row)})


def score_line(state: State) -> Text:
    a, b = state.challenger, state.opponent or state.challenger
    return Text("logik.match_score", {"a": a.name, "b": b.name, "wa": state.match.wins.get(a.user_id, 0),
                                      "d": state.match.draws, "wb": state.match.wins.get(b.user_id, 0)})


def _lines(state: State, rounds: Sequence[int] | None = None) -> list[Text]:
    out = []
    for p in by_side(state):
        for i, row in enumerate(state.rows.get(p.user_id, []), 1):
            if rounds is None or i in rounds:
                out.append(row_line(p.name, i, row))
    return out


def by_side(state: State) -> list[Player]:
    """White first, then black."""
    return sorted(players(state), key=lambda p: p.user_id != state.white)


def _chain(texts: list[Text]) -> Text:
    head = texts[0]
    for t in texts[1:]:
        head = Text("logik.two_lines", {"first": head, "second": t})
    return head


def _picture(state: State) -> bytes | None:
    from core.games.logik_picture import render
    return render(state)


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: the text board (no secret, no pending row) and the picture."""
    if state.phase is Phase.PLAYING:
        waiting = ", ".join(p.name for p in by_side(state) if p.user_id not in state.pending)
        status = Text("logik.board_round", {"round": round_no(state), "names": waiting})
    elif state.phase is Phase.SECRETS:
        waiting = ", ".join(p.name for p in by_side(state) if p.user_id not in state.secrets)
        status = Text("logik.board_secrets", {"names": waiting})
    else:
        status = Text("logik.board_challenge", {"name": player(state, offerer(state)).name})
    lines = _lines(state)
    msg = say(chat, "logik.board", game=game_id, rows=state.rows_max, status=status,
              white=player(state, state.white).name, lines=_chain(lines) if lines else "—",
              score=score_line(state))
    image = _picture(state) if state.phase is not Phase.CHALLENGE else None
    return Message(msg.to, msg.text, msg.buttons, image=image)


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    out: list[Message] = []
    name = {p.user_id: p.name for p in players(state)}
    for ev in events:
        d = ev.data
        t = ev.type
        if t == "challenged":
            keys = ((button(game_id, "accept", "button.accept"), button(game_id, "decline", "button.decline")),)
            key = "logik.challenged_open" if state.opponent is None else "logik.challenged"
            out.append(say(chat, key, keys, challenger=state.challenger.name,
                           opponent=state.opponent.name if state.opponent else "", rows=state.rows_max))
        elif t == "declined":
            out.append(say(chat, "logik.declined", name=name[d["by"]]))
        elif t == "cancelled":
            out.append(say(chat, "logik.cancelled", name=name[d["by"]]))
        elif t == "accepted":
            if state.offered_by is not None:  # a rematch: the other one accepts the offerer's rematch
                out.append(say(chat, "logik.accepted_rematch", name=name[d["by"]], offerer=name[state.offered_by]))
            else:
                out.append(say(chat, "logik.accepted", name=name[d["by"]], challenger=state.challenger.name))
        elif t == "rematch":
            keys = ((button(game_id, "accept", "button.accept"), button(game_id, "decline", "button.decline")),)
            out.append(say(chat, "logik.rematch", keys, name=name[d["by"]], other=other(state, d["by"]).name,
                           white=name[d["white"]], score=score_line(state)))
        elif t == "secrets_wanted":
            out.extend(_secret_prompts(game_id, state, chat))
        elif t == "secret_set":
            p = player(state, d["by"])
            out.append(say(to_actor(chat, p), "logik.secret_locked", pegs=pegs(state.secrets[p.user_id]),
                           game=game_id))
            out.append(say(chat, "logik.secret_ready", name=p.name))
        elif t == "started":
            b = black(state)
            out.append(say(chat, "logik.started", white=name[state.white], black=b.name if b else "",
                           rows=state.rows_max, legend=legend()))
        elif t == "submitted":
            if d["by"] in state.pending:  # the round is still open: confirm, reveal nothing
                out.append(say(chat, "logik.submitted", round=d["round"], name=name[d["by"]],
                               other=other(state, d["by"]).name))
        elif t == "revealed":
            left = Text("logik.rows_left", {"n": state.rows_max - d["round"]}) if state.phase is Phase.PLAYING else ""
            out.append(say(chat, "logik.revealed", round=d["round"], lines=_chain(_lines(state, [d["round"]])),
                           left=left))
        elif t == "resigned":
            out.append(say(chat, "logik.resigned", name=name[d["by"]], winner=other(state, d["by"]).name))
        elif t == "timed_out":
            out.append(say(chat, "logik.timed_out"))
        elif t == "finished" and d["outcome"] not in ("declined", "cancelled", "expired"):
            out.append(_final(game_id, state, chat))
    return out


def _secret_prompts(game_id: int, state: State, chat: Chat) -> list[Message]:
    out = []
    for p in players(state):
        if p.user_id in state.secrets:
            continue
        set_secret = Button(Text("button.set_secret"), f"g:{game_id}:secret",
                            prompt=Text("logik.secret_input"))
        fallback = say(chat, "logik.secret_fallback", ((set_secret,),), name=p.name)
        prompt = say(to_actor(chat, p), "logik.secret_prompt",
                     ((button(game_id, "random", "button.random_secret"),),),
                     opponent=other(state, p.user_id).name, game=game_id,
                     side=Text(SIDE_KEYS[side(state, p.user_id)]), legend=legend())
        out.append(Message(prompt.to, prompt.text, prompt.buttons, fallback=fallback))
    return out


def _final(game_id: int, state: State, chat: Chat) -> Message:
    """The end: the result, both secrets, the match score, and the picture of both boards."""
    if state.outcome == "win":
        result = Text("logik.result_win", {"name": player(state, state.winner or "").name,
                                           "round": state.solved_round})
    elif state.outcome == "resigned":
        result = Text("logik.result_resigned", {"name": player(state, state.winner or "").name})
    elif state.outcome == "draw" and state.solved_round is not None:
        result = Text("logik.result_both_solved", {"round": state.solved_round})
    elif state.outcome == "draw":
        result = Text("logik.result_rows_used", {"rows": state.rows_max})
    else:
        result = Text("logik.result_timeout")
    secrets = [Text("logik.secret_of", {"name": p.name, "pegs": pegs(state.secrets[p.user_id])})
               for p in by_side(state) if p.user_id in state.secrets]
    buttons = ((button(game_id, "rematch", "button.rematch"),),)
    msg = say(chat, "logik.final", buttons, result=result, secrets=_chain(secrets) if secrets else "—",
              score=score_line(state))
    return Message(msg.to, msg.text, msg.buttons, image=_picture(state))
