"""/verein (/club, /klubb, /клуб): the club's roster and roles — who is a member (names, optionally linked to a
chat account) and whom a chat admin appointed to keep the club's score. Who may do what: core/club/roles.py."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.app.turn import Command, Turn
from bot.club import roles, storage
from bot.games.plugin import Services
from bot.texts.option_words import mention_id, vocabulary_of
from core import names
from core.club.roles import Act, Role
from core.club.roster import parse_names
from core.errors import GameError
from core.messages import Message, Text

# each action of /verein → the catalog list of the words naming it in every language
ACTIONS: dict[str, str] = {
    "scorer": "club.words.scorer", "add": "club.words.add", "remove": "club.words.remove",
    "link": "club.words.link", "confirm": "club.words.confirm", "unlink": "club.words.unlink",
}


def vocabulary(svc: Services) -> dict[str, str]:
    """Every language's words for the actions → the action (a word two actions share is left out)."""
    return vocabulary_of(svc.catalogs, ACTIONS, fold=True)


async def cmd_verein(svc: Services, turn: Turn, args: tuple[str, ...]) -> None:
    """/verein alone: the roster and the roles; /verein ACTION …: one of ACTIONS, in any language's words."""
    words = " ".join(args).split()
    if not words:
        await overview(svc, turn)
        return
    action = vocabulary(svc).get(words[0].casefold())
    if action is None:
        raise GameError("club.unknown_action", word=words[0][:30])
    await HANDLERS[action](svc, turn, words[1:])


async def overview(svc: Services, turn: Turn) -> None:
    ib = turn.inbound
    chat = ib.chat
    members = await storage.roster(svc.store, chat.platform, chat.chat_id)
    scorers = await storage.holders(svc.store, chat.platform, chat.chat_id, Role.SCORER.value)
    _tid, treasurer = await roles.treasurer(svc, chat)
    shown = members[:svc.list_lines]
    lines: list[Text | str] = [
        Text("club.member_linked" if m.linked else "club.member_asked" if m.user_id else "club.member",
             {"name": m.name}) for m in shown]
    if len(members) > len(shown):
        lines.append(Text("board.more", {"n": len(members) - len(shown)}))
    nobody = Text("club.nobody")
    turn.messages.append(Message(chat, Text("club.view", {
        "head": Text("club.count", {"n": len(members)}), "members": lines or [Text("club.no_members")],
        "scorers": ", ".join(h.name for h in scorers) or nobody, "treasurer": treasurer or nobody})))


# ---------------------------------------------------------------- roles
async def scorer(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein scorer NAME appoints a scorer; /verein scorer remove NAME takes the role back (a chat admin)."""
    ib = turn.inbound
    chat = ib.chat
    await roles.require(svc, ib.actor, chat, Act.APPOINT)
    removing = bool(words) and vocabulary(svc).get(words[0].casefold()) == "remove"
    written = " ".join(words[1:] if removing else words)
    if not written:
        raise GameError("club.usage_scorer")
    if removing:
        held = await storage.holders(svc.store, chat.platform, chat.chat_id, Role.SCORER.value)
        wanted = mention_id(written)
        found = [h for h in held if h.user_id == wanted or names.key(h.name) == names.key(written)]
        if not found:
            raise GameError("club.not_a_scorer", name=written[:40])
        await svc.store.run(storage.dismiss_job(chat.platform, chat.chat_id, Role.SCORER.value, found[0].user_id))
        turn.messages.append(Message(chat, Text("club.dismissed", {"name": found[0].name})))
        return
    player = await svc.players.find(ib, written, for_scorer=True)  # someone who can act: has written here
    await svc.store.run(storage.appoint_job(chat.platform, chat.chat_id, Role.SCORER.value, player.user_id,
                                            player.name, ib.actor.user_id, svc.clock()))
    turn.messages.append(Message(chat, Text("club.appointed", {"name": player.name})))


# ---------------------------------------------------------------- the roster
async def add(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein add Klaus, Birgit Maier: new members (a chat admin or the treasurer)."""
    ib = turn.inbound
    await roles.require(svc, ib.actor, ib.chat, Act.ROSTER)
    given = parse_names(" ".join(words)) if words else {}
    if not given:
        raise GameError("club.usage_add")
    added = await svc.store.run(storage.add_job(ib.chat.platform, ib.chat.chat_id, given, ib.actor.user_id,
                                                svc.clock()))
    turn.messages.append(Message(ib.chat, Text("club.added", {"n": len(added), "names": ", ".join(added)})
                                 if added else Text("club.added_none")))


async def known(svc: Services, turn: Turn, written: str) -> storage.Member:
    """The roster member `written` names (refused when the club has no such member)."""
    ib = turn.inbound
    if not names.clean(written):
        raise GameError("club.usage_member")
    found = await storage.member(svc.store, ib.chat.platform, ib.chat.chat_id, names.key(written))
    if found is None:
        raise GameError("club.not_member", name=names.clean(written)[:40])
    return found


async def remove(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein remove NAME: off the roster (a chat admin or the treasurer); the club's records stay."""
    ib = turn.inbound
    await roles.require(svc, ib.actor, ib.chat, Act.ROSTER)
    m = await known(svc, turn, " ".join(words))
    await svc.store.run(storage.remove_job(ib.chat.platform, ib.chat.chat_id, m.member))
    turn.messages.append(Message(ib.chat, Text("club.removed", {"name": m.name})))


async def link(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein link NAME: a member asks that their account be NAME (an admin or the treasurer confirms);
    an admin or the treasurer links at once: /verein link NAME (themself) or /verein link NAME ACCOUNT."""
    ib = turn.inbound
    chat = ib.chat
    keeper = await roles.allowed(svc, ib.actor, chat, Act.ROSTER)
    text = " ".join(words)
    m = await storage.member(svc.store, chat.platform, chat.chat_id, names.key(text)) if text else None
    if m is None and keeper and len(words) > 1:  # NAME ACCOUNT: the last word is the account
        m = await known(svc, turn, " ".join(words[:-1]))
        player = await svc.players.find(ib, words[-1], for_scorer=True)
        await svc.store.run(storage.link_job(chat.platform, chat.chat_id, m.member, player.user_id, True))
        turn.messages.append(Message(chat, Text("club.linked", {"name": m.name, "user": player.name})))
        return
    if m is None:
        await known(svc, turn, text)  # refused: no such member
        return
    if m.linked and m.user_id != ib.actor.user_id and not keeper:
        raise GameError("club.taken", name=m.name)
    await svc.store.run(storage.link_job(chat.platform, chat.chat_id, m.member, ib.actor.user_id, keeper))
    key = "club.linked" if keeper else "club.link_asked"
    turn.messages.append(Message(chat, Text(key, {"name": m.name, "user": ib.actor.name})))


async def confirm(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein confirm NAME: an admin or the treasurer confirms the link a member asked for."""
    ib = turn.inbound
    await roles.require(svc, ib.actor, ib.chat, Act.ROSTER)
    m = await known(svc, turn, " ".join(words))
    if m.user_id is None or m.linked:
        raise GameError("club.nothing_asked", name=m.name)
    await svc.store.run(storage.link_job(ib.chat.platform, ib.chat.chat_id, m.member, m.user_id, True))
    turn.messages.append(Message(ib.chat, Text("club.confirmed", {"name": m.name})))


async def unlink(svc: Services, turn: Turn, words: list[str]) -> None:
    """/verein unlink NAME: the link goes (an admin, the treasurer, or the linked account itself)."""
    ib = turn.inbound
    m = await known(svc, turn, " ".join(words))
    if m.user_id != ib.actor.user_id:
        await roles.require(svc, ib.actor, ib.chat, Act.ROSTER)
    await svc.store.run(storage.link_job(ib.chat.platform, ib.chat.chat_id, m.member, None, False))
    turn.messages.append(Message(ib.chat, Text("club.unlinked", {"name": m.name})))


HANDLERS: dict[str, Callable[[Services, Turn, list[str]], Awaitable[None]]] = {
    "scorer": scorer, "add": add, "remove": remove, "link": link, "confirm": confirm, "unlink": unlink,
}

COMMAND = Command("verein", ("what",), cmd_verein, group_only=True,  # a club is a group's
                  aliases=(("en", "club"), ("de", "verein"), ("sv", "klubb"), ("ru", "клуб"), ("ru", "klub"),
                           ("bg", "клуб"), ("bg", "klub")))
