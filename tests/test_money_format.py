"""Money in texts (core/money.py) is formatted by the reader's locale with Babel: its currency's own
minor units, the locale's decimal mark, grouping and symbol place; an amount is never a float."""

from __future__ import annotations

import pytest

from bot.texts.i18n import Catalogs
from core.messages import Text
from core.money import Money


@pytest.mark.parametrize(("lang", "money", "shown"), [
    ("en", Money(150, "EUR"), "€1.50"),
    ("de", Money(150, "EUR"), "1,50\xa0€"),
    ("de", Money(123456, "EUR"), "1.234,56\xa0€"),
    ("sv", Money(1050, "SEK"), "10,50\xa0kr"),
    ("ru", Money(99, "RUB"), "0,99\xa0₽"),
    ("bg", Money(5, "EUR"), "0,05\xa0€"),
    ("en", Money(1500, "JPY"), "¥1,500"),  # a currency without minor units
])
def test_money_in_the_readers_locale(lang: str, money: Money, shown: str) -> None:
    text = Catalogs().render(Text("error.kegeln.cash.too_many_fines", {"most": money}), lang)
    assert shown in text
