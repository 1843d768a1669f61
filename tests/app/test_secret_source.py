"""Where the bot's secrets come from: without a seed (every real run) codes, lots and the daily
puzzle are drawn from the operating system's cryptographic source, so no number of revealed practice
codes lets a player rebuild a Mersenne Twister's state and predict the next code (docs/daily.md,
"Fair play"); with a seed (tests, `--seed` console sessions) they are repeatable."""

import random
from pathlib import Path

from bot.app.app import App


async def test_unseeded_app_draws_from_the_os(tmp_path: Path) -> None:
    app = await App.open(str(tmp_path / "a.sqlite3"))
    try:
        assert isinstance(app.rng, random.SystemRandom)
    finally:
        await app.close()


async def test_seeded_apps_repeat(tmp_path: Path) -> None:
    draws = []
    for name in ("b", "c"):
        app = await App.open(str(tmp_path / f"{name}.sqlite3"), seed=7)
        try:
            draws.append([app.rng.random() for _ in range(5)])
        finally:
            await app.close()
    assert draws[0] == draws[1]
