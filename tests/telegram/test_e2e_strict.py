"""The bot against the strict stand-in: what Telegram would refuse, the bot does not send (or says
another way), and keyboards that no longer apply are taken off their messages.

The real App on a real SQLite file behind the real PTB Application, as in test_e2e_app.py; the
stand-in records each message's current keyboard (`markup_of`)."""

from __future__ import annotations

import pytest

from bot.texts.i18n import Catalogs
from core.games.challenge import Phase
from core.messages import Inbound, Outbound, OutButton, Response, Text
from tests.telegram.conftest import MakeAdapter
from tests.telegram.standin import StandIn
from tests.telegram.standin_calls import Call
from tests.telegram.standin_objects import Chat, User, text_mention
from tests.telegram.test_e2e_app import (
    ALICE,
    BOB,
    GROUP,
    SECRETS,
    Club,
    Deed,
    answers,
    game_of,
    guess,
    sent,
    start_private,
    with_button,
)

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
CATALOGS = Catalogs()


def markup(standin: StandIn, call: Call) -> list[str]:
    """The actions/urls of the keyboard the message of `call` shows now."""
    rows = standin.markup_of(int(call.chat_id or 0), call.result["message_id"])
    return [str(b.get("callback_data") or b.get("url")) for row in rows for b in row]


async def challenge(club: Club, opponent: str = "@bob_k") -> tuple[int, Call]:
    await club.act(club.say(GROUP, BOB, "hello everyone"))  # the bot has seen Bob
    calls = await club.act(club.say(GROUP, ALICE, f"/duel {opponent} 4"))
    message = with_button(sent(calls, GROUP.id), ":accept")
    return game_of(message, ":accept"), message


async def test_used_keyboards_are_taken_away(standin: StandIn, club: Club) -> None:
    await start_private(club, ALICE)
    await start_private(club, BOB)
    game, message = await challenge(club)
    assert markup(standin, message) == [f"!g:{game}:accept", f"!g:{game}:decline"]

    # A refused press leaves the keyboard: the challenge still waits for Bob.
    calls = await club.act(club.press(ALICE, message, f"g:{game}:accept"))
    assert answers(calls)[0].get("show_alert") is True
    assert markup(standin, message) == [f"!g:{game}:accept", f"!g:{game}:decline"]

    # Bob accepts: Accept/Decline are gone from the challenge.
    calls = await club.act(club.press(BOB, message, f"g:{game}:accept"))
    assert (await club.duel_state(game)).phase is Phase.SECRETS
    assert markup(standin, message) == []
    alice_prompt = with_button(sent(calls, ALICE.id), ":random")
    bob_prompt = with_button(sent(calls, BOB.id), ":random")

    # Alice types her secret: her prompt's "Random code" goes; Bob's stays until he answers.
    await club.act(club.say(Chat.private(ALICE), ALICE, SECRETS[ALICE.id]))
    assert markup(standin, alice_prompt) == []
    assert markup(standin, bob_prompt) == [f"!g:{game}:random"]

    # Bob presses it: his goes too.
    deed = Deed(Chat.private(BOB), BOB, lambda: standin.press(
        Chat.private(BOB), BOB, bob_prompt.result["message_id"], f"!g:{game}:random"))
    calls = await club.act(deed)
    (answer,) = answers(calls)
    assert "text" not in answer
    assert (await club.duel_state(game)).phase is Phase.PLAYING
    assert markup(standin, bob_prompt) == []


async def test_declined_challenge_loses_its_buttons(standin: StandIn, club: Club) -> None:
    game, message = await challenge(club)
    await club.act(club.press(BOB, message, f"g:{game}:decline"))
    assert markup(standin, message) == []


async def test_deep_link_prompt_says_the_same_rules_as_the_normal_prompt(
    standin: StandIn, club: Club
) -> None:
    await start_private(club, ALICE)
    standin.blocked.add(BOB.id)  # Bob never started the bot: his prompt comes by deep link
    game, message = await challenge(club)
    calls = await club.act(club.press(BOB, message, f"g:{game}:accept"))
    normal = with_button(sent(calls, ALICE.id), ":random").text
    assert "all digits different" in normal
    (fallback,) = [c for c in sent(calls, GROUP.id) if any("url" in b for b in c.buttons)]
    token = next(b["url"] for b in fallback.buttons if "url" in b).split("start=", 1)[1]
    calls = await club.act(club.say(Chat.private(BOB), BOB, f"/start {token}"))
    (linked,) = [c for c in sent(calls, BOB.id) if str(game) in c.text]
    assert "4 digits" in linked.text and "all digits different" in linked.text


async def test_a_refused_guess_result_is_said_another_way(standin: StandIn, club: Club) -> None:
    await start_private(club, ALICE)
    await start_private(club, BOB)
    game, message = await challenge(club)
    await club.act(club.press(BOB, message, f"g:{game}:accept"))
    for who in (ALICE, BOB):
        await club.act(club.say(Chat.private(who), who, SECRETS[who.id]))
    state = await club.duel_state(game)
    starter = ALICE if state.turn == str(ALICE.id) else BOB
    code = "0123" if "0123" not in SECRETS.values() else "4567"

    # Telegram refuses the first form of the next group message; the result must still arrive.
    standin.refuse_next(1, "Bad Request: can't parse entities: Unsupported start tag", status=400,
                        when=lambda params: params.get("chat_id") == GROUP.id)
    replies = await guess(club, starter, code)
    refused = [c for c in standin.calls if c.status == 400 and c.chat_id == GROUP.id]
    assert len(refused) == 1 and code in refused[0].text
    assert any(code in c.text for c in replies), [c.text for c in replies]


async def test_texts_are_cut_to_telegram_measure(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """Telegram counts UTF-16 units: 3,000 emoji are 6,000 of them, two messages' worth; an alert
    of 150 emoji is cut to 200 units."""
    text = "🎯" * 3000

    async def handle(inbound: Inbound) -> Response:
        if inbound.action is not None:
            return Response(notice="🎳" * 150)
        return Response(messages=(Outbound(to=inbound.chat, text=text,
                                           buttons=((OutButton("Go", "g:1:go"),),)),))

    await make_adapter(handle)
    standin.user_message(GROUP, ALICE, "/long")
    await standin.wait_for(lambda c: c.method == "sendMessage" and c.ok and bool(c.buttons))
    parts = [c for c in standin.calls if c.method == "sendMessage"]
    assert all(c.ok for c in parts) and "".join(c.text for c in parts) == text
    query = standin.press(GROUP, ALICE, parts[-1].result["message_id"], "g:1:go")
    (answer,) = await standin.wait_for(lambda c: c.method == "answerCallbackQuery")
    assert answer.ok and answer.params["callback_query_id"] == query




async def test_a_keyboard_settles_only_when_its_presenter_says_so(
    standin: StandIn, make_adapter: MakeAdapter
) -> None:
    """The adapter reads `OutButton.settles`, never the action's wording: a new kind of button
    ("go") settles its keyboard because the presenter says so, and a button named like the old
    settling verbs ("accept") keeps its keyboard because the presenter does not say so."""

    pressed: list[str] = []

    async def handle(inbound: Inbound) -> Response:
        if inbound.action is not None:
            pressed.append(inbound.action)
            return Response()  # accepted
        return Response(messages=(
            Outbound(to=inbound.chat, text="new kind",
                     buttons=((OutButton("Go", "g:1:go", settles=True), OutButton("Other", "g:1:other")),)),
            Outbound(to=inbound.chat, text="old name",
                     buttons=((OutButton("Accept", "g:2:accept"),),)),
        ))

    await make_adapter(handle)
    standin.user_message(GROUP, ALICE, "/show")
    await standin.wait_for(lambda c: c.method == "sendMessage" and "old name" in c.text)
    new_kind, old_name = [c for c in standin.calls if c.method == "sendMessage" and c.ok]
    go = next(b["callback_data"] for b in new_kind.buttons if b["text"] == "Go")
    accept = old_name.buttons[0]["callback_data"]

    standin.press(GROUP, BOB, old_name.result["message_id"], accept)
    await standin.wait_for(lambda c: c.method == "answerCallbackQuery")
    standin.press(GROUP, BOB, new_kind.result["message_id"], go)
    await standin.wait_for(lambda c: c.method == "editMessageReplyMarkup")
    assert markup(standin, new_kind) == []
    assert len(markup(standin, old_name)) == 1  # still there
    assert not [c for c in standin.calls if c.method == "editMessageReplyMarkup"
                and c.params.get("message_id") == old_name.result["message_id"]]
    assert pressed == ["g:2:accept", "g:1:go"]  # the App gets the actions as it made them


HELPER = User(id=7707, first_name="Helper", username="helper_bot", is_bot=True)  # another bot account


async def test_challenging_another_bot_account_is_refused(standin: StandIn, club: Club) -> None:
    """Where Telegram says that a named user is a bot account — a mention by name carries the
    user, a replied-to message its author — the App refuses the challenge with its reason; a
    human named the same ways is challenged."""
    reason = CATALOGS.render(Text("error.bot_opponent"), "en")
    await club.act(club.say(GROUP, BOB, "hello everyone"))  # the bot has seen Bob

    # A mention by name of the other bot (a text_mention entity with its user).
    text = "/duel Helper 4"
    calls = await club.act(Deed(GROUP, ALICE, lambda: standin.user_message(
        GROUP, ALICE, text, entities=[text_mention(text, "Helper", HELPER)])))
    assert any(reason in c.text for c in calls), [c.text for c in calls]
    assert not [c for c in calls if c.buttons]  # no challenge was made

    # "@helper_bot" in a reply to the other bot's message: the reply says who that is.
    posted = standin.user_message(GROUP, HELPER, "Weather today: sunny")  # not shown to our bot
    calls = await club.act(Deed(GROUP, ALICE, lambda: standin.user_message(
        GROUP, ALICE, "/duel @helper_bot 4", reply_to=posted["message_id"])))
    assert any(reason in c.text for c in calls), [c.text for c in calls]
    assert not [c for c in calls if c.buttons]

    # Humans, named by @username or by name, are challenged as before.
    calls = await club.act(club.say(GROUP, ALICE, "/duel @bob_k 4"))
    assert game_of(with_button(sent(calls, GROUP.id), ":accept"), ":accept")
    await club.act(club.say(GROUP, ALICE, "/cancel"))
    carol = User(id=4404, first_name="Carol Ann")
    text = "/duel Carol Ann 4"
    calls = await club.act(Deed(GROUP, ALICE, lambda: standin.user_message(
        GROUP, ALICE, text, entities=[text_mention(text, "Carol Ann", carol)])))
    assert not any(reason in c.text for c in calls)
    assert game_of(with_button(sent(calls, GROUP.id), ":accept"), ":accept")
