"""An amount of money as texts carry it: whole minor units and the currency, formatted by the reader's
locale in bot/ (Babel), never a float."""

from __future__ import annotations

from typing import NamedTuple


class Money(NamedTuple):
    """`amount` minor units (cents, öre, stotinki …) of `currency` (ISO 4217, e.g. "EUR")."""

    amount: int
    currency: str
