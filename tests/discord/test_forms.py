"""/resolve assault without its figures opens a form: one figure a line, for each side."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.client import install_commands
from bot.discord.forms import FORM_TIMEOUT, AssaultForm, figures_text
from tests.discord.mocks import mock_interaction
from tests.discord.test_callbacks import RecordingHive, command, user


def test_figure_lines_become_the_options_compact_form():
    block = "Marine pulse_rifle=3 veterans\n\n  Bug1 teeth=4\nBug2, teeth=4 /aliens"
    assert figures_text(block) == "Marine/pulse_rifle=3/veterans,Bug1/teeth=4,Bug2/teeth=4/aliens"


async def test_resolve_assault_without_figures_opens_the_form_and_its_answers_start_the_assault():
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    install_commands(tree)
    hive = RecordingHive()
    i = mock_interaction(hive)
    await command(tree, "resolve assault").callback(i, o0=user(5))
    form = i.response.send_modal.call_args.args[0]
    assert isinstance(form, AssaultForm) and hive.calls == []
    assert form.timeout == FORM_TIMEOUT  # a dismissed form is forgotten, not kept for ever
    form.attackers._value = "Bug1 teeth=4\nBug2 teeth=4"
    form.defenders._value = "Marine pulse_rifle=3 veterans"
    form.pairs._value = ""
    await form.on_submit(mock_interaction(hive))
    assert hive.calls == [("resolve assault", {"opponent": "5",
                                               "attackers": "Bug1/teeth=4,Bug2/teeth=4",
                                               "defenders": "Marine/pulse_rifle=3/veterans"})]

