"""The word game's presenter: its messages for events, the /board, the answer and standings texts."""

from __future__ import annotations

from collections.abc import Sequence

from core.games.base import Event, Verb, button, say, to_actor
from core.games.words.actions import WordsVerb
from core.games.words.events import (
    Abandoned,
    Begun,
    Cancelled,
    ClassicAnswer,
    Guessed,
    Guessing,
    Joined,
    Left,
    LimitReached,
    Lobby,
    MatchOver,
    NewRound,
    Reminded,
    SetterSkipped,
    Skipped,
    Solo,
    SoloGaveUp,
    SoloSolved,
    Solved,
    TimedOut,
    Voted,
    WordSet,
)
from core.games.words.state import AUTONYMS, Mode, Phase, State, Try, WordsOutcome, active, is_pair, played, player
from core.messages import Chat, Message, Text

_ANSWER_KEYS = {ClassicAnswer.MISS: "words.answer.miss", ClassicAnswer.COW: "words.answer.cow",
                ClassicAnswer.BULL: "words.answer.bull", ClassicAnswer.GOT: "words.answer.got"}


def answer_text(state: State, t: Try) -> Text:
    """Classic: the symbol and the answer word in the game's language — a reader of another chat language
    sees their own word in brackets beside it (`мимо (miss)`), one of the same language sees it once;
    counts: A and B."""
    if state.opts.counts:
        return Text("words.counts", {"a": t.bulls, "b": t.cows})
    return Text("words.answer_line", {"symbol": SYMBOLS[t.answer],
                                      "word": Text(_ANSWER_KEYS[t.answer], lang=state.opts.lang)})


def options_text(state: State) -> Text:
    o = state.opts
    mode = state.mode if state.phase is not Phase.LOBBY else o.mode
    goal = state.goal if state.phase is not Phase.LOBBY else o.goal
    ends = {Mode.POINTS: "words.ends.points", Mode.ROUNDS: "words.ends.rounds",
            Mode.PAIR_ROUNDS: "words.ends.pair_rounds", Mode.PAIR_LIMIT: "words.ends.pair_limit",
            Mode.SOLO: "words.ends.solo"}[mode]
    return Text("words.options", {
        "length": o.length, "lang": AUTONYMS[o.lang], "ends": Text(ends, {"n": goal}),
        "answers": Text("words.answers_counts" if o.counts else "words.answers_classic"),
        "dictionary": Text("words.strict" if o.strict else "words.free"), "seconds": o.turn_seconds})


def _names(state: State, ids: Sequence[str]) -> str:
    return ", ".join(player(state, u).name for u in ids)


def standings(state: State) -> str:
    """One line per player: points (groups) or total guesses (two players), best first. Who left ranks
    below everyone who stayed, all on one shared place (✗), as the ratings rank them
    (bot/games/words/ratings.py): a table must not number a player who left as if they had stayed."""
    gone = set(state.left)
    stayed = [p for p in state.players if p.user_id not in gone]
    left = [p for p in state.players if p.user_id in gone]
    if is_pair(state):
        stayed.sort(key=lambda p: state.counts.get(p.user_id, 0))
        return "\n".join([f"{p.name}: {state.counts.get(p.user_id, 0)}" for p in stayed]
                         + [f"{p.name}: {state.counts.get(p.user_id, 0)} ✗" for p in left])
    stayed.sort(key=lambda p: -state.points.get(p.user_id, 0))
    left.sort(key=lambda p: -state.points.get(p.user_id, 0))
    lines, place, prev = [], 0, None
    for i, p in enumerate(stayed, 1):
        pts = state.points.get(p.user_id, 0)
        if pts != prev:
            place, prev = i, pts
        lines.append(f"{place}. {p.name}: {pts}")
    lines += [f"{len(stayed) + 1}. {p.name}: {state.points.get(p.user_id, 0)} ✗" for p in left]
    return "\n".join(lines)


SYMBOLS = {ClassicAnswer.MISS: "⚪", ClassicAnswer.COW: "🐄", ClassicAnswer.BULL: "🐂", ClassicAnswer.GOT: "🎯"}


def symbol(state: State, t: Try) -> str:
    """The compact answer of the board: one symbol (classic) or counts."""
    return f"{t.bulls}🐂 {t.cows}🐄" if state.opts.counts else SYMBOLS[t.answer]


def board(game_id: int, state: State, chat: Chat) -> Message:
    """/board: phase, whose turn, this round's words and answers (never the secret), the standings."""
    if state.phase is Phase.LOBBY:
        status = Text("words.board_lobby", {"names": _names(state, active(state))})
    elif state.phase is Phase.SETTING:
        status = Text("words.board_setting", {"name": player(state, state.setter or "").name})
    elif state.phase is Phase.GUESSING and state.turn:
        status = Text("words.board_turn", {"name": player(state, state.turn).name})
    else:
        status = Text("words.board_over")
    rows = "\n".join(f"#{i} {player(state, t.by).name}: {t.word} → {symbol(state, t)}"
                     for i, t in enumerate(state.tries, 1))
    return say(chat, "words.board", game=game_id, options=options_text(state), status=status, tries=rows or "—",
               standings=standings(state) if state.points else "—")


def present(game_id: int, state: State, events: Sequence[Event], chat: Chat) -> list[Message]:
    out: list[Message] = []
    name = {p.user_id: p.name for p in state.players}
    for ev in events:
        match ev:
            case Lobby():
                keys = ((button(game_id, WordsVerb.JOIN, "words.button_join"),
                         button(game_id, WordsVerb.BEGIN, "words.button_begin", settles=True)),)
                out.append(say(chat, "words.lobby", keys, name=state.opener.name, options=options_text(state)))
            case Joined(by=by, n=n):
                out.append(say(chat, "words.joined", name=name[by], n=n, opener=state.opener.name))
            case Left(name=gone, n=n):
                out.append(say(chat, "words.left", name=gone, n=n))
            case Cancelled():
                out.append(say(chat, "words.cancelled", name=state.opener.name))
            case Begun(setter=setter):
                order = ", ".join(p.name for p in state.players)
                out.append(say(chat, "words.begun", order=order, setter=name[setter], options=options_text(state)))
            case NewRound(n=n, setter=setter):
                out.extend(_round_start(game_id, state, chat, n, setter))
            case WordSet(by=by):
                out.append(say(to_actor(chat, player(state, by)), "words.word_locked", word=state.secret,
                               game=game_id))
            case Guessing(turn=turn):
                vote = ((button(game_id, WordsVerb.VOTE, "words.button_vote"),),)
                out.append(say(chat, "words.guessing", vote, setter=name.get(state.setter or "", ""),
                               name=name[turn], length=state.opts.length, seconds=state.opts.turn_seconds)
                           .notify(turn))
            case Guessed(by=by, word=word, answer=answer, bulls=bulls, cows=cows):
                tr = Try(by, word, answer, bulls, cows)
                nxt = state.turn if state.phase is Phase.GUESSING and state.mode is not Mode.SOLO else None
                if nxt and answer is not ClassicAnswer.GOT:
                    out.append(say(chat, "words.guess_next", name=name[by], word=word,
                                   answer=answer_text(state, tr), next=name[nxt]).notify(nxt))
                else:
                    out.append(say(chat, "words.guess", name=name[by], word=word, answer=answer_text(state, tr)))
            case Solved(by=by, word=word, n=n):
                out.append(say(chat, "words.solved", name=name[by], word=word, n=n, standings=standings(state)))
            case Voted(by=by, votes=votes, needed=needed):
                out.append(say(chat, "words.vote", name=name[by], votes=votes, n=needed))
            case Abandoned(word=word, setter=setter, left=left, guesser=guesser, penalty=penalty):
                if penalty:  # two players: the guesser pays for the word given up
                    out.append(say(chat, "words.abandoned_penalty", word=word or "—", n=penalty,
                                   name=name.get(guesser or "", "?"), setter=name.get(setter, "?")))
                else:
                    key = ("words.abandoned_left" if word else "words.setter_left_unset") if left \
                        else "words.abandoned"
                    out.append(say(chat, key, word=word or "—", setter=name.get(setter, "?")))
            case Skipped(by=by, turn=turn):
                out.append(say(chat, "words.skipped", name=name.get(by or "", "?"), next=name[turn or ""],
                               seconds=state.opts.turn_seconds).notify(*([turn] if turn else [])))
            case Reminded(by=by):
                out.append(say(chat, "words.reminded", name=name[by], seconds=state.opts.turn_seconds).notify(by))
            case SetterSkipped(by=by, setter=setter):
                out.append(say(chat, "words.setter_skipped", name=name.get(by or "", "?"), setter=name[setter]))
            case LimitReached(by=by, n=n):
                out.append(say(chat, "words.limit_reached", name=name[by], n=n))
            case MatchOver(word=word):
                out.append(_final(game_id, state, chat, word))
            case TimedOut() if state.outcome is WordsOutcome.FINISHED:  # decided: who owed the move left it
                out.append(say(chat, "words.timed_out_lost", name=name.get(state.left[-1], "?")))
            case TimedOut(word=word):
                out.append(say(chat, "words.timed_out", word=word or "—"))
            case Solo():
                out.append(say(chat, "words.solo_started", name=state.opener.name, length=state.opts.length,
                               lang=AUTONYMS[state.opts.lang],
                               answers=Text("words.answers_counts" if state.opts.counts else "words.answers_classic")))
            case SoloSolved(n=n):
                again = ((button(game_id, Verb.AGAIN, "button.again", settles=True),),)
                out.append(say(chat, "words.solo_solved", again, name=state.opener.name, word=state.secret, n=n))
            case SoloGaveUp(word=word, n=n):
                out.append(say(chat, "words.solo_gave_up", name=state.opener.name, word=word, n=n))
    return out


def _round_start(game_id: int, state: State, chat: Chat, n: int, setter_id: str) -> list[Message]:
    """Announce the round in the group; ask the setter privately (the group gets a fallback button)."""
    setter = player(state, setter_id)
    out = [say(chat, "words.round", n=n, setter=setter.name)]
    enter = button(game_id, Verb.SECRET, "words.button_set_word",
                   prompt=Text("words.word_input", {"length": state.opts.length}))
    fallback = say(chat, "words.word_fallback", ((enter,),), name=setter.name).notify(setter.user_id)
    draw = button(game_id, Verb.RANDOM, "words.button_random", settles=True)
    prompt = say(to_actor(chat, setter), "words.word_prompt", ((draw,),),
                 game=game_id, length=state.opts.length, lang=AUTONYMS[state.opts.lang])
    out.append(Message(prompt.to, prompt.text, prompt.buttons, fallback=fallback))
    return out


def _final(game_id: int, state: State, chat: Chat, word: str) -> Message:
    if len(state.winners) == 1:
        result = Text("words.result_win", {"name": player(state, state.winners[0]).name})
    elif state.winners:
        result = Text("words.result_draw", {"names": _names(state, state.winners)})
    elif not played(state):
        result = Text("words.result_no_word")
    else:
        result = Text("words.result_none")
    history = "\n".join(
        f"{i}. {player(state, r.setter).name if r.setter else '—'}: {r.word or '—'} → "
        + (f"{player(state, r.solver).name} ({r.guesses})" if r.solver else f"✗ ({r.guesses})")
        for i, r in enumerate(state.rounds, 1))
    return say(chat, "words.final", result=result, standings=standings(state), rounds=history or "—",
               word=Text("words.final_word", {"word": word}) if word else "")
