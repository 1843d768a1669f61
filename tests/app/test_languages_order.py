"""The language a chat hears, in order (issue 9): the chat's /lang setting, then the user's platform locale
(Telegram language_code, Discord interaction locale), then the chat's default (Chat.locale, e.g. a Discord
guild locale), then English. /lang without an argument offers every language as a button."""

from __future__ import annotations

from bot.app.app import App
from core.messages import Chat, Text
from tests.app.harness import PLATFORM, Table, texts


def said(app: App, key: str, reader: str, **params: object) -> str:
    return app.catalogs.render(Text(key, params), reader)


def group(chat_id: str, locale: str | None = None) -> Chat:
    return Chat(PLATFORM, chat_id, private=False, locale=locale)


async def test_without_any_hint_english(app: App) -> None:
    t = Table(app, group=group("g-none"), locale=None)
    assert texts(await t.say("alice", "/top")) == said(app, "top.empty", "en")


async def test_the_chats_default_beats_english(app: App) -> None:
    t = Table(app, group=group("g-guild", locale="de-DE"), locale=None)
    assert texts(await t.say("alice", "/top")) == said(app, "top.empty", "de")


async def test_the_users_platform_locale_beats_the_chats_default(app: App) -> None:
    t = Table(app, group=group("g-guild", locale="de"), locale="ru")
    assert texts(await t.say("alice", "/top")) == said(app, "top.empty", "ru")
    # an unsupported user locale falls through to the chat's default, not to English
    t = Table(app, group=group("g-guild", locale="sv"), locale="xx-YY")
    assert texts(await t.say("alice", "/top")) == said(app, "top.empty", "sv")


async def test_the_chats_lang_setting_beats_everything(app: App) -> None:
    t = Table(app, group=group("g-set", locale="de"), locale="ru")
    r = await t.say("alice", "/lang bg")
    assert texts(r) == said(app, "lang.set", "bg", lang=Text("lang.name.bg"))
    for user_locale in ("ru", "en", None):
        t.locale = user_locale
        assert texts(await t.say("bob", "/top")) == said(app, "top.empty", "bg")
    other = Table(app, group=group("g-other", locale="de"), locale=None)  # the setting is per chat
    assert texts(await other.say("bob", "/top")) == said(app, "top.empty", "de")


async def test_lang_without_argument_offers_buttons_and_pressing_switches_the_group(app: App) -> None:
    t = Table(app, group=group("g-buttons", locale="de"), locale="en")
    r = await t.say("alice", "/lang")
    (msg,) = r.messages
    assert msg.text == said(app, "lang.choose", "en")
    buttons = [b for row in msg.buttons for b in row]
    assert [b.action for b in buttons] == [f"lang:{c}" for c in app.catalogs.languages]
    assert {b.label for b in buttons} >= {"Русский", "Deutsch", "English", "Български", "Svenska"}
    r = await t.press("alice", "lang:ru")
    assert texts(r) == said(app, "lang.set", "ru", lang=Text("lang.name.ru")) == "Язык: Русский."
    for user_locale in ("en", "de", None):  # the whole group now hears Russian, whatever the reader's locale
        t.locale = user_locale
        assert texts(await t.say("carol", "/top")) == said(app, "top.empty", "ru")
    r = await t.press("alice", "lang:xx")
    assert "xx" in texts(r) and texts(r) != said(app, "lang.set", "ru", lang=Text("lang.name.ru"))


async def test_lang_in_private_is_the_users_own_and_leaves_the_group_alone(app: App) -> None:
    t = Table(app, group=group("g-private", locale=None), locale="de")
    r = await t.dm("alice", "/lang sv")
    assert texts(r) == said(app, "lang.set", "sv", lang=Text("lang.name.sv"))
    assert texts(await t.dm("alice", "/start")) == said(app, "help.welcome", "sv")
    assert texts(await t.say("alice", "/top")) == said(app, "top.empty", "de")  # the group: Alice's locale
