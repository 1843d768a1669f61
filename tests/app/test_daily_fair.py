"""Issue 23.5, the daily puzzle played fairly, through the real App over a real SQLite file: the
day's word is in the group's language, not the first asker's."""

from __future__ import annotations

from bot.app import App
from bot.dictionary import lexicon
from bot.storage.sql import Query
from tests.app.harness import Table, texts
from tests.app.test_daily import noon_app as noon_app
from tests.app.test_daily import secret_of


async def puzzle_lang(app: App) -> str:
    rows = await app.store._fetch(  # type: ignore[attr-defined]
        Query("SELECT lang FROM daily_puzzles WHERE puzzle = 'words'"))
    return str(rows[0][0])


async def test_the_first_askers_language_does_not_pick_the_groups_word(noon_app: App) -> None:
    german = Table(noon_app, locale="de")
    r = await german.say("bob", "/daily words")  # the group never set /lang: the bot's language, English
    assert await puzzle_lang(noon_app) == "en", texts(r)
    word = await secret_of(noon_app, puzzle="words")
    assert lexicon("en").knows(word)
    r = await german.say("carl", "/daily words")  # a second asker plays the same word, told in German
    assert "5 Buchstaben" in texts(r) and await puzzle_lang(noon_app) == "en"
