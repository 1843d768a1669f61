"""Edited messages (`Inbound.edited`): an edit is taken as the move it now is when the message it edits
has not counted as one yet — so a typo corrected by editing is a move, exactly once — and answered with
a short note when it has (editing a counted guess changes nothing). A redelivered edit says nothing.

Commands alike (issue 35): a command message that was carried out (`once`: not refused) is never
carried out again by an edit — `/kasse pay Klaus 25` edited to `2,50` books nothing more — and the edit
gets a short note (`edit.command`) to send the new version as a new message. A command that was refused
may be corrected by an edit, once, like a move. Both marks live in the `seen` table, which is kept
(a command's as a digest: `command_mark`)."""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable

from bot.app import closing, exposed
from bot.app.turn import Turn
from bot.games.plugin import Services
from core.messages import Message, Text

_running: set[tuple[str, str]] = set()  # (platform, mark) of the commands being carried out in this process


async def reported(svc: Services, turn: Turn) -> bool:
    """What the platform reported about a chat or an earlier message, answered here: a forum topic closed
    or deleted (`Inbound.closed`, bot/app/closing.py), a secret it would not let the bot delete
    (`Inbound.undeleted`, bot/app/exposed.py), or an edit of a message that counted already (`counted`).
    False: the inbound is routed as usual."""
    ib = turn.inbound
    if ib.closed:  # set by the platform itself (a forum topic closed or deleted)
        await closing.on_closed(svc, turn, ib.closed)
        return True
    if ib.undeleted:
        await exposed.on_undeleted(svc, turn)
        return True
    return bool(ib.edited) and await counted(svc, turn)


async def counted(svc: Services, turn: Turn) -> bool:
    """Whether this edit is answered here already: redelivered (nothing to say), or an edit of a message
    that counted as a move (the note). False: route it like a new message; its move is stored under the
    message's id (`Turn.unsaved_seen`), so the message counts once, whichever of its versions made it."""
    ib = turn.inbound
    platform = ib.actor.platform
    if ib.event_id:
        if await svc.store.was_seen(platform, ib.event_id):
            turn.outcome = "duplicate"
            return True
        await svc.store.mark_seen(platform, ib.event_id, svc.clock())
    if ib.message and await svc.store.was_seen(platform, f"m:{ib.message}"):
        turn.outcome = "edit:counted"
        turn.messages.append(Message(ib.chat, Text("edit.counted", {"name": ib.actor.name})))
        return True
    if ib.message and ((platform, command_mark(ib.message)) in _running
                       or await svc.store.was_seen(platform, command_mark(ib.message))):
        turn.outcome = "edit:command"
        turn.messages.append(Message(ib.chat, Text("edit.command", {"name": ib.actor.name})))
        return True
    return False


async def once(svc: Services, turn: Turn, command: Awaitable[None]) -> None:
    """Carry out a command; from a message its author may edit, remember that it was carried out (its
    handler returned; a refusal raises first): later edits of that message are answered by `counted`,
    never run again. While it runs — an /analyse or /hint that stepped aside for the solver lets the chat's
    next updates, an edit of it too, be handled meanwhile (core/lines.py) — an edit is answered alike."""
    ib = turn.inbound
    mark = command_mark(ib.message) if ib.message and ib.command else None
    running = (ib.actor.platform, mark or "")
    if mark is not None:
        _running.add(running)
    try:
        await command
    finally:
        _running.discard(running)
    if mark is not None:
        await svc.store.mark_seen(ib.actor.platform, mark, svc.clock())


def command_mark(message: str) -> str:
    """The `seen` mark of a carried-out command's message: a digest, so that the mark names no chat —
    a private chat's id is its user's, which /forgetme must leave nowhere."""
    return "c:" + hashlib.blake2b(message.encode(), digest_size=16).hexdigest()
