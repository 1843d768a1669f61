"""The club's members merged (/kegelmerge OLD NEW): the question, its ✅/❌ answer and who may merge."""

from __future__ import annotations

import secrets
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from bot.app import ratings_rebuild
from bot.app.turn import Turn
from bot.club import records
from bot.club import roles as club_roles
from bot.club.cash import fines as cash_fines
from bot.club.host import ClubGames, host
from bot.games.plugin import Services
from bot.storage.base import GameRow
from core import names
from core.club.roles import Act
from core.errors import GameError
from core.messages import Actor, Button, Chat, Inbound, Message, Text

MERGE_TTL = 600.0  # seconds: how long a /kegelmerge question can be answered


@dataclass(frozen=True)
class MergeAsk:
    """A /kegelmerge waiting for its asker's ✅: the chat, who asked, the names as typed, and the chat's
    finished Kegeln games when asked (how many, the sum of their versions: any game ending or final state
    rewritten since makes the question stale)."""

    platform: str
    chat_id: str
    asker: str
    asker_name: str
    admin: bool  # the asker is a chat admin (a button press may not say so: the question's rule holds)
    old: str
    new: str
    stamp: tuple[int, int]
    at: float


# the /kegelmerge questions waiting for ✅ per App (kept in the process that asked: after a restart, or
# pressed in another process, the button is stale and the asker asks again)
_ASKS: weakref.WeakKeyDictionary[Services, dict[str, MergeAsk]] = weakref.WeakKeyDictionary()


def asks_of(svc: Services) -> dict[str, MergeAsk]:
    return _ASKS.setdefault(svc, {})


def finished_stamp(finished: Sequence[tuple[GameRow, float]]) -> tuple[int, int]:
    return len(finished), sum(row.version for row, _at in finished)


async def member_lines(svc: Services, ib: Inbound, old: str, new: str) -> dict[str, records.MemberLine]:
    """The club lines of the two names a /kegelmerge gives (refused when one has none)."""
    lines = {}
    for name in (old, new):
        line = await records.member(svc.store, ib.chat.platform, ib.chat.chat_id, name)
        if line is None:
            raise GameError("kegeln.unknown_member", name=name[:40])
        lines[name] = line
    return lines


def merge_check(games: ClubGames, old: str, new: str, lines: dict[str, records.MemberLine],
                stamp: tuple[int, int] | None) -> records.MergeCheck:
    """What a merge needs, checked on the games as its own transaction sees them (and once before asking):
    the records are those the question showed (`stamp`), the two never played in one game (two people),
    and neither name plays in a running game. Who may merge is a role (`may_merge`), asked before."""
    def check(running: Sequence[GameRow], finished: Sequence[tuple[GameRow, float]]) -> None:
        if stamp is not None and finished_stamp(finished) != stamp:
            raise GameError("kegeln.merge.stale")
        shared = [row.id for row, _at in finished
                  if {old.casefold(), new.casefold()} <= {n.casefold() for n in member_names(games, row)}]
        if shared:
            raise GameError("kegeln.merge.same_game", old=lines[old].name[:40], new=lines[new].name[:40],
                            games=", ".join(f"#{g}" for g in shared[:5]))
        for row in running:
            playing = {n.casefold() for n in games.played(row).names}
            for name in (old, new):
                if name.casefold() in playing:
                    raise GameError("kegeln.merge.running", name=lines[name].name[:40], game=row.id)
    return check


def member_names(games: ClubGames, row: GameRow) -> tuple[str, ...]:
    """The members of a completed club game (none for a cancelled or casual one: it has no club records)."""
    played = games.played(row)
    return played.names if played.done and played.club else ()


async def cmd_kegelmerge(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/kegelmerge OLD NEW: the scorer typed one person under two names. Checked, then asked back with
    ✅/❌ that only the asker can answer (`Kegeln.chat_action` merges, if the records are still those the
    question showed): a merge cannot be undone."""
    ib = turn.inbound
    old, new = merge_names(args)
    lines = await member_lines(svc, ib, old, new)
    club = host(svc)
    finished = await records.finished(svc.store, club.kind, ib.chat.platform, ib.chat.chat_id)
    running = [r for r in await svc.store.chat_games(ib.chat.platform, ib.chat.chat_id) if r.kind == club.kind]
    merge_check(club.games, old, new, lines, None)(running, finished)  # refused now rather than after ✅
    await may_merge(svc, ib.actor, ib.chat)  # (two people of one game: said first, as nobody may merge them)
    asks = asks_of(svc)
    now = svc.clock()
    for token in [t for t, a in asks.items() if now - a.at > MERGE_TTL]:
        del asks[token]
    token = secrets.token_hex(5)
    asks[token] = MergeAsk(ib.chat.platform, ib.chat.chat_id, ib.actor.user_id, ib.actor.name,
                           ib.actor.is_admin, old, new,
                           finished_stamp(finished), now)
    action = f"{club.kind}:{ib.chat.chat_id}:{token}-"
    turn.messages.append(Message(ib.chat, Text("kegeln.merge.confirm", {
        "old": lines[old].name, "new": lines[new].name, "n": lines[old].games,
        "total": lines[old].games + lines[new].games, "asker": ib.actor.name}),
        ((Button(Text("kegeln.merge.yes"), action + "yes"), Button(Text("kegeln.merge.no"), action + "no")),)))


async def answer_merge(svc: Services, turn: Turn, chat: Chat, arg: str) -> None:
    """✅ or ❌ on a /kegelmerge question (`<host>:<chat>:<token>-yes|no`; bot/app/routing.py has checked that it
    comes from that chat): only the asker answers; ✅ merges in one transaction that checks everything
    again (`merge_check`) and the stored records' stamp: a question is stale once a game has ended, a merge
    has been made, or MERGE_TTL has passed."""
    ib = turn.inbound
    token, _, answer = arg.rpartition("-")
    asks = asks_of(svc)
    ask = asks.get(token)
    if (ask is None or answer not in ("yes", "no") or (ask.platform, ask.chat_id) != (chat.platform, chat.chat_id)
            or svc.clock() - ask.at > MERGE_TTL):
        raise GameError("kegeln.merge.stale")
    if ib.actor.user_id != ask.asker:
        raise GameError("kegeln.merge.not_yours", name=ask.asker_name)
    del asks[token]
    if answer == "no":
        turn.messages.append(Message(chat, Text("kegeln.merge.cancelled", {"old": ask.old, "new": ask.new})))
        return
    if not ask.admin:  # a button press says nothing of admin rights: the asker's, when asked, hold
        await may_merge(svc, ib.actor, chat)
    try:
        lines = await member_lines(svc, ib, ask.old, ask.new)
    except GameError:
        raise GameError("kegeln.merge.stale") from None  # merged away meanwhile
    old, new, kept = ask.old, ask.new, lines[ask.new].name
    club = host(svc)
    shared = await records.merge(
        svc.store, club.kind, chat.platform, chat.chat_id, old.casefold(), new.casefold(), kept,
        restate=lambda raw: club.games.renamed(raw, old.casefold(), kept),
        rerate=lambda finished: ratings_rebuild.replay_local(svc, finished),
        check=merge_check(club.games, old, new, lines, ask.stamp),
        after=cash_fines.merge_job(chat.platform, chat.chat_id, names.key(old), names.key(new), lines[old].name,
                                   kept, svc.clock(), ib.actor.user_id, ib.actor.name))
    if shared:  # (merge_check has refused these already)
        raise GameError("kegeln.merge.same_game", old=lines[old].name[:40], new=kept[:40],
                        games=", ".join(f"#{g}" for g in shared[:5]))
    turn.messages.append(Message(chat, Text("kegeln.merge.done", {
        "old": lines[old].name, "new": kept, "n": lines[old].games, "total": lines[old].games + lines[new].games})))


def merge_names(args: tuple[str, ...]) -> tuple[str, str]:
    """OLD and NEW: two words, or names with spaces split by `/`, `→` or `->` (`Klaus M. / Klaus`)."""
    text = " ".join(args)
    for sep in ("->", "→", "/"):
        if sep in text:
            parts = [names.clean(p) for p in text.split(sep)]
            break
    else:
        parts = [names.clean(p) for p in text.split()]
    if len(parts) != 2 or not all(parts):
        raise GameError("kegeln.merge.usage")
    if parts[0].casefold() == parts[1].casefold():
        raise GameError("kegeln.merge.same", name=parts[0][:40])
    return parts[0], parts[1]


async def may_merge(svc: Services, actor: Actor, chat: Chat) -> None:
    """A merge moves a member's records: a chat admin or an appointed scorer may (core/club/roles.py) — a
    role, never games played (one made-up game would otherwise make its scorer "the scorer of X")."""
    await club_roles.require(svc, actor, chat, Act.MERGE)
