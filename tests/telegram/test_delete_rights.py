"""Deleting needs rights (issue 22, item 5), and edited messages (item 7), against the stand-in's model
of the Bot API (https://core.telegram.org/bots/api#deletemessage, #update): the real PTB Bot for the
limits, the real App on a real SQLite file behind the real adapter for what players are told."""

from __future__ import annotations

import pytest
from telegram import Bot
from telegram.error import BadRequest

from tests.telegram.standin import StandIn
from tests.telegram.standin_objects import BOT_ID, Chat, User
from tests.telegram.test_e2e_app import ALICE, BOB, GROUP, SECRETS, Club, Deed, challenge_and_accept, sent

pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")

SUPER = Chat(id=-1009900, type="supergroup", title="Big club")
CANT = "Message can't be deleted"  # PTB capitalises the description's first letter


async def test_the_standin_deletes_only_as_the_bot_api_allows(standin: StandIn) -> None:
    bot = Bot(standin.token, base_url=standin.base_url)
    async with bot:
        async def delete(chat: Chat, message_id: int) -> str:
            try:
                await bot.delete_message(chat.id, message_id)
                return "ok"
            except BadRequest as exc:
                return exc.message

        # a plain member: its own messages only
        mine = await bot.send_message(GROUP.id, "hi")
        theirs = standin.user_message(GROUP, ALICE, "1234")["message_id"]
        assert await delete(GROUP, theirs) == CANT
        assert await delete(GROUP, mine.message_id) == "ok"
        # an administrator of a (basic) group deletes any message, but none sent 48 hours ago or more
        standin.promote_bot(GROUP, can_delete_messages=False)
        assert await delete(GROUP, theirs) == "ok"
        old = standin.user_message(GROUP, ALICE, "5678")["message_id"]
        standin.age(GROUP, old, 48 * 3600)
        assert await delete(GROUP, old) == CANT
        # in a supergroup only with can_delete_messages
        there = standin.user_message(SUPER, ALICE, "1234")["message_id"]
        standin.promote_bot(SUPER, can_delete_messages=False)
        assert await delete(SUPER, there) == CANT
        standin.promote_bot(SUPER)
        assert await delete(SUPER, there) == "ok"
        assert await delete(SUPER, there) == "Message to delete not found"
        # in a private chat, the user's messages too
        private = standin.user_message(Chat.private(ALICE), ALICE, "1234")["message_id"]
        assert await delete(Chat.private(ALICE), private) == "ok"
        member = await bot.get_chat_member(SUPER.id, BOT_ID)
        assert member.status == "administrator"


async def test_a_secret_the_bot_cannot_delete_is_ruled_out_and_the_group_told_why(club: Club) -> None:
    game, _ = await challenge_and_accept(club)
    code = SECRETS[ALICE.id]
    # the bot is no admin: Alice's code stays in the group
    calls = await club.act(club.say(GROUP, ALICE, code))
    (refused,) = [c for c in calls if c.method == "deleteMessage"]
    assert refused.status == 400
    told = " ".join(c.text for c in sent(calls, GROUP.id))
    assert "couldn't delete your message" in told and "no longer be your secret" in told
    assert "“Delete messages”" in told  # what the bot needs, and who can grant it
    assert all(code not in c.everything() for c in calls if c.method != "deleteMessage")
    # she cannot keep it as her secret, even privately; another one is taken
    calls = await club.act(club.say(Chat.private(ALICE), ALICE, code))
    assert any("Everyone in the group has seen that code" in c.text for c in sent(calls, ALICE.id))
    assert str(ALICE.id) not in (await club.duel_state(game)).secrets
    await club.act(club.say(Chat.private(ALICE), ALICE, "4019"))
    assert (await club.duel_state(game)).secrets[str(ALICE.id)] == "4019"


async def test_past_48_hours_even_an_admin_cannot_delete_and_says_nothing_of_rights(club: Club) -> None:
    game, _ = await challenge_and_accept(club)
    club.standin.promote_bot(GROUP)
    # an old message of Bob's, edited into his secret while it is due
    old = club.standin.user_message(GROUP, BOB, "good luck all")
    club.standin.age(GROUP, old["message_id"], 49 * 3600)
    await club.act(club.say(GROUP, ALICE, "hello"))
    code = SECRETS[BOB.id]
    calls = await club.act(edit(club, BOB, old["message_id"], code))
    (refused,) = [c for c in calls if c.method == "deleteMessage"]
    assert refused.status == 400
    told = " ".join(c.text for c in sent(calls, GROUP.id))
    assert "no longer be your secret" in told and "Delete messages" not in told
    calls = await club.act(club.say(Chat.private(BOB), BOB, code))
    assert str(BOB.id) not in (await club.duel_state(game)).secrets


def edit(club: Club, who: User, message_id: int, text: str) -> Deed:
    """`who` edits their message in the group."""
    return Deed(GROUP, who, lambda: club.standin.user_edit(GROUP, who, message_id, text))


async def test_an_edited_guess_counts_once_and_an_edit_of_a_counted_one_is_answered(club: Club) -> None:
    game, _ = await challenge_and_accept(club)
    for who in (ALICE, BOB):
        await club.act(club.say(Chat.private(who), who, SECRETS[who.id]))
    state = await club.duel_state(game)
    mover = ALICE if state.turn == str(ALICE.id) else BOB
    # a typo: refused, nothing counted
    typo = {}
    calls = await club.act(Deed(GROUP, mover, lambda: typo.update(club.standin.user_message(GROUP, mover, "123"))))
    assert any("digits" in c.text for c in sent(calls, GROUP.id))
    assert (await club.duel_state(game)).attempts[str(mover.id)] == []
    # corrected by editing: the move it now is
    calls = await club.act(edit(club, mover, typo["message_id"], "1024"))
    assert any("1024" in c.text for c in sent(calls, GROUP.id))
    state = await club.duel_state(game)
    assert len(state.attempts[str(mover.id)]) == 1 and state.turn != str(mover.id)
    # edited again: a short note, nothing counted twice
    calls = await club.act(edit(club, mover, typo["message_id"], "2048"))
    assert any("already counted" in c.text for c in sent(calls, GROUP.id))
    state = await club.duel_state(game)
    assert len(state.attempts[str(mover.id)]) == 1 and state.turn != str(mover.id)
