"""Level A: every command's callback with a mocked interaction converts its options and hands them over."""

from __future__ import annotations

from types import SimpleNamespace
from unittest.mock import MagicMock

import discord
import pytest
from discord import app_commands

from bot.discord.client import install_commands
from bot.discord.commands import extra_options
from tests.discord.mocks import mock_interaction


class RecordingHive:
    """Stands in for the hive: records what a callback asked to run."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str]]] = []

    async def run(self, interaction, name, args):  # noqa: ANN001, ANN201
        self.calls.append((name, args))
        return []

    def remember(self, user) -> None:  # noqa: ANN001
        pass


@pytest.fixture
def tree():
    client = discord.Client(intents=discord.Intents.none())
    t = app_commands.CommandTree(client)
    install_commands(t)
    return t


def command(tree, path: str) -> app_commands.Command:
    parts = path.split()
    cmd = tree.get_command(parts[0])
    for p in parts[1:]:
        cmd = cmd.get_command(p)
    assert isinstance(cmd, app_commands.Command), path
    return cmd


def user(uid: int) -> MagicMock:
    u = MagicMock(spec=discord.User)
    u.id = uid
    u.display_name = f"member{uid}"
    u.bot = False  # a member (another bot's account is refused before the core: test_opponent.py)
    return u


def role(rid: int) -> MagicMock:
    r = MagicMock(spec=discord.Role)
    r.id = rid
    r.mention = f"<@&{rid}>"
    return r


CASES = [
    ("game new", {"game": "toy", "opponent": user(102), "options": "pile:5", "clock": "24h", "on_timeout": "forfeit"},
     ("game new", {"game": "toy", "opponent": "102", "opponent_name": "member102", "pile": "5", "clock": "24h",
                   "on_timeout": "forfeit"})),
    ("game new", {"game": "oneworld", "opponent": user(7), "scenario": "standard", "seat": "CHEZ", "seed": "x"},
     ("game new", {"game": "oneworld", "opponent": "7", "opponent_name": "member7", "scenario": "standard",
                   "seat": "CHEZ", "seed": "x"})),
    ("game accept", {}, ("game accept", {})),
    ("game accept", {"game": "3"}, ("game accept", {"game": "3"})),
    ("game decline", {"game": "#3"}, ("game decline", {"game": "#3"})),
    ("game board", {}, ("game board", {})),
    ("game status", {}, ("game status", {})),
    ("game hint", {"game": "4"}, ("game hint", {"game": "4"})),
    ("game new", {"game": "chitin", "opponent": user(900), "level": "hard", "hints": "on"},
     ("game new", {"game": "chitin", "opponent": "900", "opponent_name": "member900", "level": "hard",
                   "hints": "on"})),
    ("game resign", {"game": "9"}, ("game resign", {"game": "9"})),
    ("game export", {}, ("game export", {})),
    ("game replay", {"game": "3"}, ("game replay", {"game": "3"})),
    ("game help", {}, ("game help", {})),
    ("game help", {"all": True}, ("game help", {"all": "yes"})),
    ("game moves", {"unit": "R3"}, ("game moves", {"unit": "R3"})),
    ("game options", {"game": "chitin"}, ("game options", {"game": "chitin"})),
    ("game log", {"last": 5}, ("game log", {"last": "5"})),
    ("game list", {}, ("game list", {})),
    ("resolve dice", {"o0": user(5), "o1": "4,4", "o2": "3,3", "o18": "stacking_limit:3"},
     ("resolve dice", {"opponent": "5", "attack": "4,4", "defence": "3,3", "stacking_limit": "3"})),
    ("resolve assault", {"o0": user(5), "o1": "Bug/4", "o2": "Marine/3", "o7": "standard"},
     ("resolve assault", {"opponent": "5", "attackers": "Bug/4", "defenders": "Marine/3", "scenario": "standard"})),
    ("mod pause", {"reason": "dispute"}, ("mod pause", {"reason": "dispute"})),
    ("mod resume", {"game": "2"}, ("mod resume", {"game": "2"})),
    ("mod branches", {"game": "2"}, ("mod branches", {"game": "2"})),
    ("mod log", {}, ("mod log", {})),
    ("mod edit", {"op": "pile", "reason": "misclick", "details": "n:3"}, ("mod edit", {"n": "3", "op": "pile", "reason": "misclick"})),
    ("mod rollback", {"to": 4, "reason": "misclick"}, ("mod rollback", {"to": "4", "reason": "misclick"})),
    ("mod restore", {"branch": 1}, ("mod restore", {"branch": "1"})),
    ("mod replace", {"seat": "A", "user": user(9)}, ("mod replace", {"seat": "A", "user": "9", "user_name": "member9"})),
    ("mod replace", {"seat": "A", "user": user(900), "level": "easy"},
     ("mod replace", {"seat": "A", "user": "900", "user_name": "member900", "level": "easy"})),
    ("mod end", {"winner": "draw"}, ("mod end", {"winner": "draw"})),
    ("take", {"o0": "2"}, ("take", {"n": "2"})),
    ("guess", {"o0": "odd", "o1": "4"}, ("guess", {"parity": "odd", "game": "4"})),
]


@pytest.mark.parametrize(("path", "kwargs", "expected"), CASES, ids=[c[0] for c in CASES])
async def test_callback_hands_the_core_its_command(tree, path, kwargs, expected):
    hive = RecordingHive()
    await command(tree, path).callback(mock_interaction(hive), **kwargs)
    assert hive.calls == [expected]


def test_every_command_is_covered(tree):
    paths = set()
    for cmd in tree.get_commands():
        if isinstance(cmd, app_commands.Group):
            paths |= {f"{cmd.name} {c.name}" for c in cmd.commands}
        elif cmd.name in ("take", "guess"):
            paths.add(cmd.name)
    covered = {c[0] for c in CASES} | {"mod config"}
    assert paths <= covered, paths - covered


def test_options_words_are_read_as_name_value():
    assert extra_options('pile:5 name:"a b"') == {"pile": "5", "name": "a b"}
    assert extra_options(None) == {}
    with pytest.raises(app_commands.AppCommandError, match="name:value, for example combat:dice") as caught:
        extra_options("help")
    assert "/game options game:NAME" in str(caught.value)  # where a game's options are listed
    with pytest.raises(app_commands.AppCommandError) as caught:  # /mod edit's details have their own
        extra_options("B7", "details")
    assert "details are written name:value, for example unit:B7 (not 'B7'); /mod edit" in str(caught.value)
    with pytest.raises(app_commands.AppCommandError, match="for example attack:8"):
        extra_options("8", example="attack:8 defence:4,4")


@pytest.mark.parametrize("text", ['pile:"5', "reason:'a b", "pile:5 \\"])
def test_a_quote_left_open_in_options_is_a_polite_refusal_not_an_internal_error(text):
    """shlex's ValueError was neither a rule error nor a refusal: the member read "something went wrong
    on our side" and the log took a traceback."""
    from bot.discord.errors import explain

    with pytest.raises(app_commands.AppCommandError) as caught:
        extra_options(text, "details")
    said, error_id = explain(app_commands.CommandInvokeError(MagicMock(), caught.value))
    assert error_id is None and said.startswith("Sorry, details: a quote is left open"), said


async def test_generated_orders_rename_their_options(tree):
    take = command(tree, "take")
    assert [p.display_name for p in take.parameters] == ["n", "game"]
    assert all(p.autocomplete is not None for p in take.parameters)
    assert take.to_dict(tree)["options"][0]["name"] == "n"


async def test_mod_config_needs_manage_server(tree, core):
    hive = SimpleNamespace(core=core, delivery=SimpleNamespace(respond=None))
    from bot.discord.delivery import Delivery

    hive.delivery = Delivery(MagicMock(spec=discord.Client), core)
    i = mock_interaction(hive)
    await command(tree, "mod config").callback(i, role=role(77))
    assert await core.store.place_settings("guild:1000") == {}
    i = mock_interaction(hive, manage_guild=True)
    await command(tree, "mod config").callback(i, role=role(77))
    assert await core.store.place_settings("guild:1000") == {"moderator_role": "77"}
    channel = MagicMock(spec=discord.TextChannel)
    channel.id = 55
    await command(tree, "mod config").callback(i, alerts=channel)
    assert await core.store.place_settings("guild:1000") == {"moderator_role": "77", "alerts_channel": "55"}
    i = mock_interaction(hive, manage_guild=True)
    await command(tree, "mod config").callback(i)
    assert i.response.send_message.call_args.kwargs["content"] == "Moderator role: <@&77>. Alerts channel: <#55>."


async def test_games_are_not_started_in_direct_messages(tree):
    from bot.discord.delivery import Delivery

    hive = RecordingHive()
    hive.delivery = Delivery(MagicMock(spec=discord.Client), None)
    i = mock_interaction(hive, guild=False)
    await command(tree, "game new").callback(i, game="toy", opponent=user(102))
    await command(tree, "resolve dice").callback(i, o0=user(102))
    assert hive.calls == []
    assert "server channel" in i.response.send_message.call_args.kwargs["content"]


def test_a_verb_shared_by_games_requires_only_what_all_of_them_require():
    from bot.discord.orders import VerbInfo, _merge
    from engine.core.protocol import ArgSpec, VerbSpec

    merged: dict[str, VerbInfo] = {}
    _merge(merged, "one", VerbSpec(verb="move", help="move", args=(ArgSpec(name="unit", help="u"),
                                                                     ArgSpec(name="to", help="t"))))
    _merge(merged, "two", VerbSpec(verb="move", help="move", args=(ArgSpec(name="unit", help="u"),
                                                                     ArgSpec(name="dir", help="d"))))
    _merge(merged, "two", VerbSpec(verb="Bad Name", help="x"))
    _merge(merged, "two", VerbSpec(verb="game", help="x"))
    assert {k: r for k, (_, r) in merged["move"].args.items()} == {"unit": True, "to": False, "dir": False}
    assert merged["move"].games == ["one", "two"] and set(merged) == {"move"}
