"""Typed, coded errors: a rule says no, the App turns the code into a localised reply."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """An invalid action. `code` is an i18n key suffix (`error.<code>`), `params` fill it."""

    def __init__(self, error_code: str, /, **params: Any) -> None:
        super().__init__(error_code)
        self.code = error_code
        self.params = params

    def __repr__(self) -> str:
        return f"GameError({self.code!r}, {self.params!r})"
