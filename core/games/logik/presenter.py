"""Logik's presenter: the texts, buttons and board pictures of each event (docs/logik.md)."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Event, button, say, to_actor
from core.games.challenge import Phase, awaiting_secret, offerer, other, player, players
from core.games.challenge_events import UNPLAYED, ChallengeOutcome, Finished, SecretSet, SecretsWanted
from core.games.challenge_presenter import flow_message, secret_prompts
from core.games.challenge_presenter import score_line as score_line_of
from core.games.logik import picture
from core.games.logik.events import Revealed, Started, Submitted
from core.games.logik.rules import BLACK_PEG, SIDE_KEYS, WHITE_PEG, Row, State, black, by_side, round_no, side
from core.messages import Chat, Message, Text
from core.pegs import BY_NUMBER, legend  # the colours, and their legend shown with every request for a row


def peg(digit: str) -> Text:
    """One peg: its colour symbol with the number and the reader's initial beside it (🟥1R, 🟥1К)."""
    c = BY_NUMBER[int(digit)]
    return Text("logik.peg", {"symbol": c.symbol, "number": c.number, "initial": Text(c.initial_key)})


def pegs(code: str) -> Text:
    """A row of five pegs: 🟥1R 🟩2G … (English), 🟥1К 🟩2З … (Russian)."""
    return Text("logik.pegs", {f"p{i}": peg(d) for i, d in enumerate(code, 1)})


def feedback(row: Row) -> Text:
    """Black pegs first, then white, and the same in words: "2 black, 1 white"."""
    return Text("logik.feedback", {"pegs": BLACK_PEG * row.black + WHITE_PEG * row.white or "–",
                                   "blacks": Text("logik.blacks", {"n": row.black}),
                                   "whites": Text("logik.whites", {"n": row.white})})


def row_line(name: str, n: int, row: Row) -> Text:
    return Text("logik.row", {"name": name, "round": n, "pegs": pegs(row.code), "feedback": feedback(row)})


def score_line(state: State) -> Text:
    return score_line_of(state, "logik.match_score")


def _lines(state: State, rounds: Sequence[int] | None = None) -> list[Text]:
    out = []
    for p in by_side(state):
        for i, row in enumerate(state.rows.get(p.user_id, []), 1):
            if rounds is None or i in rounds:
                out.append(row_line(p.name, i, row))
    return out


def _chain(texts: list[Text]) -> Text:
    head = texts[0]
    for t in texts[1:]:
        head = Text("logik.two_lines", {"first": head, "second": t})
    return head


def _picture(state: State) -> bytes | None:
    return picture.render(state)


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
        flow = flow_message(game_id, state, ev, chat, "logik", {"rows": state.rows_max})
        if flow is not None:
            out.append(flow)
            continue
        match ev:
            case SecretsWanted():
                out.extend(secret_prompts(
                    game_id, state, chat, "logik", Text("logik.secret_input"),
                    lambda p: {"side": Text(SIDE_KEYS[side(state, p.user_id)]), "legend": legend()}))
            case SecretSet(by=by):
                p = player(state, by)
                out.append(say(to_actor(chat, p), "logik.secret_locked", pegs=pegs(state.secrets[p.user_id]),
                               game=game_id))
                out.append(say(chat, "logik.secret_ready", name=p.name))
            case Started():
                b = black(state)
                out.append(say(chat, "logik.started", white=name[state.white], black=b.name if b else "",
                               rows=state.rows_max, legend=legend()))
            case Submitted(by=by, round=n) if by in state.pending:  # the round is still open: confirm, reveal nothing
                out.append(say(chat, "logik.submitted", round=n, name=name[by],
                               other=other(state, by).name).notify(other(state, by).user_id))
            case Revealed(round=n):
                left = Text("logik.rows_left", {"n": state.rows_max - n}) if state.phase is Phase.PLAYING else ""
                out.append(say(chat, "logik.revealed", round=n, lines=_chain(_lines(state, [n])), left=left))
            case Finished(outcome=outcome) if outcome not in UNPLAYED:
                out.append(_final(game_id, state, chat))
    return out


def _final(game_id: int, state: State, chat: Chat) -> Message:
    """The end: the result, both secrets, the match score, and the picture of both boards."""
    if state.outcome == ChallengeOutcome.WIN:
        result = Text("logik.result_win", {"name": player(state, state.winner or "").name,
                                           "round": state.solved_round})
    elif state.outcome == ChallengeOutcome.RESIGNED or (state.outcome == ChallengeOutcome.TIMEOUT and state.winner):
        result = Text("logik.result_resigned", {"name": player(state, state.winner or "").name})
    elif state.outcome == ChallengeOutcome.DRAW and state.solved_round is not None:
        result = Text("logik.result_both_solved", {"round": state.solved_round})
    elif state.outcome == ChallengeOutcome.DRAW:
        result = Text("logik.result_rows_used", {"rows": state.rows_max})
    else:
        result = Text("logik.result_timeout")
    secrets = [Text("logik.secret_of", {"name": p.name, "pegs": pegs(state.secrets[p.user_id])})
               for p in by_side(state) if p.user_id in state.secrets]
    buttons = ((button(game_id, "rematch", "button.rematch", settles=True),),)
    msg = say(chat, "logik.final", buttons, result=result, secrets=_chain(secrets) if secrets else "—",
              score=score_line(state))
    return Message(msg.to, msg.text, msg.buttons, image=_picture(state))


def secret_prompt(game_id: int, state: State, user_id: str) -> Text | None:
    if not awaiting_secret(state, user_id):
        return None
    return Text("logik.secret_prompt_again", {"game": game_id, "opponent": other(state, user_id).name,
                                              "legend": legend()})
