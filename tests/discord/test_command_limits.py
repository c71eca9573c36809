"""The synced command payload against Discord's published limits, so a new verb, a new game or a
discord.py upgrade cannot break registration (Discord refuses the whole sync for one bad command).

Limits from Discord's application command documentation: names 1-32 characters of letters, numbers,
``-``, ``_`` and ``'``, lower case; descriptions 1-100; at most 25 options, subcommands or choices;
choice names 1-100 and string values up to 100; required options before optional ones; at most
4,000 characters of names, descriptions and values in one command; at most 100 global commands.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.client import command_payload, install_commands, payload_hash

NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_COMMANDS = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_TOTAL = 4000
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


def problems(command: dict[str, Any]) -> list[str]:
    """Every way a command's payload breaks Discord's limits (empty when Discord accepts it)."""
    out: list[str] = []

    def check(node: dict[str, Any], path: str) -> int:
        name, description = node.get("name", ""), node.get("description", "")
        where = f"{path} {name}".strip()
        if not NAME.match(name) or name != name.lower():
            out.append(f"{where}: name {name!r} is not 1-32 lower-case letters, digits, - or _")
        if not 1 <= len(description) <= 100:
            out.append(f"{where}: description of {len(description)} characters (1-100)")
        total = len(name) + len(description)
        options = node.get("options") or []
        if len(options) > MAX_OPTIONS:
            out.append(f"{where}: {len(options)} options (at most {MAX_OPTIONS})")
        seen_optional = False
        for option in options:
            if option["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP):
                if option.get("required"):
                    if seen_optional:
                        out.append(f"{where}: required option {option['name']} after an optional one")
                else:
                    seen_optional = True
            choices = option.get("choices") or []
            if len(choices) > MAX_CHOICES:
                out.append(f"{where} {option['name']}: {len(choices)} choices (at most {MAX_CHOICES})")
            if choices and option.get("autocomplete"):
                out.append(f"{where} {option['name']}: both choices and autocomplete")
            for choice in choices:
                if not 1 <= len(choice["name"]) <= 100:
                    out.append(f"{where} {option['name']}: choice name {choice['name']!r} (1-100 characters)")
                if isinstance(choice["value"], str) and len(choice["value"]) > 100:
                    out.append(f"{where} {option['name']}: choice value over 100 characters")
                total += len(choice["name"]) + len(str(choice["value"]))
            total += check(option, where)
        return total

    total = check(command, "/")
    if total > MAX_TOTAL:
        out.append(f"/{command['name']}: {total} characters in all (at most {MAX_TOTAL})")
    return out


@pytest.fixture(scope="module")
def payload() -> list[dict[str, Any]]:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    install_commands(tree)
    return command_payload(tree)


def test_every_synced_command_is_within_discords_limits(payload):
    assert payload and [p for c in payload for p in problems(c)] == []


def test_at_most_100_global_commands_with_distinct_names(payload):
    names = [c["name"] for c in payload if c.get("type", 1) == 1]
    assert len(names) <= MAX_COMMANDS and len(set(names)) == len(names)


def test_the_checks_catch_what_discord_would_refuse():
    option = {"name": "unit", "description": "u", "type": 3, "required": False}
    bad = {"name": "Move", "description": "x" * 101, "type": 1,
           "options": [option, {"name": "to", "description": "t", "type": 3, "required": True},
                       {"name": "side", "description": "s", "type": 3,
                        "choices": [{"name": f"c{n}", "value": str(n)} for n in range(26)]}]
           + [dict(option, name=f"o{n}") for n in range(23)]}
    found = "\n".join(problems(bad))
    for expected in ("name 'Move'", "description of 101", "26 options", "required option to", "26 choices"):
        assert expected in found
    huge = {"name": "big", "description": "d", "type": 1,
            "options": [dict(option, name=f"o{n}", description="y" * 100) for n in range(25)]
            + []}
    huge["options"][0]["choices"] = [{"name": "n" * 100, "value": "v" * 100} for _ in range(10)]
    assert any("characters in all" in p for p in problems(huge))


def test_the_payload_hash_changes_with_the_payload_not_with_its_order(payload):
    assert payload_hash(payload) == payload_hash(list(reversed(payload)))
    changed = [dict(payload[0], description=payload[0]["description"] + "!")] + payload[1:]
    assert payload_hash(changed) != payload_hash(payload)
