"""The /game, /resolve and /mod commands. Each converts its options, calls the core, replies."""

from __future__ import annotations

import shlex
from typing import Literal

import discord
from discord import app_commands

from bot.discord import autocomplete as ac
from bot.discord.convert import ALERTS_KEY, MOD_ROLE_KEY, args_of, guild_key
from bot.discord.dynamic import Option, make_command
from bot.discord.forms import AssaultForm
from bot.discord.hive import hive_of
from engine.core import registry

GAME_ID = "a game number (the game in this thread if left out)"


WORDS_HELP = {
    "options": ("combat:dice", "/game options game:NAME lists a game's options"),
    "details": ("unit:B7", "/mod edit with an unknown op lists the operations and what they take"),
}
"""For each field of name:value words: an example, and where its names are listed."""


def extra_options(text: str | None, field: str = "options", example: str = "") -> dict[str, str]:
    """``"combat:dice turn_limit:30"`` -> ``{"combat": "dice", "turn_limit": "30"}``; a word without
    ``:``, or a quote left open, is refused (``field`` names the option in the refusal, with an
    example of its own: ``example``, else ``WORDS_HELP``'s)."""
    out: dict[str, str] = {}
    try:
        words = shlex.split(text or "")
    except ValueError:  # a quote left open, or a trailing backslash
        raise app_commands.AppCommandError(
            f"{field}: a quote is left open; write a value with spaces in double quotes, "
            'for example name:"two words", or leave the quotes out') from None
    for word in words:
        if ":" not in word:
            shown, where = WORDS_HELP.get(field, ("name:value", ""))
            raise app_commands.AppCommandError(
                f"{field} are written name:value, for example {example or shown} (not '{word}')"
                + (f"; {where}" if where else ""))
        k, v = word.split(":", 1)
        out[k.strip().lower()] = v.strip()
    return out


def game_only(group: app_commands.Group, name: str, description: str) -> None:
    """``/<group> <name> [game]``: a command whose only argument is which game."""

    @group.command(name=name, description=description)
    @app_commands.describe(game=GAME_ID)
    @app_commands.autocomplete(game=ac.game_ids)
    async def cb(interaction: discord.Interaction, game: str | None = None) -> None:
        await hive_of(interaction).run(interaction, f"{group.name} {name}", args_of(game=game))


def build_game() -> app_commands.Group:
    """The /game group."""
    game = app_commands.Group(name="game", description="Challenge, follow and leave hex wargames")

    @game.command(name="new", description="Challenge a member to a game (its thread opens here)")
    @app_commands.describe(game="which game", opponent="who you challenge", scenario="the scenario",
                           seat="the side you play", clock="time per decision: 72h, 3d or none",
                           on_timeout="what happens when the clock runs out",
                           options="game options as name:value words", seed="fixed dice seed (moderators only)",
                           level="when the opponent is hexhive itself: how strongly it plays",
                           hints="on: /game hint suggests orders (a teaching game)")
    @app_commands.autocomplete(game=ac.game_names, scenario=ac.scenarios, seat=ac.seats, options=ac.option_words,
                               clock=ac.clocks)
    async def new(interaction: discord.Interaction, game: str, opponent: discord.User,
                  scenario: str | None = None, seat: str | None = None, clock: str | None = None,
                  on_timeout: Literal["nothing", "default", "forfeit"] | None = None,
                  options: str | None = None, seed: str | None = None,
                  level: Literal["easy", "normal", "hard"] | None = None,
                  hints: Literal["on", "off"] | None = None) -> None:
        if (await refuse_outside_servers(interaction) or await refuse_unfit_channel(interaction)
                or await refuse_other_bots(interaction, opponent)):
            return
        hive_of(interaction).remember(opponent)
        args = args_of(game=game, opponent=opponent, opponent_name=opponent.display_name, scenario=scenario,
                       seat=seat, clock=clock, on_timeout=on_timeout, seed=seed, level=level, hints=hints)
        await hive_of(interaction).run(interaction, "game new", extra_options(options) | args)

    def simple(name: str, description: str) -> None:
        game_only(game, name, description)

    simple("accept", "Accept a challenge")
    simple("decline", "Decline a challenge (or withdraw your own)")

    @game.command(name="board", description="The current board, privately")
    @app_commands.describe(game=GAME_ID, view="focus: the action, legible in the chat; full: the whole map",
                           around="frame the focus view on this hex (like 0507)",
                           zoc="Chitin: I: hatch the hexes in an enemy zone of control of the side to move")
    @app_commands.autocomplete(game=ac.game_ids)
    async def board(interaction: discord.Interaction, game: str | None = None,
                    view: Literal["focus", "full", "both"] | None = None, around: str | None = None,
                    zoc: Literal["on", "off"] | None = None) -> None:
        await hive_of(interaction).run(interaction, "game board",
                                       args_of(game=game, view=view, around=around, zoc=zoc))
    simple("status", "Turn, phase and whose decision it is")
    simple("hint", "Privately, a suggested order for you (games started with hints:on)")
    simple("resign", "Give the game up")
    simple("export", "The game record as a JSON file")
    simple("replay", "An animated replay of the game so far, posted in its thread")

    @game.command(name="help", description="What you can do now in the game, with examples")
    @app_commands.describe(game=GAME_ID, all="list every order of the game instead")
    @app_commands.autocomplete(game=ac.game_ids)
    async def help_(interaction: discord.Interaction, game: str | None = None, all: bool | None = None) -> None:
        await hive_of(interaction).run(interaction, "game help", args_of(game=game, all="yes" if all else None))

    @game.command(name="moves", description="One unit's legal orders now")
    @app_commands.describe(unit="the unit's id, e.g. R3", board="also show the hexes it can reach on the board",
                           game=GAME_ID)
    @app_commands.autocomplete(game=ac.game_ids)
    async def moves(interaction: discord.Interaction, unit: str, board: bool | None = None,
                    game: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "game moves",
                                       args_of(unit=unit, board="yes" if board else None, game=game))

    @game.command(name="options", description="The games, or one game's scenarios, seats and options")
    @app_commands.describe(game="which game (all of them if left out)")
    @app_commands.autocomplete(game=ac.game_names)
    async def options_(interaction: discord.Interaction, game: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "game options", args_of(game=game))

    @game.command(name="log", description="What happened so far, as you may see it")
    @app_commands.describe(game=GAME_ID, last="how many lines (1-500)")
    @app_commands.autocomplete(game=ac.game_ids)
    async def log(interaction: discord.Interaction, game: str | None = None,
                  last: app_commands.Range[int, 1, 500] | None = None) -> None:
        await hive_of(interaction).run(interaction, "game log", args_of(game=game, last=last))

    @game.command(name="list", description="The games in this channel, and yours")
    async def list_(interaction: discord.Interaction) -> None:
        await hive_of(interaction).run(interaction, "game list", {})

    return game


def build_help() -> app_commands.Command:
    """/help: the commands, or what the game here waits for."""

    @app_commands.command(name="help", description="How to play here: the commands, or what this game waits for")
    async def help_(interaction: discord.Interaction) -> None:
        await hive_of(interaction).run(interaction, "help", {})

    return help_


def build_undo() -> app_commands.Command:
    """/undo: take back your own last order of this phase (bot/undo.py)."""

    @app_commands.command(name="undo", description="Take back your own last order of this phase")
    @app_commands.describe(game=GAME_ID)
    @app_commands.autocomplete(game=ac.game_ids)
    async def undo_(interaction: discord.Interaction, game: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "undo", args_of(game=game))

    return undo_


RESOLVERS = {"dice": "A step-reduction (bucket of dice) combat", "assault": "A close assault"}


def build_resolve() -> app_commands.Group:
    """The /resolve group: stand-alone combats between two members, one option for each of theirs."""
    resolve = app_commands.Group(name="resolve", description="Stand-alone combat resolution between two members")
    for name, description in RESOLVERS.items():
        if name in registry.names():
            resolve.add_command(resolver(name, description))
    return resolve


def resolver(name: str, description: str) -> app_commands.Command:
    """``/resolve NAME``: the opponent, then the resolver's own options, then any others as words."""
    rules = registry.get(name)
    options = [Option("opponent", "the other side", True, kind=discord.User)]
    options += [Option(k, h) for k, h in list(rules.options_help.items())[:21]]
    options += [Option("scenario", "the situation to resolve", autocomplete=ac.scenarios_of(name)),
                Option("options", "more options as name:value words")]

    async def handler(interaction: discord.Interaction, args: dict[str, str]) -> None:
        if await refuse_outside_servers(interaction) or await refuse_unfit_channel(interaction):
            return
        extra = extra_options(args.pop("options", None),
                              example="attack:8 defence:4,4" if name == "dice" else "trapped:Marine")
        opponent = getattr(interaction.namespace, "opponent", None)
        if isinstance(opponent, discord.abc.User):
            if await refuse_other_bots(interaction, opponent):
                return
            hive_of(interaction).remember(opponent)
            args["opponent_name"] = opponent.display_name
        args = extra | args
        if name == "assault" and not (args.get("attackers") and args.get("defenders")):
            # The figures are asked for in a form, one a line, rather than as one long option.
            async def start(i: discord.Interaction, filled: dict[str, str]) -> None:
                await hive_of(i).run(i, "resolve assault", filled)

            await interaction.response.send_modal(AssaultForm(args, start))
            return
        await hive_of(interaction).run(interaction, f"resolve {name}", args)

    return make_command(name, description, options, handler)


def build_mod() -> app_commands.Group:
    """The /mod group; the core refuses members who are not moderators."""
    mod = app_commands.Group(name="mod", description="Moderators: pause, roll back, replace, end games",
                             guild_only=True)

    def plain(name: str, description: str) -> None:
        @mod.command(name=name, description=description)
        @app_commands.describe(game=GAME_ID, reason="why (shown to the players)")
        @app_commands.autocomplete(game=ac.game_ids)
        async def cb(interaction: discord.Interaction, game: str | None = None, reason: str | None = None) -> None:
            await hive_of(interaction).run(interaction, f"mod {name}", args_of(game=game, reason=reason))

    def lookup(name: str, description: str) -> None:
        game_only(mod, name, description)

    plain("pause", "Stop a game: no orders, clock stopped")
    plain("resume", "Let a paused game go on")
    lookup("branches", "The game's branches (kept by rollbacks)")
    lookup("log", "The game's moderation log")

    @mod.command(name="rollback", description="Move a game back to just after an action (nothing is deleted)")
    @app_commands.describe(to="the action number to go back to (0: the start)", game=GAME_ID, reason="why",
                           confirm="yes: roll back between sealed choices revealed together (needs a reason)")
    @app_commands.autocomplete(game=ac.game_ids)
    async def rollback(interaction: discord.Interaction, to: app_commands.Range[int, 0, 1_000_000],
                       game: str | None = None, reason: str | None = None,
                       confirm: Literal["yes"] | None = None) -> None:
        await hive_of(interaction).run(interaction, "mod rollback",
                                       args_of(to=to, game=game, reason=reason, confirm=confirm))

    @mod.command(name="restore", description="Put a game back on an earlier branch")
    @app_commands.describe(branch="the branch number (/mod branches)", game=GAME_ID, reason="why")
    @app_commands.autocomplete(game=ac.game_ids)
    async def restore(interaction: discord.Interaction, branch: app_commands.Range[int, 1, 1_000_000],
                      game: str | None = None, reason: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "mod restore", args_of(branch=branch, game=game, reason=reason))

    @mod.command(name="replace", description="Give a seat to another member")
    @app_commands.describe(seat="the seat", user="who takes it (hexhive itself: the bot plays it)", game=GAME_ID,
                           reason="why", level="when the seat goes to hexhive: how strongly it plays")
    @app_commands.autocomplete(game=ac.game_ids)
    async def replace(interaction: discord.Interaction, seat: str, user: discord.User, game: str | None = None,
                      reason: str | None = None, level: Literal["easy", "normal", "hard"] | None = None) -> None:
        if await refuse_other_bots(interaction, user):
            return
        await hive_of(interaction).run(interaction, "mod replace",
                                       args_of(seat=seat, user=user, user_name=user.display_name, game=game,
                                               reason=reason, level=level))

    @mod.command(name="edit", description="Correct the position: place, remove or change a unit")
    @app_commands.describe(op="what to do (the game's edit operations)", reason="why (shown to the players)",
                           details="the unit, hex and values as name:value words, e.g. unit:B7 to:0507",
                           game=GAME_ID)
    @app_commands.autocomplete(game=ac.game_ids)
    async def edit(interaction: discord.Interaction, op: str, reason: str, details: str | None = None,
                   game: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "mod edit",
                                       extra_options(details, "details") | args_of(op=op, reason=reason, game=game))

    @mod.command(name="end", description="End a game with a result")
    @app_commands.describe(winner="a seat, or draw", game=GAME_ID, reason="why")
    @app_commands.autocomplete(game=ac.game_ids)
    async def end(interaction: discord.Interaction, winner: str, game: str | None = None,
                  reason: str | None = None) -> None:
        await hive_of(interaction).run(interaction, "mod end", args_of(winner=winner, game=game, reason=reason))

    @mod.command(name="config", description="Set the moderator role and the alerts channel (Manage Server only)")
    @app_commands.describe(role="members with this role may use /mod",
                           alerts="where clock alerts for moderators are posted",
                           clear="take back the role, the alerts channel or both")
    async def config(interaction: discord.Interaction, role: discord.Role | None = None,
                     alerts: discord.TextChannel | None = None,
                     clear: Literal["role", "alerts", "both"] | None = None) -> None:
        await configure(interaction, role, alerts, clear)

    return mod


async def refuse_outside_servers(interaction: discord.Interaction) -> bool:
    """Games are played in a server's threads: say so privately when asked in a direct message."""
    if interaction.guild_id is not None:
        return False
    await hive_of(interaction).delivery.respond(
        interaction, content="Sorry, games start in a server channel (each game gets its own thread there), "
        "not in direct messages.")
    return True


async def refuse_other_bots(interaction: discord.Interaction, user: discord.abc.User) -> bool:
    """Another bot's account cannot take a seat (a challenge to it would wait on an accept that never
    comes; a seat given to it would never be played): say so privately. hexhive itself is the bot
    opponent and may."""
    if not user.bot or str(user.id) == hive_of(interaction).core.opponent.user_id:
        return False
    name = discord.utils.escape_markdown(user.display_name)
    await hive_of(interaction).delivery.respond(
        interaction, content=f"Sorry, {name} is a bot account, and only members take a seat, or hexhive "
        "itself (the bot opponent). Nothing was changed.")
    return True


GAME_PERMISSIONS = {
    "view_channel": "View Channel", "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads", "create_public_threads": "Create Public Threads",
    "attach_files": "Attach Files", "embed_links": "Embed Links",
}
"""What the bot needs in a channel to open a game's thread there and play in it (docs/discord-setup.md)."""
UNFIT_CHANNELS = {
    discord.ChannelType.news: "an announcement channel",
    discord.ChannelType.news_thread: "an announcement channel's thread",
    discord.ChannelType.private_thread: "a private thread (each game gets its own public thread)",
    discord.ChannelType.voice: "a voice channel's chat",
    discord.ChannelType.stage_voice: "a stage channel's chat",
    discord.ChannelType.forum: "a forum",
    discord.ChannelType.media: "a media channel",
}


def unfit_channel(interaction: discord.Interaction) -> str | None:
    """Why no game can start where this interaction came from, in one line; None when one can."""
    kind = getattr(interaction.channel, "type", None)
    if isinstance(kind, discord.ChannelType) and kind in UNFIT_CHANNELS:
        return (f"Sorry, games cannot start in {UNFIT_CHANNELS[kind]}: start it in a text channel "
                "(or a public thread of one), where the game gets its own thread.")
    parent = getattr(interaction.channel, "parent", None)
    if kind is discord.ChannelType.public_thread and isinstance(parent, discord.ForumChannel):
        return ("Sorry, games cannot start in a forum post: start it in a text channel, where the game gets "
                "its own thread.")
    perms = interaction.app_permissions
    missing = [label for name, label in GAME_PERMISSIONS.items() if not getattr(perms, name)]
    if missing:
        return (f"Sorry, I cannot start a game here: I am missing the {', '.join(missing)} permission"
                f"{'s' if len(missing) > 1 else ''} in this channel; a server manager can grant "
                f"{'them' if len(missing) > 1 else 'it'} (docs/discord-setup.md).")
    return None


async def refuse_unfit_channel(interaction: discord.Interaction) -> bool:
    """Before a game is created: refuse, in one private line, where the bot could not open or play its thread."""
    reason = unfit_channel(interaction)
    if reason is None:
        return False
    await hive_of(interaction).delivery.respond(interaction, content=reason)
    return True


async def configure(interaction: discord.Interaction, role: discord.Role | None,
                    alerts: discord.TextChannel | None, clear: str | None = None) -> None:
    """Store the server's moderator role and alerts channel, or ``clear`` them (``role``, ``alerts``
    or ``both``); only members with Manage Server (or Administrator) may, or see them."""
    hive = hive_of(interaction)
    if interaction.guild_id is None or not (interaction.permissions.manage_guild or interaction.permissions.administrator):
        await hive.delivery.respond(interaction, content="Sorry, only members with Manage Server may set the "
                                    "moderator role or the alerts channel.")
        return
    dropped = {"role": (MOD_ROLE_KEY,), "alerts": (ALERTS_KEY,), "both": (MOD_ROLE_KEY, ALERTS_KEY)}.get(clear or "", ())
    if (role is not None and MOD_ROLE_KEY in dropped) or (alerts is not None and ALERTS_KEY in dropped):
        await hive.delivery.respond(interaction, content="Sorry, a setting is either set or cleared, not both at "
                                    "once; nothing was changed.")
        return
    store = hive.core.store
    key = guild_key(interaction.guild_id)
    async with store.transaction():  # read and written together: two at once each keep the other's setting
        settings = await store.place_settings(key)
        if role is not None:
            settings[MOD_ROLE_KEY] = str(role.id)
        if alerts is not None:
            settings[ALERTS_KEY] = str(alerts.id)
        for k in dropped:
            settings.pop(k, None)
        if role is not None or alerts is not None or dropped:
            await store.set_place_settings(key, settings)
    role_text = f"<@&{settings[MOD_ROLE_KEY]}>" if MOD_ROLE_KEY in settings else "none (Manage Server only)"
    alerts_text = f"<#{settings[ALERTS_KEY]}>" if ALERTS_KEY in settings else "none (alerts go to the game's thread)"
    await hive.delivery.respond(interaction, content=f"Moderator role: {role_text}. Alerts channel: {alerts_text}.")
