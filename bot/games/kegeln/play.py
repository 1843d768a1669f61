"""Kegeln's play, bot-side: /kegeln, /wurf, /undo, /scorer, /winner, the move's own writes (the scorer's seat)
in its transaction, and a finished game as a rated match."""

from __future__ import annotations

from bot.app.turn import Turn
from bot.club import roles as club_roles
from bot.club import storage as club_storage
from bot.games.plugin import Services
from bot.storage import queries as q
from bot.storage.base import GameRow
from bot.storage.sql import Tx, TxJob
from bot.web import hooks as tv
from core import serial
from core.club.records import MemberRecord
from core.club.roles import Act, Role
from core.errors import GameError
from core.games.base import Player
from core.games.kegeln import actions, options, rules
from core.games.kegeln import tie as kegeln_tie
from core.games.kegeln.state import PUMPE_WORDS, WORD_KEYS, State
from core.messages import Inbound
from core.ratings import Match


async def cmd_kegeln(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegeln high|low [2–6] NAME… (or `teams A B / C D`): whoever starts is the scorer (of one game at a
    time: a scorer of a running game is told so, not that they are "in a game"). Started by a chat admin or
    an appointed scorer it is a club game (its names join the roster when it ends); by anyone else a casual
    one, which gives the club nothing (docs/club.md)."""
    ib = turn.inbound
    running = await svc.players.seated_game(ib.actor, ib.chat)
    if running is not None and running.kind == "kegeln":
        raise GameError("kegeln.already_scoring", game=running.id)
    setup = options.parse_setup(args, svc.option_words)
    state, events = rules.new(setup, Player(ib.actor.user_id, ib.actor.name), svc.ctx())
    state.casual = not await club_roles.allowed(svc, ib.actor, ib.chat, Act.SCORE)
    await svc.runner.create(turn, "kegeln", state, events, [ib.actor.user_id], extra=tv.created_job(svc, ib.chat))
    tv.saved(svc, ib.chat)


async def kegeln_game(svc: Services, ib: Inbound) -> GameRow:
    """The scorer's own game here, else the newest running Kegeln game of the chat (the rules
    then refuse anyone who is neither its scorer nor a chat admin, naming the scorer)."""
    row = await svc.players.seated_game(ib.actor, ib.chat)
    if row is not None and row.kind == "kegeln":
        return row
    running = [r for r in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id) if r.kind == "kegeln"]
    if not running:
        raise GameError("kegeln.no_game")
    return running[-1]


async def cmd_wurf(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/wurf PINS [POSITION]: `/wurf 7`, `/wurf 7 H`, `/wurf 7 100`, `/wurf 7h`, `/wurf pumpe e`."""
    ib = turn.inbound
    words = " ".join(args).split()  # a slash command's option may hold several words
    if words and len(words[0]) > 1 and words[0][0].isdecimal() and not words[0].isdecimal():
        words[:1] = [words[0][0], words[0][1:]]  # "7h" → "7", "h"
    if not words:
        raise GameError("kegeln.needs_pins")
    row = await kegeln_game(svc, ib)
    pins = "0" if words[0].lower() in PUMPE_WORDS else words[0]
    position = None
    if len(words) > 1:
        position = kegeln_position(svc, " ".join(words[1:]), await svc.lang(ib))
    await svc.runner.play(turn, row, actions.Pins(pins, position, ib.actor.is_admin))


async def cmd_throw(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    await cmd_wurf(svc, turn, args)


def kegeln_position(svc: Services, word: str, lang: str) -> int:
    """A position as typed: 1/10/100…, or a localised word or letter (the chat's language first)."""
    w = word.strip().lower().replace(" ", "")
    if w.isdecimal() and w == "1" + "0" * (len(w) - 1):
        return len(w) - 1
    here = {p for p, key in enumerate(WORD_KEYS)
            if w in (str(x).lower() for x in svc.catalogs.catalogs.get(lang, {}).get(key, []))}
    anywhere = {p for p, key in enumerate(WORD_KEYS) if w in svc.catalogs.words(key)}
    found = here or anywhere
    if len(found) != 1:
        raise GameError("kegeln.unknown_position", given=word[:20])
    return found.pop()


async def cmd_undo(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    row = await kegeln_game(svc, turn.inbound)
    await svc.runner.play(turn, row, actions.Undo(turn.inbound.actor.is_admin))


async def cmd_scorer(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/scorer NAME-or-mention hands the scorer role to another chat member (an admin: /scorer takes it)."""
    ib = turn.inbound
    row = await kegeln_game(svc, ib)
    if not args:
        if not ib.actor.is_admin:
            raise GameError("kegeln.scorer_needs_name")
        to = Player(ib.actor.user_id, ib.actor.name)
    else:
        to = await svc.players.find(ib, " ".join(args), for_scorer=True)
        state: State = serial.load(State, row.state)
        held = await club_storage.roles_of(svc.store, ib.chat.platform, ib.chat.chat_id, to.user_id)
        if not state.casual and Role.SCORER.value not in held:  # a club game stays with the club's people
            scorers = await club_storage.holders(svc.store, ib.chat.platform, ib.chat.chat_id, Role.SCORER.value)
            raise GameError("club.may_score", scorers=", ".join(h.name for h in scorers) or "–")
    await svc.runner.play(turn, row, actions.HandOver(to, ib.actor.is_admin))


async def cmd_winner(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/winner NAME (/sieger, /vinnare …): the scorer names the winner of a tie by typing — the same
    decision as its 🏆 button, for a scorer whose buttons are gone."""
    ib = turn.inbound
    row = await kegeln_game(svc, ib)
    state = serial.load(State, row.state)
    winner = kegeln_tie.typed_winner(state, " ".join(args), ib.actor.user_id, ib.actor.is_admin)
    await svc.runner.play(turn, row, winner)


def move_writes(row: GameRow, old: State, new: State) -> TxJob | None:
    """A Kegeln move's own writes, in the move's transaction: the seat follows the scorer role (what the move
    means for the club is the club's: bot/club/games.py `move_job`)."""
    if new.scorer.user_id == old.scorer.user_id:
        return None
    keep = new.scorer.user_id

    async def job(tx: Tx) -> None:
        await tx.execute(q.RELEASE_SEATS_BUT, game_id=row.id, keep=keep)
    return job


def kegeln_match(lines: list[MemberRecord], teams: bool) -> Match | None:
    """A completed game as a ranking by place: members are the players (by casefolded name, as in the
    club statistics), a team duel ranks the teams as teams."""
    entries: dict[str, list[str]] = {}
    places: dict[str, float] = {}
    for i, m in enumerate(lines):
        entry = f"t{m.team}" if teams and m.team is not None else f"m{i}"
        entries.setdefault(entry, []).append(m.name.casefold())
        places[entry] = float(m.place)
    if len(entries) < 2:
        return None
    return Match(tuple(tuple(v) for v in entries.values()), tuple(places[e] for e in entries),
                 {m.name.casefold(): m.name for m in lines})
