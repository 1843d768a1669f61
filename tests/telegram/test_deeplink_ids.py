"""Deep links carry core/buttons.py ids and know no game: any game's chat button can be linked; a game
that declares a one-letter prefix (`GamePlugin.link_prefix`: the daily puzzle's `d`, the form its links
have always had) is handed to the links as such, and no prefix can take the secret entry's or the long
form's letter."""

from __future__ import annotations

import pytest

from adapters.telegram.deeplink import DeepLinks, key_for, linked_chat
from bot.games.registry import link_prefixes
from core.buttons import ChatButton, GameButton, Verb

LINKS = DeepLinks(key_for("123:test-token"), link_prefixes())


def test_any_game_s_chat_button_is_linked_with_its_kind() -> None:
    action = str(ChatButton("cashbox", "-1001/7", "pay"))
    token = LINKS.encode(action)
    assert token is not None and token.startswith("c_cashbox_-1001t7_pay_")
    assert LINKS.decode(token) == action and linked_chat(action) == -1001
    forged = token.replace("cashbox", "cashbax")
    assert LINKS.decode(forged) is None  # the kind is signed too


def test_the_daily_puzzle_s_links_keep_their_form() -> None:
    action = str(ChatButton("daily", "-1001", "1a2b"))
    token = LINKS.encode(action)
    assert token is not None and token.startswith("d_-1001_1a2b_")
    assert LINKS.decode(token) == action
    plain = DeepLinks(key_for("123:test-token"))  # links that know no short prefix: the long form only
    assert plain.decode(token) is None and plain.decode(plain.encode(action) or "") == action


def test_a_short_prefix_is_a_letter_of_its_own() -> None:
    for short in ({"x": "s"}, {"x": "c"}, {"x": "dd"}, {"x": "d", "y": "d"}):
        with pytest.raises(ValueError):
            DeepLinks(key_for("123:test-token"), short)


def test_a_secret_entry_decodes_to_its_game_button() -> None:
    token = LINKS.encode(str(GameButton(42, Verb.SECRET)))
    assert token is not None and LINKS.decode(token) == "g:42:secret"
    assert LINKS.encode("g:042:secret") is None and LINKS.encode(str(GameButton(42, Verb.ACCEPT))) is None
