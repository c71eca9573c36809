"""Forms (Discord modals): the figures of a close assault, one a line, instead of one long option."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

FORM_TIMEOUT = 900.0
"""Seconds a form waits for its answer; a dismissed form is then forgotten (forms do not pile up)."""
FIGURE_HINT = "one figure a line: name, weapon, modifiers\nMarine pulse_rifle=3 veterans\nBug1 teeth=4"


def figures_text(block: str) -> str:
    """Lines ``Marine pulse_rifle=3 veterans`` -> the option's form ``Marine/pulse_rifle=3/veterans,...``."""
    figures = []
    for line in block.splitlines():
        words = line.replace(",", " ").replace("/", " ").split()
        if words:
            figures.append("/".join(words))
    return ",".join(figures)


class AssaultForm(discord.ui.Modal, title="Close assault: the figures"):
    """Asks for each side's figures, one a line, then starts the assault with them."""

    attackers: discord.ui.TextInput = discord.ui.TextInput(
        label="Attackers", style=discord.TextStyle.paragraph, placeholder=FIGURE_HINT, max_length=1000)
    defenders: discord.ui.TextInput = discord.ui.TextInput(
        label="Defenders", style=discord.TextStyle.paragraph, placeholder=FIGURE_HINT, max_length=1000)
    pairs: discord.ui.TextInput = discord.ui.TextInput(
        label="Pairs (optional)", required=False, placeholder="Bug1-Marine, Bug2-Marine", max_length=400)

    def __init__(self, args: dict[str, str],
                 start: Callable[[discord.Interaction, dict[str, str]], Awaitable[object]],
                 timeout: float = FORM_TIMEOUT) -> None:
        super().__init__(timeout=timeout)
        self.args = args
        self.start = start

    async def on_submit(self, interaction: discord.Interaction) -> None:
        args = dict(self.args)
        args["attackers"] = figures_text(str(self.attackers.value))
        args["defenders"] = figures_text(str(self.defenders.value))
        if str(self.pairs.value).strip():
            args["pairs"] = ",".join(p.strip() for p in str(self.pairs.value).replace("\n", ",").split(",") if p.strip())
        await self.start(interaction, args)
