"""The cash box's rules of who may do what (`permit`: the one place every /kasse action asks) and the
currency's minor units."""

from __future__ import annotations

from babel.numbers import get_currency_precision

from bot.club.cash.storage import Settings
from core.errors import GameError
from core.messages import Actor


def permit(need: str, s: Settings, actor: Actor) -> None:
    """`admin`: the settings (on/off, currency, the average) are a chat admin's. `hand_on`: the treasurer
    role is handed on by a chat admin or by the treasurer. `treasurer`: money — payments, fines,
    corrections, the catalogue, the absent's average, the year's carry — only the treasurer books, and
    only while the cash box is on — except `collect` (payments and corrections), which the treasurer
    books with the box off too: turning it off stops booking new games' fines, never collecting. A scorer
    or an admin who is not the treasurer cannot (nobody pays themselves out). Every refusal says why."""
    if need == "admin":
        if not actor.is_admin:
            raise GameError("kegeln.cash.admin_only")
    elif need == "hand_on":
        if not actor.is_admin and actor.user_id != s.treasurer_id:
            raise GameError("kegeln.cash.hand_on", name=s.treasurer_name or "–")
    else:
        if not s.enabled and (need != "collect" or not s.treasurer_id):  # collect: with the box off too
            raise GameError("kegeln.cash.off")
        if not s.treasurer_id:
            raise GameError("kegeln.cash.no_treasurer")
        if actor.user_id != s.treasurer_id:
            raise GameError("kegeln.cash.not_treasurer", name=s.treasurer_name)


def decimals(currency: str) -> int:
    return int(get_currency_precision(currency))


