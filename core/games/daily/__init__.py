"""The daily puzzle (docs/daily.md): `GAME`, its game object; rules, presenter and events are its modules."""

from core.games.daily.game import Daily

GAME = Daily()
