"""User text is shown as typed on Discord, tables line up: through the real discord.py client, the
strict stand-in and the real App. Names like `**Kl_aus**`, `||Ute||` or a masked link arrive
escaped (no bold, spoiler or link); a name holding `<@id>` neither renders as a mention nor pings
that user; `allowed_mentions` never allows @everyone, roles or users the bot does not mean. The
Kegeln standings, the result and the club table are code blocks (monospace, nothing formatted)."""

from __future__ import annotations

import re

from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, Call, User
from .standin import StandIn
from .test_e2e_cash import MANAGE_GUILD
from .test_e2e_kegeln import start, throw_by_button


def pings_nobody_unmeant(call: Call, *unmeant: int) -> None:
    mentions = call.message["allowed_mentions"]
    assert mentions.get("parse", []) == [], mentions  # no @everyone, no roles, no parsed users
    assert not set(mentions.get("users", [])) & {str(u) for u in unmeant}, mentions
    assert mentions.get("roles", []) == []


async def test_names_are_escaped_and_ping_no_one(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    carol = standin.add_user("Carol")
    bold = standin.add_user("**Kl_aus**")
    spoiler = standin.add_user("||Ute||")
    sneaky = standin.add_user(f"<@{carol.id}> [click](https://evil.example)")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, spoiler, "stats")  # the bot learns Ute's name
    await standin.wait_for(lambda c: c.status < 300 and c.in_channel(CHANNEL_ID), after=mark)
    await standin.settle()

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, bold, "duel", {"opponent": spoiler, "length": 4})
    challenge = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status < 300, after=mark)
    assert r"\*\*Kl\_aus\*\*" in challenge.content and "**Kl_aus**" not in challenge.content
    assert r"\|\|Ute\|\|" in challenge.content and "||Ute||" not in challenge.content
    pings_nobody_unmeant(challenge, carol.id, bold.id)

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, sneaky, "logik", {})
    lobby = await standin.wait_for(lambda c: c.in_channel(CHANNEL_ID) and c.status < 300, after=mark)
    assert f"<@{carol.id}>" not in lobby.content  # not a mention: escaped
    assert r"\[click\]" in lobby.content and "[click](" not in lobby.content  # not a masked link
    pings_nobody_unmeant(lobby, carol.id)


async def test_a_kegeln_tie_with_a_mention_for_a_name_pings_no_one_and_tables_are_code_blocks(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    # Alice manages the server: her game is a club game, in the club table below (docs/club.md)
    scorer = standin.add_user("Alice", permissions=str(int(User.permissions) | MANAGE_GUILD))
    carol = standin.add_user("Carol")
    await make_adapter(app.handle, app.command_menu())
    names = ["**Kl_aus**", f"<@{carol.id}>"]
    game, _ = await start(standin, app, scorer, 2, " ".join(names))
    started = [c for c in standin.channel_calls() if "Hausnummern #" in c.content]
    assert r"\*\*Kl\_aus\*\*" in started[0].content and f"<@{carol.id}>" not in started[0].content
    board = started[-1]  # the standings: a code block, names as typed, free places as _
    assert re.search(r"```\n▶ \*\*Kl_aus\*\* +__\n", board.content), board.content
    assert f"  <@{carol.id}> __\n```" in board.content

    for position in (1, 0):
        for _ in names:
            await throw_by_button(standin, scorer, game, 5, position)
    tie = await standin.wait_for(lambda c: c.status < 300 and f"g:{game}:w1" in c.custom_ids())
    assert tie.content.count("```") == 2  # the table, as a block
    outside = tie.content.split("```")[0] + tie.content.split("```")[2]
    assert f"<@{carol.id}>" not in outside and "**Kl_aus**" not in outside
    pings_nobody_unmeant(tie, carol.id)

    mid, _ = standin.message_with_button(lambda cid: cid == f"g:{game}:w1")
    mark = len(standin.calls)
    await standin.press(CHANNEL_ID, scorer, mid, f"g:{game}:w1")
    decided = await standin.wait_for(lambda c: c.status < 300 and "named the winner" in c.content, after=mark)
    # (it may go out joined with the final standings, whose table shows names as typed)
    assert f"<@{carol.id}>" not in "".join(decided.content.split("```")[::2])
    pings_nobody_unmeant(decided, carol.id)

    mark = len(standin.calls)
    await standin.slash(CHANNEL_ID, scorer, "kegelstats")
    club = await standin.wait_for(lambda c: c.status < 300 and "Club table" in c.content, after=mark)
    assert club.content.count("```") == 2 and "**Kl_aus**" in club.content.split("```")[1]


def test_a_code_block_split_over_two_messages_is_closed_and_reopened() -> None:
    from adapters.discord.markdown import MAX_CONTENT, split_content

    table = "\n".join(f"{i:>3}. member {i}" for i in range(200))
    chunks = split_content(f"head\n```\n{table}\n```\ntail")
    assert len(chunks) > 1 and all(len(c) <= MAX_CONTENT for c in chunks)
    assert all(c.count("```") % 2 == 0 for c in chunks)  # every chunk's blocks are closed
    assert "".join(c.replace("```\n", "").replace("\n```", "") for c in chunks).count("member") == 200
