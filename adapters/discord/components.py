"""Buttons and modals as persistent dynamic items.

A button's custom id *is* the App's opaque action id, so the only state a
press needs is in the press itself; registering the item classes with
`client.add_dynamic_items` makes buttons posted before a restart work after
it. A button with a prompt gets the custom id `~<action>` and opens a modal
whose submit comes back as Inbound(action, text).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
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


def make_view(rows: Sequence[Sequence[OutButton]]) -> ui.View | None:
    """Neutral button rows → a persistent view (≤ 5 rows of ≤ 5 buttons)."""
    view = ui.View(timeout=None)
    for index, row in enumerate(rows[:5]):
        for button in row[:5]:
            if button.url:
                view.add_item(ui.Button(label=_label(button.label), url=button.url, row=index))
            elif not ACTION_PATTERN.fullmatch(button.action) or (
                button.prompt and len(button.action) > 99
            ):
                log.warning("dropping a button whose action id Discord cannot carry")
            elif button.prompt:
                view.add_item(PromptButton(button.action, button.label, row=index))
            else:
                view.add_item(ActionButton(button.action, button.label, row=index))
    return view if view.children else None
