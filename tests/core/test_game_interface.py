"""The `Game` interface (core/games/base.py) as small as the games need, and each game's class its rules:

- no method of a game's class (core/games/<game>/game.py) only forwards to a function of its rules or
  presenter (`return rules.apply(state, action, actor, ctx)`): the function is bound as the member
  (`apply = staticmethod(rules.apply)`), as python-chess's variants hold their rules and boardgame.io's
  game is one declarative object; the check is run on a planted forward too, so it is shown to fail;
- a member of `Game` is not there for the challenge games or the lobby game alone: what only two-player
  challenge games override lives on `ChallengeGame`, what only a lobby game does on `LobbyGame`."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from bot.games.registry import GAMES
from core.games.base import Game
from core.games.challenge import ChallengeGame
from core.games.lobby import LobbyGame

GAMES_DIR = Path(__file__).resolve().parents[2] / "core" / "games"


def forwards(source: str) -> list[str]:
    """The methods of the classes in `source` whose body (past a docstring) is `return f(...)` of a
    function (a lower-case name, plain or a module's) given nothing but the method's own parameters."""
    found = []
    for cls in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef)):
        for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
            body = fn.body[1:] if ast.get_docstring(fn) is not None else fn.body
            if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
                continue
            call = body[0].value
            callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            root = call.func
            while isinstance(root, ast.Attribute):
                root = root.value
            params = {a.arg for a in fn.args.args[1:]}
            if (callee[:1].islower() and not (isinstance(root, ast.Name) and root.id == "self")
                    and all(isinstance(a, ast.Name) and a.id in params for a in call.args) and not call.keywords):
                found.append(f"{cls.name}.{fn.name}")
    return found


def game_sources() -> dict[str, str]:
    return {p.parent.name: p.read_text(encoding="utf-8") for p in sorted(GAMES_DIR.glob("*/game.py"))}


def test_no_game_class_forwards_to_its_rules_or_presenter() -> None:
    sources = game_sources()
    assert set(sources) >= {"duel", "logik", "practice", "words", "kegeln", "daily"}
    assert {kind: forwards(src) for kind, src in sources.items() if forwards(src)} == {}


def test_the_check_sees_a_forward() -> None:
    planted = game_sources()["duel"] + '''

class Planted(Duel):
    def apply(self, state: State, action: object, actor: str | None, ctx: Ctx) -> tuple[State, list[Event]]:
        """Forwarded."""
        return rules.apply(state, action, actor, ctx)

    def is_over(self, state: State) -> bool:
        return is_over(state)

    def text_action(self, state: State, user_id: str, text: str) -> object:
        return Guess(text)  # an action made here: the game's own meaning, no forward
'''
    assert forwards(planted) == ["Planted.apply", "Planted.is_over"]


def overriders(member: str) -> list[Game[Any]]:
    """The registered games whose class has its own `member` (not `Game`'s default)."""
    return [g for g in GAMES.values() if getattr(type(g), member) is not getattr(Game, member)]


def interface() -> list[str]:
    """`Game`'s members: its attributes (`kind` and `state_type` are declared only) and its methods."""
    return sorted({m for m in dir(Game) if not m.startswith("_")} | set(Game.__annotations__))


def test_no_member_of_game_is_for_the_challenge_or_lobby_games_alone() -> None:
    """A member two or more games have, all of them challenge games, is ChallengeGame's (one game's own
    trait, Logik's `pictured`, is any game's to take); one only a lobby game has is LobbyGame's."""
    for member in interface():
        games = overriders(member) if hasattr(Game, member) else []
        if len(games) >= 2:
            assert not all(isinstance(g, ChallengeGame) for g in games), f"{member}: ChallengeGame's"
        if games:
            assert not all(isinstance(g, LobbyGame) for g in games), f"{member}: LobbyGame's"


def test_the_challenge_and_lobby_members_live_on_their_types() -> None:
    for member in ("challenge", "can_answer", "pair", "unplayed", "next_game", "link_next"):
        assert not hasattr(Game, member) and hasattr(ChallengeGame, member)
    for member in ("join_action", "leave_action"):
        assert not hasattr(Game, member) and hasattr(LobbyGame, member)
    assert not hasattr(Game, "follows_up")  # bot/app/routing.py `follows_up`: the game has a `follow_up`
    assert len(interface()) == 26  # 36 before issue 38 (8 attributes and 28 methods); now 7 and 19
    assert not hasattr(Game, "timeout_action")  # no game overrode it: the App applies `Timeout()` itself
