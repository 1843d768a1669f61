"""App hooks shared by the two-player challenge games (1A2B duel, Logik): both go
challenge → secrets → play, so a button, a plain message or /resign means the same in each."""

from __future__ import annotations

from typing import Any

from core.games.actions import Accept, Cancel, Decline, Guess, Resign, SetSecret


def secret_action(text: str | None) -> SetSecret:
    """Private input where a secret is expected: the code, or None for a random one."""
    return SetSecret(text)


def text_action(state: Any, user_id: str, text: str) -> Guess:
    return Guess(text)


def button_action(state: Any, verb: str, user_id: str, name: str, text: str | None) -> object | None:
    return {"accept": Accept(name), "decline": Decline(), "random": SetSecret(None)}.get(verb)


def quit_action(state: Any, user_id: str, command: str) -> object | None:
    """/resign gives up a running game, or withdraws one's own challenge."""
    if command != "resign":
        return None
    return Cancel() if state.phase.value == "challenge" else Resign()
