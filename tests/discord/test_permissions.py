"""Who may change what: every command tried by the player, the opponent, a spectator, a non-player, a
moderator, and a moderator and a member of another server; only the right ones change anything, the
others get a private refusal."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from bot.commands import make_core
from bot.core import Core, Limits
from tests.discord.actors import MEMBERS, Member, Table
from tests.discord.conftest import start_bot
from tests.fakediscord import payloads as P

GUILD = f"guild:{P.GUILD_ID}"
OTHER_GUILD, OTHER_CHANNEL = 2000, 2500
"""Another server the bot is in, with its own channel."""

ACTORS = ("player", "opponent", "spectator", "outsider", "moderator", "foreign_moderator", "foreign_member")
FOREIGN = {"foreign_moderator": Member(106, "mo2", P.MEMBER_PERMS | P.MANAGE_GUILD), "foreign_member": Member(107, "eve")}


@dataclass(frozen=True)
class Case:
    """A command, the state its game must be in, and who may change something with it."""

    name: str
    sub: str | None
    options: dict
    state: str
    allowed: frozenset[str]


def case(cmd: str, state: str, allowed: str, **options) -> Case:
    name, _, sub = cmd.partition(" ")
    return Case(name, sub or None, options, state, frozenset(allowed.split()))


CASES = [
    case("game new", "none", "player opponent spectator outsider moderator foreign_moderator foreign_member",
         game="toy", opponent=("user", 999)),
    case("resolve dice", "none", "player opponent spectator outsider moderator foreign_moderator foreign_member",
         opponent=("user", 999),
         attack="4,4", defence="3,3"),
    case("help", "take", ""),
    case("game accept", "invited", "opponent"),
    case("game decline", "invited", "player opponent"),
    case("game resign", "take", ""),  # asks first; the red button confirms (tests/bot/test_confirm.py)
    case("game board", "take", ""),
    case("game status", "take", ""),
    case("game log", "take", ""),
    case("game list", "take", ""),
    case("game export", "take", ""),
    case("game replay", "take", ""),
    case("game help", "take", ""),
    case("take", "take", "player", n="1"),
    case("guess", "guess", "player opponent", parity="odd"),
    case("mod pause", "take", "moderator"),
    case("mod resume", "paused", "moderator"),
    case("mod rollback", "take", "moderator", to=1, confirm="yes", reason="a misclick"),
    case("mod restore", "rolled", "moderator", branch=1),
    case("mod replace", "take", "moderator", seat="A", user=("user", 103)),
    case("mod end", "take", "moderator", winner="A"),
    case("mod branches", "take", ""),
    case("mod log", "take", ""),
    case("mod edit", "take", "moderator", op="pile", reason="misclick", details="n:3"),
    case("mod config", "none", "moderator", role=("role", 7000)),
]


async def prepare(core: Core, state: str) -> tuple[int | None, str, dict[str, str]]:
    """A fresh game in ``state``; returns its id, thread, and who plays which part."""
    parts = {"spectator": "carol", "outsider": "dave", "moderator": "mo", "player": "alice", "opponent": "bob",
             "foreign_moderator": "foreign_moderator", "foreign_member": "foreign_member"}
    if state == "none":
        return None, str(P.CHANNEL_ID), parts
    r = await core.handle_line("101", str(P.CHANNEL_ID), "/game new game:toy opponent:102", community=GUILD)
    gid, thread = r[0].game_id, r[0].place
    assert gid is not None
    if state == "invited":
        return gid, thread, parts
    await core.handle_line("102", thread, f"/game accept game:{gid}", community=GUILD)
    if state == "guess":
        return gid, thread, parts
    await core.handle_line("101", thread, f"/guess parity:odd game:{gid}", community=GUILD)
    await core.handle_line("102", thread, f"/guess parity:even game:{gid}", community=GUILD)
    g = core.live[gid]
    taker = g.user_of(g.state.taker)
    parts |= {"player": "alice" if taker == "101" else "bob", "opponent": "bob" if taker == "101" else "alice"}
    if state == "paused":
        await core.handle_line("104", thread, f"/mod pause game:{gid}", is_moderator=True, community=GUILD)
    if state == "rolled":
        await core.handle_line("104", thread, f"/mod rollback to:1 game:{gid} confirm:yes reason:again", is_moderator=True,
                               community=GUILD)
    return gid, thread, parts


async def fingerprint(core: Core, gid: int | None) -> tuple:
    """Everything a command could change: games, the game's row, log, branches, moderation log, server settings."""
    guild = await core.store.place_settings(f"guild:{P.GUILD_ID}")
    count = len(await core.store.games())
    if gid is None:
        return count, json.dumps(guild)
    row = await core.store.game(gid)
    assert row is not None
    seats = json.loads(row.settings).get("seats")
    return (count, json.dumps(guild), row.status, row.branch, json.dumps(seats),
            len(await core.store.actions(gid, row.branch)), len(await core.store.modlog(gid)),
            len(await core.store.branches(gid)))


@pytest.mark.parametrize("c", CASES, ids=lambda c: f"{c.name} {c.sub or ''}".strip())
async def test_only_the_right_members_change_anything(fake, store, c: Case):
    core = make_core(store, limits=Limits(invites_per_member=100))
    running = await start_bot(fake, core)
    fake.channels[str(OTHER_CHANNEL)] = P.text_channel(OTHER_CHANNEL, OTHER_GUILD, "elsewhere")
    try:
        t = Table(fake, running.client)
        wrong = []
        for actor in ACTORS:
            gid, thread, parts = await prepare(core, c.state)
            named = gid is not None and c.sub not in ("new", "list") and c.name not in ("help", "resolve")
            options = dict(c.options) | ({"game": str(gid)} if named else {})
            where = (str(OTHER_CHANNEL) if actor.startswith("foreign") else str(P.CHANNEL_ID) if actor == "outsider"
                     else thread)
            before = await fingerprint(core, gid)
            sent = await slash(t, parts[actor], where, c, options)
            changed = await fingerprint(core, gid) != before
            if changed != (actor in c.allowed):
                wrong.append((actor, changed, [s.content[:80] for s in sent if s.ephemeral]))
            if not changed:
                assert any(s.ephemeral for s in sent), (actor, "no private answer")
        assert wrong == []
    finally:
        await running.stop()


async def slash(t: Table, who: str, where: str, c: Case, options: dict) -> list:
    roles = {"7000": P.role(7000, "referees")} if any(v == ("role", 7000) for v in options.values()) else None
    m = FOREIGN.get(who) or MEMBERS[who]
    users = {str(v[1]): P.member(int(v[1]), f"user{v[1]}") for v in options.values()
             if isinstance(v, tuple) and v[0] == "user"}
    guild = OTHER_GUILD if who in FOREIGN else P.GUILD_ID
    payload = P.slash(m.payload(), t.channel(where), c.name, options, sub=c.sub, users=users or None, roles=roles,
                      guild_id=guild)
    return await t.fake.interact(payload, t.client)


async def test_two_mod_configs_at_once_keep_both_settings(core):
    """Two members with Manage Server set the moderator role and the alerts channel at the same instant:
    each reads the server's settings, then writes them; the second write must not put back what the
    first replaced (one setting silently lost)."""
    import asyncio
    from types import SimpleNamespace

    from bot.discord.commands import configure
    from bot.discord.convert import ALERTS_KEY, MOD_ROLE_KEY, guild_key

    said: list[str] = []

    async def respond(interaction, content):  # noqa: ANN001, ANN202
        said.append(content)

    hive = SimpleNamespace(core=core, delivery=SimpleNamespace(respond=respond))

    def interaction():  # noqa: ANN202
        return SimpleNamespace(guild_id=1000, client=SimpleNamespace(hive=hive),
                               permissions=SimpleNamespace(manage_guild=True, administrator=False))

    await asyncio.gather(configure(interaction(), SimpleNamespace(id=5), None),
                         configure(interaction(), None, SimpleNamespace(id=6)))
    settings = await core.store.place_settings(guild_key(1000))
    assert (settings.get(MOD_ROLE_KEY), settings.get(ALERTS_KEY)) == ("5", "6"), (settings, said)


async def test_mod_config_clears_the_role_or_the_alerts_channel(core):
    """A moderator role or alerts channel set by mistake could only be replaced, never taken back."""
    from types import SimpleNamespace

    from bot.discord.commands import configure
    from bot.discord.convert import ALERTS_KEY, MOD_ROLE_KEY, guild_key

    said: list[str] = []

    async def respond(interaction, content):  # noqa: ANN001, ANN202
        said.append(content)

    hive = SimpleNamespace(core=core, delivery=SimpleNamespace(respond=respond))
    it = SimpleNamespace(guild_id=1000, client=SimpleNamespace(hive=hive),
                         permissions=SimpleNamespace(manage_guild=True, administrator=False))

    async def settings():  # noqa: ANN202
        s = await core.store.place_settings(guild_key(1000))
        return s.get(MOD_ROLE_KEY), s.get(ALERTS_KEY)

    await configure(it, SimpleNamespace(id=5), SimpleNamespace(id=6))
    assert await settings() == ("5", "6")
    await configure(it, SimpleNamespace(id=7), None, "role")
    assert await settings() == ("5", "6") and "nothing was changed" in said[-1]
    await configure(it, None, None, "role")
    assert await settings() == (None, "6") and said[-1].startswith("Moderator role: none")
    await configure(it, SimpleNamespace(id=8), None, "alerts")
    assert await settings() == ("8", None) and "Alerts channel: none" in said[-1]
    await configure(it, None, None, "both")
    assert await settings() == (None, None)
