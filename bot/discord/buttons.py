"""The dynamic items that receive clicks: choices and 'Choose privately'. They survive restarts."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.components import (
    CHOICE_TEMPLATE,
    PANEL_TEMPLATE,
    choices_view,
    panel_prompts,
    resolve_choice,
    shown_token,
)
from bot.discord.errors import explain, reply_privately
from bot.discord.hive import Hive, hive_of

log = logging.getLogger("hexhive.discord.buttons")


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=CHOICE_TEMPLATE):
    """One legal answer; a click re-checks it against the game now and runs it as the clicker."""

    def __init__(self, game: int, shown: str, n: int, h: str, label: str = "choose") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"hh:{game}:{shown}:{n}:{h}"))
        self.game, self.shown, self.n, self.h = game, shown, n, h

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ChoiceButton:
        return cls(int(match["game"]), match["seq"], int(match["n"]), match["h"],
                   getattr(item, "label", None) or "choose")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._click)

    async def _click(self, hive: Hive, interaction: discord.Interaction) -> None:
        user = str(interaction.user.id)
        line, refusal, seq = await resolve_choice(hive.core, self.game, self.shown, self.n, self.h, user)
        if line is None:
            await hive.delivery.respond(interaction, content=refusal)
            return
        await hive.run_line(interaction, line, shown=seq)  # checked again under the game's lock


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=PANEL_TEMPLATE):
    """'Choose privately': opens a player's private decision panel as an ephemeral message."""

    def __init__(self, game: int, user: str) -> None:
        super().__init__(discord.ui.Button(label="Choose privately", custom_id=f"hh:{game}:p:{user}"))
        self.game, self.user = game, user

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> PanelButton:
        return cls(int(match["game"]), match["user"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._click)

    async def _click(self, hive: Hive, interaction: discord.Interaction) -> None:
        await open_panel(hive, interaction, self.game, self.user)


async def open_panel(hive: Hive, interaction: discord.Interaction, game: int, owner: str) -> None:
    """Show the clicker their private decision, ephemerally, if the button is theirs."""
    if str(interaction.user.id) != owner:
        await hive.delivery.respond(interaction, content=f"Sorry, that button is for <@{owner}> only.")
        return
    g = await hive.core.load(game)
    prompts = panel_prompts(g, owner) if g is not None and g.row.status == "active" else []
    if g is None or not prompts:
        await hive.delivery.respond(interaction, content=f"Nothing waits on you privately in game #{game} now.")
        return
    p = prompts[0]
    rule = f" (rule {p.rule})" if p.rule else ""
    buttons = hive.core.buttons(g, p.seat, p)
    text = f"Game #{g.id}, your private choice: {p.text}{rule}"
    if not buttons:
        text += "\nAnswer with " + ", ".join(f"/{v}" for v in p.verbs) + " here; only you will see the answer."
    view = choices_view(g.id, await shown_token(hive.core, g.id, g.seq), buttons)
    await hive.delivery.respond(interaction, content=text, view=view)


async def guarded(interaction: discord.Interaction, handler: Any) -> None:
    """Run a click with the rate limit and the same error replies as commands."""
    hive = hive_of(interaction)
    try:
        async with hive.busy():
            if await hive.too_fast(interaction):
                return
            await handler(hive, interaction)
    except Exception as exc:
        text, error_id = explain(exc)
        if error_id is not None:
            log.exception("error %s on a button click from user %s", error_id, interaction.user.id)
        await reply_privately(interaction, text)
