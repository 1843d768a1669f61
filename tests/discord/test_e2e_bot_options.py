"""The options Discord adds for the computer opponent and Logik statistics (`/duel bot`, `/logik bot`,
`/stats game`) carry the App's localised descriptions, and another bot account picked as the
opponent is refused with a clear message (bots cannot play; choose the `bot` option) — through the
real discord.py client, the strict stand-in and the real App."""

from __future__ import annotations

from typing import Any

from bot.app.app import App
from bot.texts.i18n import Catalogs
from core.messages import Text

from .conftest import MakeAdapter
from .model import CHANNEL_ID, User
from .standin import StandIn
from .test_e2e_games import act, in_channel
from .test_e2e_interactions import _accepts, _synced, answers, slash_answered

CATALOGS = Catalogs()


async def test_the_bot_and_game_options_are_described_in_every_language(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    synced: dict[str, Any] = {c["name"]: {o["name"]: o for o in c.get("options", [])}
                              for c in await _synced(standin, make_adapter, app)}
    for command, option in (("duel", "bot"), ("logik", "bot"), ("stats", "game")):
        synced_option = synced[command][option]
        assert synced_option["description"] == CATALOGS.render(Text(f"opt.{option}"), "en")
        for lang, locale in (("de", "de"), ("ru", "ru"), ("bg", "bg"), ("sv", "sv-SE")):
            assert synced_option["description_localizations"][locale] == CATALOGS.render(Text(f"opt.{option}"), lang)
        assert next(iter(synced[command])) == option  # its words lead the arguments (`/stats logik [player]`)
    assert [c["value"] for c in synced["duel"]["bot"]["choices"]] == ["bot", "bot easy", "bot strong", "bot perfect"]
    assert [c["value"] for c in synced["stats"]["game"]["choices"]] == ["logik", "daily"]  # a stats hook of their own


async def test_another_bot_account_as_opponent_is_refused_clearly(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    other_bot = User(standin.next_id(), "OtherBot", bot=True)
    standin.users[other_bot.id] = other_bot
    await make_adapter(app.handle, app.command_menu())
    for command in ("duel", "logik"):
        token = await slash_answered(standin, alice, command, {"opponent": other_bot})
        shown = answers(standin, token)
        assert shown and all(ephemeral for _, ephemeral, _ in shown) and not _accepts(standin, token)
        text = " ".join(content for _, _, content in shown)
        assert CATALOGS.render(Text("error.bot_opponent"), "en") in text, text
        assert "do not know" not in text


async def test_another_bot_account_mentioned_in_a_typed_duel_is_refused_clearly(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    other_bot = User(standin.next_id(), "OtherBot", bot=True)
    standin.users[other_bot.id] = other_bot
    await make_adapter(app.handle, app.command_menu())
    calls = await act(standin, standin.say(CHANNEL_ID, alice, f"!duel <@{other_bot.id}>"))
    said = " ".join(c.content for c in in_channel(standin, calls))
    assert CATALOGS.render(Text("error.bot_opponent"), "en") in said, said
    assert not any(cid.endswith(":accept") for c in calls for cid in c.custom_ids())
