"""Deep links carry core/buttons.py ids and know no game: any game's chat button can be linked; the
daily puzzle's keeps the short form its links have always had."""

from __future__ import annotations

from adapters.telegram.deeplink import DeepLinks, key_for, linked_chat
from core.buttons import ChatButton, GameButton, Verb

LINKS = DeepLinks(key_for("123:test-token"))


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


def test_a_secret_entry_decodes_to_its_game_button() -> None:
    token = LINKS.encode(str(GameButton(42, Verb.SECRET)))
    assert token is not None and LINKS.decode(token) == "g:42:secret"
    assert LINKS.encode("g:042:secret") is None and LINKS.encode(str(GameButton(42, Verb.ACCEPT))) is None
