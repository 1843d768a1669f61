"""End to end: slash commands are answered through the interaction, refusals and help to the actor
alone, the bot opponent by slash command. The real App on a real SQLite file behind the real
discord.py client, on the strict stand-in (3 s window, one initial response, channel permissions)."""

from __future__ import annotations

from typing import Any

from bot.app.app import App

from .conftest import MakeAdapter
from .model import CHANNEL_ID, OTHER_CHANNEL_ID, User
from .standin import StandIn


def answers(standin: StandIn, token: str) -> list[tuple[str, bool, str]]:
    """What the interaction `token` showed: (kind, ephemeral, content) of each successful reply."""
    out = []
    for c in standin.calls:
        if c.interaction_token == token and c.status < 300 and c.method != "DELETE":
            kind = "callback" if c.path.endswith("/callback") else "followup"
            out.append((kind, c.ephemeral, c.content))
    return out


async def slash_answered(standin: StandIn, user: User, name: str, options: dict[str, object] | None = None,
                         channel: int = CHANNEL_ID) -> str:
    mark = len(standin.calls)
    token = await standin.slash(channel, user, name, options)
    await standin.answered(token)
    await standin.settle()
    state = standin.interactions[token]
    assert state["responded_at"] - state["created"] < 3.0
    assert not [c for c in standin.calls[mark:] if c.status >= 400], "a call was refused"
    return token


async def test_a_slash_command_is_answered_through_the_interaction(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    token = await slash_answered(standin, alice, "stats")
    shown = answers(standin, token)
    assert shown and shown[0][0] == "callback" and not shown[0][1]  # the initial response, public
    assert "Alice" in shown[0][2]
    # one call: no placeholder to delete, no channel post
    assert [c for c in standin.calls[mark:] if c.channel_id is not None] == []
    assert not [c for c in standin.calls[mark:] if c.method == "DELETE"]


async def test_a_slash_command_is_answered_where_the_bot_may_not_post(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    standin.deny(CHANNEL_ID, "send_messages")
    standin.deny(OTHER_CHANNEL_ID, "view_channel")
    await make_adapter(app.handle, app.command_menu())
    for channel in (CHANNEL_ID, OTHER_CHANNEL_ID):
        token = await slash_answered(standin, alice, "stats", channel=channel)
        assert any("Alice" in text for _, _, text in answers(standin, token))
    # but no game starts where the group could not follow it (its turns and results are posts):
    # /duel is answered, to Alice alone, with the permission the bot lacks (issue 22, item 9)
    token = await slash_answered(standin, alice, "duel", {"opponent": bob})
    shown = answers(standin, token)
    assert shown and all(ephemeral for _, ephemeral, _ in shown), shown
    assert "“Send Messages”" in shown[0][2], shown
    assert not [c for c in standin.calls if c.interaction_token == token and c.custom_ids()]


async def test_refusals_and_help_go_to_the_actor_alone(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice = standin.add_user("Alice")
    await make_adapter(app.handle, app.command_menu())
    mark = len(standin.calls)
    for name in ("accept", "help", "resign"):
        token = await slash_answered(standin, alice, name)
        shown = answers(standin, token)
        assert shown and all(ephemeral for _, ephemeral, _ in shown), (name, shown)
    assert standin.channel_calls(after=mark) == []  # nothing of it in the channel


def _accepts(standin: StandIn, token: str) -> bool:
    return any(cid.endswith(":accept") for c in standin.calls if c.interaction_token == token
               for cid in c.custom_ids())


async def test_the_bot_opponent_and_logik_statistics_by_slash_command(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    alice, bob = standin.add_user("Alice"), standin.add_user("Bob")
    other_bot = User(standin.next_id(), "OtherBot", bot=True)
    standin.users[other_bot.id] = other_bot
    await make_adapter(app.handle, app.command_menu())
    # the synced commands offer the bot as an opponent, and the games with statistics of their own
    adapter_options = {c["name"]: {o["name"]: o for o in c.get("options", [])}
                       for c in (await _synced(standin, make_adapter, app))}
    for name in ("duel", "logik"):
        assert adapter_options[name]["bot"]["choices"][0]["value"] == "bot"
    assert [ch["value"] for ch in adapter_options["stats"]["game"]["choices"]] == ["logik", "daily"]

    token = await slash_answered(standin, alice, "duel", {"bot": "bot strong", "length": "3"})
    shown = answers(standin, token)
    assert shown and not shown[0][1] and not _accepts(standin, token)  # a game against the computer
    # picking the bot itself in the user picker is the same: no challenge nobody could accept
    token = await slash_answered(standin, bob, "logik", {"opponent": standin.bot})
    assert answers(standin, token) and not _accepts(standin, token)
    carol = standin.add_user("Carol")
    token = await slash_answered(standin, carol, "logik", {"bot": "bot easy"})
    assert answers(standin, token) and not _accepts(standin, token)
    # another bot account is refused as a human opponent, to the actor alone
    dave = standin.add_user("Dave")
    token = await slash_answered(standin, dave, "duel", {"opponent": other_bot})
    shown = answers(standin, token)
    assert shown and all(ephemeral for _, ephemeral, _ in shown) and not _accepts(standin, token)
    # /stats logik
    token = await slash_answered(standin, alice, "stats", {"game": "logik"})
    assert any("Logik" in text for _, _, text in answers(standin, token))


async def _synced(standin: StandIn, make_adapter: MakeAdapter, app: App) -> list[dict[str, Any]]:
    syncer = await make_adapter(app.handle, app.command_menu(), start=False)
    await syncer.sync_commands()
    return standin.commands["global"]


async def test_the_synced_commands_fit_discord_and_group_commands_stay_out_of_dms(
    standin: StandIn, make_adapter: MakeAdapter, app: App
) -> None:
    from bot.games.registry import commands

    # the flag travels on the command info: the adapter keeps no list of its own
    group_only = {info.name for info in app.command_menu()["en"] if info.group_only}
    assert group_only == {c.name for c in commands() if c.group_only} and group_only
    # every description fits Discord's 100 characters in every language, uncut
    for lang, menu in app.command_menu().items():
        for info in menu:
            assert len(info.description) <= 100, (lang, info.name, len(info.description))
            for opt, text in info.option_descriptions.items():
                assert len(text) <= 100, (lang, info.name, opt, len(text))
    synced = await _synced(standin, make_adapter, app)
    for cmd in synced:
        texts = [cmd["description"], *cmd.get("description_localizations", {}).values()]
        for option in cmd.get("options", []):
            texts += [option["description"], *option.get("description_localizations", {}).values()]
        assert all(1 <= len(t) <= 100 and not t.endswith("…") for t in texts), cmd["name"]
        in_dms = cmd["name"] not in group_only
        contexts = cmd["contexts"] or [0, 1, 2]  # none given: everywhere
        assert cmd["dm_permission"] is in_dms and (1 in contexts) is in_dms, cmd["name"]
