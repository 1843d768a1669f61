"""Buttons and modals as persistent dynamic items.

A button's custom id *is* the App's opaque action id, so the only state a
press needs is in the press itself; registering the item classes with
`client.add_dynamic_items` makes buttons posted before a restart work after
it. A button with a prompt gets the custom id `~<action>` and opens a modal
whose submit comes back as Inbound(action, text).

Nothing the App offers is dropped: Discord takes at most 5 rows of 5 buttons,
so `layout` wraps a long row, then packs all buttons densely, and only when
more than 25 are offered turns the plain ones into select menus (25 options
each, a menu alone in its row) whose choice is pressed like the button.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import ui

from core.messages import OutButton

from .inbound import PROMPT_PREFIX

if TYPE_CHECKING:
    from discord.ui.item import Item

log = logging.getLogger(__name__)

ACTION_RE = r"[A-Za-z0-9:_-]"
ACTION_PATTERN = re.compile(ACTION_RE + "{1,100}")
PROMPT_TEMPLATE = re.escape(PROMPT_PREFIX) + "(?P<action>" + ACTION_RE + "{1,99})"
MODAL_INPUT_ID = "value"
MENU_PREFIX = "="  # a select menu's custom id `=<n>`; outside the action alphabet, like PROMPT_PREFIX
ROWS = 5  # Discord: at most 5 action rows per message …
PER_ROW = 5  # … of at most 5 buttons, or one select menu
MENU_OPTIONS = 25


class PressHandler(Protocol):
    """What the items call back into (the adapter), kept abstract to avoid a cycle."""

    async def on_press(self, interaction: discord.Interaction, action: str) -> None: ...

    async def on_prompt(
        self, interaction: discord.Interaction, action: str, label: str
    ) -> None: ...


def _handler(interaction: discord.Interaction) -> PressHandler | None:
    return getattr(interaction.client, "press_handler", None)


def _label(text: str) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= 80 else text[:79] + "…"


class ActionButton(ui.DynamicItem[ui.Button[Any]], template="(?P<action>" + ACTION_RE + "{1,100})"):
    """A plain button: its press becomes Inbound(action=custom_id)."""

    def __init__(self, action: str, label: str = "…", *, row: int | None = None) -> None:
        super().__init__(
            ui.Button(label=_label(label), custom_id=action, style=discord.ButtonStyle.secondary),
            row=row,
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(match["action"], getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.on_press(interaction, self.action)


class PromptButton(ui.DynamicItem[ui.Button[Any]], template=PROMPT_TEMPLATE):
    """A button that asks for private text: it opens a modal instead of acting."""

    def __init__(self, action: str, label: str = "…", *, row: int | None = None) -> None:
        super().__init__(
            ui.Button(
                label=_label(label),
                custom_id=PROMPT_PREFIX + action,
                style=discord.ButtonStyle.primary,
            ),
            row=row,
        )
        self.action = action
        self.label = label

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item[Any], match: re.Match[str], /
    ) -> PromptButton:
        return cls(match["action"], getattr(item, "label", None) or "…")

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.on_prompt(interaction, self.action, self.label)


class PromptModal(ui.Modal):
    """One short text input. Its submit is handled by the adapter's interaction
    listener (by custom id), so a modal opened before a restart still works."""

    def __init__(self, action: str, prompt: str) -> None:
        title = " ".join(prompt.split()) or "…"
        super().__init__(title=title[:45], custom_id=PROMPT_PREFIX + action, timeout=None)
        self.add_item(
            ui.TextInput(
                label=title[:45],
                custom_id=MODAL_INPUT_ID,
                style=discord.TextStyle.short,
                min_length=1,
                max_length=100,
            )
        )

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        """Handled by the adapter's `on_interaction`; nothing to do here."""


class ActionMenu(ui.DynamicItem[ui.Select[Any]], template=re.escape(MENU_PREFIX) + r"(?P<n>[0-9]{1,2})"):
    """A select menu standing in for more buttons than fit: the chosen option's value is the
    action, so choosing it is pressing that button (Inbound(action=value))."""

    def __init__(self, n: int, options: Sequence[OutButton] = ()) -> None:
        select: ui.Select[Any] = ui.Select(
            custom_id=f"{MENU_PREFIX}{n}", min_values=1, max_values=1, placeholder="…",
            options=[discord.SelectOption(label=_label(b.label)[:100], value=b.action) for b in options]
            or [discord.SelectOption(label="…", value="…")],
        )
        super().__init__(select)
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Item[Any], match: re.Match[str], /
    ) -> ActionMenu:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, object] = interaction.data or {}
        values = data.get("values")  # a select menu's choice: a list of one value
        handler = _handler(interaction)
        if handler is not None and isinstance(values, list) and values and ACTION_PATTERN.fullmatch(str(values[0])):
            await handler.on_press(interaction, str(values[0]))


Row = list[OutButton]


def _carriable(button: OutButton) -> bool:
    if button.url:
        return True
    if not ACTION_PATTERN.fullmatch(button.action) or (button.prompt and len(button.action) > 99):
        log.warning("dropping a button whose action id Discord cannot carry")
        return False
    return True


def _chunks(items: Sequence[OutButton], size: int) -> list[Row]:
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def layout(rows: Sequence[Sequence[OutButton]]) -> tuple[list[Row], list[Row]]:
    """The App's rows within Discord's limits, nothing dropped: (button rows, select menus).

    Each long row is wrapped at 5; if that makes more than 5 rows, all buttons are packed 5 to
    a row; more than 25 buttons: the plain ones become select menus of up to 25 options (a menu
    takes a whole row), links and prompt buttons stay buttons. Only beyond what even menus can
    hold (hundreds of choices) is the rest cut, with a warning."""
    kept = [[b for b in row if _carriable(b)] for row in rows]
    kept = [row for row in kept if row]
    wrapped = [chunk for row in kept for chunk in _chunks(row, PER_ROW)]
    if len(wrapped) <= ROWS:
        return wrapped, []
    flat = [b for row in kept for b in row]
    if len(flat) <= ROWS * PER_ROW:
        return _chunks(flat, PER_ROW), []
    plain = [b for b in flat if not b.url and not b.prompt]
    others = [b for b in flat if b.url or b.prompt]
    menus = _chunks(plain, MENU_OPTIONS)
    buttons = _chunks(others, PER_ROW)
    if len(menus) + len(buttons) > ROWS:
        log.warning("more choices than a Discord message can hold; the last ones are cut")
        buttons = buttons[: max(0, ROWS - len(menus))]
        menus = menus[: ROWS - len(buttons)]
    return buttons, menus


def make_view(rows: Sequence[Sequence[OutButton]]) -> ui.View | None:
    """Neutral button rows → a persistent view within Discord's limits (see `layout`)."""
    view = ui.View(timeout=None)
    button_rows, menus = layout(rows)
    for index, row in enumerate(button_rows):
        for button in row:
            if button.url:
                view.add_item(ui.Button(label=_label(button.label), url=button.url, row=index))
            elif button.prompt:
                view.add_item(PromptButton(button.action, button.label, row=index))
            else:
                view.add_item(ActionButton(button.action, button.label, row=index))
    for n, options in enumerate(menus):
        menu = ActionMenu(n, options)
        menu.row = len(button_rows) + n
        view.add_item(menu)
    return view if view.children else None
