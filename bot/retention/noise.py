"""How chatty the bot is in a group (`/posts noise all|results`, docs/retention.md "Less noise").

With `results` the group hears what it needs — every game's moves, turns, results, answers to
commands, errors, the bot's own posts — but not the announcements listed in `CHATTER`: messages to a
group that say something happened besides the game itself. They are dropped when rendered for a group
whose setting is `results`, wherever they come from; private messages are never dropped. A feature with
announcements of its own adds their keys here (and to the table in docs/retention.md)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.retention.settings import post_settings
from bot.storage.base import Store
from core.messages import Chat, Message

CHATTER = frozenset({
    "daily.playing",  # "🗓 Alice is playing today's 1A2B daily privately" (with its play button)
    "daily.streak_told",  # "🔥 Alice: 3 days in a row! (best: 3)" after a solved daily
    "practice.best",  # "🏅 Alice's best with 4 digits, …: 6." after a practice game
    "practice.new_best",  # "🏅 New personal best for Alice …!"
    "achievement.earned",  # "🎖 Alice earned an achievement: First win" (still earned, and listed in /stats)
})


async def quieted(store: Store, messages: Sequence[Message]) -> list[Message]:
    """`messages` without the chatter of the groups that asked for results only (one read per such
    group, and only when a chatter message is there to drop)."""
    quiet: dict[tuple[str, str], bool] = {}
    out: list[Message] = []
    for m in messages:
        to = m.to
        if isinstance(to, Chat) and not to.private and m.text.key in CHATTER:
            key = (to.platform, to.chat_id)
            if key not in quiet:
                quiet[key] = (await post_settings(store, *key)).noise == "results"
            if quiet[key]:
                continue
        out.append(m)
    return out
