"""Lifecycle commands: new game, accept, decline, board, log, resign, list, status, export, help."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import TYPE_CHECKING

from bot import confirm, phaselog, words
from bot.answers import Refusal, private
from bot.live import Live, config_of, full_replay, load_live, name_in
from bot.parsing import escape_markdown
from bot.records import DiceKey, GameRecord, HintEntry, LoggedAction, ModerationEntry, dumps
from bot.replies import Button, Command, Reply
from bot.store import GameRow
from engine.core import registry
from engine.core.dice import Roll, SeededDice, seed_hash
from engine.core.errors import RuleError
from engine.core.protocol import Action, Event, GameConfig, GameRules, Player

if TYPE_CHECKING:
    from bot.core import Core

Handler = Callable[["Core", Command], Awaitable[list[Reply]]]
HANDLERS: dict[str, Handler] = {}

NEW_GAME_KEYS = {"game", "opponent", "opponent_name", "scenario", "seat", "seed", "clock", "on_timeout", "level",
                 "hints"}


def command(name: str) -> Callable[[Handler], Handler]:
    def wrap(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return wrap


def _refuse(text: str) -> Exception:
    return Refusal(text)


# --- help ----------------------------------------------------------------------------------------

GENERAL_HELP = """\
hexhive runs two-player hex-and-counter games. Commands:
  /game new game:NAME opponent:USER [scenario:S] [seat:SEAT] [option:value ...]   challenge someone
  /game new game:NAME opponent:bot [level:easy|normal|hard] [hints:on]   play hexhive itself (Discord: opponent:@hexhive)
  /game accept | /game decline          answer a challenge
  /game board                           the current board, privately
  /game status                          whose decision, turn and phase
  /game log [last:N]                    what happened so far
  /game list                            games in this place
  /game resign                          give the game up
  /game export                          the game record as JSON
  /game replay                          an animated replay of the game so far
  /game help [all:yes]                  what you can do now, with examples (all:yes: every order)
  /game moves unit:ID                   one unit's legal orders now
  /game hint                            privately, a suggested order (games with hints:on)
  /game options [game:NAME]             the games; a game's scenarios, seats and options
  /undo                                 take back your own last order of this phase
  /resolve dice opponent:USER ...       a stand-alone step-reduction combat
  /resolve assault opponent:USER ...    a stand-alone close assault
  /mod pause|resume|rollback|branches|restore|replace|end|log|edit   moderators only (on Discord, /mod config too)
Games: {games}. In a game, its own orders (/move, ...) are listed by /game help."""


@command("help")
@command("game help")
async def help_command(core: Core, cmd: Command) -> list[Reply]:
    """General help, or what the current game is waiting on: ``/game help`` finds the game as
    every game command does (this thread's, else the asker's only one); ``/help`` outside a game's
    thread is the command list, naming the asker's games."""
    from bot import helpdesk

    if cmd.name == "help" and "game" not in cmd.args and cmd.place not in core.places:
        text = GENERAL_HELP.format(games=", ".join(registry.names()))
        mine = sorted(g.id for g in core.live.values()
                      if cmd.user in g.seats.values() and g.row.status in ("active", "paused"))
        if mine:
            text += (f"\nYour game{'s' if len(mine) > 1 else ''}: {', '.join(f'#{gid}' for gid in mine)}; "
                     f"/game help game:{mine[0]} (or /help in its thread) says what it waits on.")
        return [private(cmd.user, cmd.place, text)]
    try:
        g = core.find_game(cmd)
    except Refusal:
        text = GENERAL_HELP.format(games=", ".join(registry.names()))
        gid, ended = core.places.get(cmd.place, (0, ""))
        if ended == "over" and "game" not in cmd.args:
            text = (f"Game #{gid}, the game of this thread, is over; /game status, /game log, /game board, "
                    f"/game export and /game replay still read it.\n\n{text}")
        return [private(cmd.user, cmd.place, text)]
    if cmd.args.get("all", "").strip().casefold() in words.YES_WORDS:
        return [private(cmd.user, cmd.place, helpdesk.all_orders(g.rules, g.config))]
    return [private(cmd.user, cmd.place, helpdesk.game_help(g, cmd.user))]


# --- new game, accept, decline -----------------------------------------------------------------------


@command("game new")
async def new_game(core: Core, cmd: Command) -> list[Reply]:
    """Challenge a member to a game; the game's thread is opened and the opponent invited."""
    from bot import helpdesk

    name = words.game_name(cmd.args.get("game", ""))
    if not name:  # the games, and how to see their options
        return [private(cmd.user, cmd.place, helpdesk.games_list())]
    if cmd.args.get("options", "").strip().casefold() == "help":
        return [private(cmd.user, cmd.place, helpdesk.options_text(registry.get(name)))]
    return await _create(core, cmd, name, {k: v for k, v in cmd.args.items() if k != "game"}) or [
        private(cmd.user, cmd.place, "Nothing was created.")
    ]


@command("resolve dice")
async def resolve_dice(core: Core, cmd: Command) -> list[Reply]:
    """A stand-alone step-reduction combat between two members."""
    return await _create(core, cmd, "dice", dict(cmd.args))


@command("resolve assault")
async def resolve_assault(core: Core, cmd: Command) -> list[Reply]:
    """A stand-alone close assault between two members."""
    return await _create(core, cmd, "assault", dict(cmd.args))


async def _create(core: Core, cmd: Command, game: str, args: dict[str, str]) -> list[Reply]:
    rules = registry.get(game)
    if "options" in args:  # a free-text field of name:value words (Discord), merged under explicit ones
        args = option_words(args["options"], rules) | {k: v for k, v in args.items() if k != "options"}
    opponent = args.get("opponent", "").strip()
    if not opponent:
        raise _refuse(f"name your opponent: /game new game:{game} opponent:USER")
    if opponent == cmd.user:
        raise _refuse("you cannot challenge yourself; name another member as opponent")
    against_bot = core.opponent.is_bot(opponent)
    if against_bot:
        opponent = core.opponent.user_id
    scenario = words.choice(args.get("scenario", rules.scenarios[0] if rules.scenarios else ""), rules.scenarios)
    if rules.scenarios and scenario not in rules.scenarios:
        raise _refuse(f"{rules.title} has no scenario '{scenario}'; choose one of: {', '.join(rules.scenarios)}")
    seat = args.get("seat", rules.seats[0])
    seat = next((s for s in rules.seats if s.casefold() == seat.casefold()), seat)
    if seat not in rules.seats:
        raise _refuse(f"{rules.title} has no seat '{seat}'; choose one of: {', '.join(rules.seats)}")
    other = next(s for s in rules.seats if s != seat)
    seed_arg = args.get("seed")
    if seed_arg is not None and not cmd.is_moderator and cmd.community != "console":
        raise _refuse("only a moderator (or the local console) may fix the dice seed")
    options = {k: v for k, v in args.items() if k not in NEW_GAME_KEYS}
    clock = args.get("clock", "72h")
    hours = _parse_clock(clock)
    on_timeout = args.get("on_timeout", "nothing")
    if on_timeout not in ("nothing", "default", "forfeit"):
        raise _refuse("on_timeout must be nothing, default or forfeit")
    opponent_name = escape_markdown(args.get("opponent_name", "").strip() or opponent, NAME_LIMIT)
    players = (Player(seat=seat, name=escape_markdown(cmd.display or cmd.user, NAME_LIMIT)),
               Player(seat=other, name=opponent_name))
    config = GameConfig(game=game, scenario=scenario, options=options, players=players)
    try:
        rules.setup(config, SeededDice("check", 0))  # validates scenario and options before anyone accepts
        rules.check_new(config)
    except RuleError as exc:
        raise _refuse(str(exc)) from None
    except (ValueError, TypeError) as exc:
        raise _refuse(f"the options were not understood: {exc}") from None
    from bot.opponent import BOT_NAME, new_game_settings

    bot_settings = new_game_settings(core, cmd, args, other if against_bot else None)
    if against_bot:
        level = bot_settings["bots"][other]
        opponent_name = f"{BOT_NAME} ({level})"
        players = (players[0], Player(seat=other, name=opponent_name))
        config = GameConfig(game=game, scenario=scenario, options=options, players=players)
    # From the limits' check to the game's row, one challenge of a member (and of a community) at a time:
    # the thread's creation is a call to Discord in between, and two at once both saw room for one more.
    async with _creating(core, cmd):
        if against_bot:
            await _check_bot_game_limits(core, cmd)
        else:
            await _check_invitation_limits(core, cmd)
        seed = seed_arg if seed_arg is not None else core.new_seed()
        place = await core.open_thread(cmd.place, f"{rules.title}: {players[0].name} vs {opponent_name}")
        settings = {"seats": {seat: cmd.user, other: opponent}, "clock_hours": hours, "on_timeout": on_timeout}
        settings |= bot_settings
        now = core.now()
        from bot.live import load_live

        async with core.store.transaction():
            gid = await core.store.insert_game(
                place=place, parent=cmd.place, game=game, config=config.model_dump_json(), status="invited",
                seed=seed, seed_public=seed_arg is not None, setup_rolls="[]", settings=json.dumps(settings),
                created_by=cmd.user, now=now, community=cmd.community,
                # a posted seed cannot key the bot's draws: anyone could foretell its sealed choices
                bot_key=core.new_bot_key() if seed_arg is not None else "",
            )
            row = await core.store.game(gid)
            assert row is not None
            g = await load_live(core.store, row)
            if against_bot:  # the bot accepts at once: no invitation, the game begins
                replies = await begin(core, g, cmd)
            else:
                dice_note = (f"dice seed `{escape_markdown(seed, 64)}`, fixed and public" if seed_arg is not None else
                             f"dice: SHA-256 of the secret seed `{seed_hash(seed)}`, published now so no roll can be "
                             "changed later; the seed itself is published at the end")
                text = (f"<@{opponent}>, {players[0].name} challenges you to {rules.title} (game #{gid}, scenario "
                        f"{scenario or 'standard'}, you play {other}; {terms_text(g)}; {dice_note}). "
                        f"Answer with /game accept or /game decline within {core.limits.invite_days} days.")
                replies = [Reply(to="channel", place=place, text=text, game_id=gid, seq=0, mentions=[opponent],
                                 buttons=[Button(label="Accept", command=f"/game accept game:{gid}"),
                                          Button(label="Decline", command=f"/game decline game:{gid}",
                                                 style="danger")])]
                replies = await core.queue(gid, replies)
        # in memory once written: a failed commit leaves no game without a row in play
        core.live[gid] = g
        core.placed(g)
        return replies


NAME_LIMIT = 40
"""Characters of a display name echoed in a thread."""


@asynccontextmanager
async def _creating(core: Core, cmd: Command) -> AsyncIterator[None]:
    """The locks of a member's and their community's challenges, taken in a fixed order."""
    keys = [f"member:{cmd.user}"] + ([f"community:{cmd.community}"] if cmd.community else [])
    async with core.creating.hold(*keys):
        yield


async def _check_invitation_limits(core: Core, cmd: Command) -> None:
    """Settings ``max_invites_per_member`` and ``max_invites_per_community``: no member floods a server."""
    mine = await core.store.games("status = 'invited' AND created_by = ?", (cmd.user,))
    if len(mine) >= core.limits.invites_per_member:
        ids = ", ".join(f"#{r.id}" for r in mine)
        raise _refuse(f"you already have {len(mine)} open invitations ({ids}), the most one member may have; "
                      "withdraw one with /game decline game:N, or wait for an answer")
    if cmd.community:
        here = await core.store.games("status = 'invited' AND community = ?", (cmd.community,))
        if len(here) >= core.limits.invites_per_community:
            raise _refuse(f"this server already has {len(here)} open invitations, the most it may have; "
                          "try again once some are answered or expire")


BOT_GAMES_IN_PLAY = "status IN ('active', 'paused') AND json_extract(settings, '$.bots') IS NOT NULL"


async def _check_bot_game_limits(core: Core, cmd: Command) -> None:
    """Settings ``max_bot_games_per_member`` and ``max_bot_games_per_community``: a game against the bot
    has no invitation to count, and every bot decision shares one worker."""
    # the games the member plays in, not those they started (a moderator may have handed a seat over)
    mine = await core.store.games(BOT_GAMES_IN_PLAY + " AND EXISTS (SELECT 1 FROM json_each(games.settings, "
                                  "'$.seats') AS seat WHERE seat.value = ?)", (cmd.user,))
    if len(mine) >= core.limits.bot_games_per_member:
        ids = ", ".join(f"#{r.id}" for r in mine)
        games = "game" if len(mine) == 1 else "games"
        raise _refuse(f"you already have {len(mine)} {games} against the bot in play ({ids}), the most one member "
                      "may have; finish or resign one first")
    if cmd.community:
        await check_bot_games_of_community(core, cmd.community)


@asynccontextmanager
async def new_bot_game(core: Core, community: str, counted: bool) -> AsyncIterator[None]:
    """A moderator's change that makes a game in play against the bot (``counted``): under the community's
    lock of ``core.creating``, refused past the server's limit, as ``/game new ... opponent:bot`` is (the one
    worker every server's bot decisions share). Not ``counted``: nothing is taken or checked."""
    async with core.creating.hold(*([f"community:{community}"] if counted and community else [])):
        if counted and community:
            await check_bot_games_of_community(core, community)
        yield


async def check_bot_games_of_community(core: Core, community: str) -> None:
    """Setting ``max_bot_games_per_community``, for a new game against the bot or a seat handed to it (the
    caller holds the community's lock of ``core.creating``)."""
    here = await core.store.games(BOT_GAMES_IN_PLAY + " AND community = ?", (community,))
    if len(here) >= core.limits.bot_games_per_community:
        games = "game" if len(here) == 1 else "games"
        raise _refuse(f"this server already has {len(here)} {games} against the bot in play, the most it may have; "
                      "try again once some have ended")


async def expire_invitations(core: Core) -> list[Reply]:
    """Invitations older than the setting ``invite_days`` are declined automatically."""
    cutoff = (core.clock() - timedelta(days=core.limits.invite_days)).isoformat(timespec="seconds")
    out: list[Reply] = []
    for row in await core.store.games("status = 'invited' AND created_at < ?", (cutoff,)):
        async with core.lock_of(row.id):
            g = core.live.get(row.id)
            if g is None or g.row.status != "invited":
                continue
            out += await close_invitation(core, g, f"Game #{g.id} expired: the invitation was not answered within "
                                                   f"{core.limits.invite_days} days, so it is declined.")
    return out


def option_words(text: str, rules: GameRules) -> dict[str, str]:
    """``'hidden_charges:on god_lives:2'`` -> ``{'hidden_charges': 'on', 'god_lives': '2'}``; a word without
    its value is refused with the values that option takes, or the game's options if it is none of them."""
    import shlex

    from bot.parsing import ParseError, parse_command

    try:
        split = shlex.split(text)
    except ValueError:
        split = []  # unbalanced quotes: parse_command says so
    bare = next((w for w in split if ":" not in w), None)
    before = split[split.index(bare) - 1] if bare is not None and split.index(bare) > 0 else ""
    if bare is not None and before.endswith(":"):  # god_lives: 2
        name = before[:-1].lower()
        name = name if name in rules.options_help else escape_markdown(name, 40)
        raise _refuse(f"options: write {name}:{escape_markdown(bare, 20)} with no space after the colon")
    if bare is not None:
        known = rules.options_help.get(bare.strip().lower())
        if known is not None:
            raise _refuse(f"options: {bare.strip().lower()} needs its value, written "
                          f"{bare.strip().lower()}:VALUE ({known})")
        raise _refuse(f"options: '{escape_markdown(bare, 40)}' is not written name:value; the options of "
                      f"{rules.title} are {', '.join(rules.options_help) or 'none'}, and "
                      f"/game options game:{rules.name} says what each takes")
    try:
        return parse_command("/options " + text)[1]
    except ParseError as exc:
        raise _refuse(f"options: {exc}") from None


def _parse_clock(text: str) -> int | None:
    from bot.parsing import ParseError, parse_int

    t = text.strip().lower()
    if t in ("none", "off", "0"):
        return None
    try:
        if t.endswith("h"):
            return parse_int(t[:-1], "clock", 1, 24 * 30)
        if t.endswith("d"):
            return parse_int(t[:-1], "clock", 1, 30) * 24
    except ParseError:
        pass
    raise _refuse("clock must be like 72h (1 to 720 hours), 3d (1 to 30 days) or none")


@command("game accept")
async def accept(core: Core, cmd: Command) -> list[Reply]:
    """The invited player accepts: the game is set up and begins."""
    try:
        core.find_game(cmd, statuses=("invited",))
    except Exception:
        begun = [x for x in core.live.values() if x.row.place == cmd.place and x.row.status != "invited"]
        if begun:
            raise _refuse(f"game #{begun[0].id} has already begun") from None
        raise
    async with core.locked(cmd, statuses=("invited",)) as g:
        invited = [s for s, u in g.seats.items() if u != g.row.created_by] or list(g.seats)[1:]
        if cmd.user not in (g.user_of(s) for s in invited):
            raise _refuse(f"only the invited player can accept game #{g.id}")
        async with core.changing(g):  # a failed write leaves the game invited in memory too
            return await begin(core, g, cmd)


async def begin(core: Core, g: Live, cmd: Command) -> list[Reply]:
    """Set the game up and start it (accepted, or a game against the bot opponent), inside the
    caller's transaction (under the game's lock, or in the one that created the game)."""
    dice = SeededDice(g.row.seed, 0, "main")
    state = g.rules.setup(g.config, dice)
    now = core.now()
    await core.store.update_game(g.id, now, status="active",
                                 setup_rolls=dumps([r.model_dump() for r in dice.rolls]))
    g.row = (await core.store.game(g.id)) or g.row
    g.state, g.seq = state, 0
    dice_note = (f"Dice seed `{g.row.seed}` (fixed, not secret)" if g.row.seed_public else
                 f"Dice: SHA-256 of the secret seed is `{seed_hash(g.row.seed)}`; the seed is published "
                 f"at the end so anyone can check every roll")
    rolls = ", ".join(f"{r.why or 'die'}: {r.value}" for r in dice.rolls)
    intro = f"Game #{g.id} begins: {g.title}. " + ", ".join(
        f"{g.name_of(s)} plays {s}" for s in g.rules.seats) + f".\n{words.sentence(terms_text(g))}.\n{dice_note}."
    if rolls:
        intro += f"\nSet-up rolls: {rolls}."
    replies = [Reply(to="channel", place=g.row.place, text=intro, game_id=g.id, seq=0,
                     mentions=list(g.seats.values()))]
    replies += phaselog.shape(g, core.board_replies(g, force=True) + core.prompt_replies(g, []), seq=0,
                              actor=cmd.user, place=cmd.place, over=False)
    await phaselog.save(core, g, now)
    await core._save_board_key(g, now)
    return await core.queue(g.id, replies)


@command("game hint")
async def hint(core: Core, cmd: Command) -> list[Reply]:
    """Privately, a suggested order for your seat (games started with hints:on; bot/opponent.py)."""
    return await core.opponent.hint(cmd)


@command("game decline")
async def decline(core: Core, cmd: Command) -> list[Reply]:
    """The invited player (or the challenger, withdrawing) declines."""
    async with core.locked(cmd, statuses=("invited",)) as g:
        if cmd.user not in g.seats.values():
            raise _refuse(f"only the two players can decline game #{g.id}")
        who = "withdrawn by the challenger" if cmd.user == g.row.created_by else "declined"
        return await close_invitation(core, g, f"Game #{g.id} was {who}; nothing more will happen in it.")


async def close_invitation(core: Core, g: Live, text: str) -> list[Reply]:
    """An invitation ends unplayed (declined, withdrawn or expired); call under the game's lock."""
    async with core.store.transaction():
        await core.store.update_game(g.id, core.now(), status="declined")
        replies = await core.queue(g.id, [Reply(to="channel", place=g.row.place, game_id=g.id, text=text)])
    g.row = (await core.store.game(g.id)) or g.row
    core.retire(g)
    return replies


# --- board, status, log, list -----------------------------------------------------------------------------


@command("game board")
async def board(core: Core, cmd: Command) -> list[Reply]:
    """The current board, privately; a player sees their own secrets, anyone else a spectator's view."""
    g = await core.find_any(cmd)
    if g.state is None:
        raise _refuse(f"game #{g.id} has not begun")
    seats = g.seats_of(cmd.user)
    which = cmd.args.get("view", "").strip().lower()
    if which not in ("", "focus", "full", "both"):
        raise _refuse("view must be both (the default: the action, then the whole map), focus (the action, "
                      "legible in the chat) or full (the whole map)")
    around = cmd.args.get("around", "").strip()
    if around:
        game_map = g.rules.view(g.state, None).map
        from engine.core.hexes import parse_ccrr
        from engine.core.maps import load_map

        try:
            known = bool(game_map) and parse_ccrr(around) in load_map(game_map).hexes
        except Exception:
            known = False
        if not known:
            raise _refuse(f"around must be a hex of the map, written like 0507 (not '{around[:8]}')")
    zoc = cmd.args.get("zoc", "").strip().lower()
    if zoc not in ("", "on", "off"):
        raise _refuse(f"zoc must be on or off (not '{zoc[:8]}')")
    if zoc == "on" and g.row.game != "chitin":
        raise _refuse("zoc:on shows Chitin: I's zones of control (rule 6.04); this game has none to show")
    return [Reply(to="private", user=cmd.user, place=cmd.place, game_id=g.id, seq=g.seq, board=True,
                  viewer=seats[0] if seats else None, text=status_text(g, cmd.user),
                  board_view="" if which == "both" else which, around=around, zoc=zoc == "on")]


@command("game replay")
async def replay(core: Core, cmd: Command) -> list[Reply]:
    """An animated replay of the game so far, posted where it is played (privately, if asked from elsewhere)."""
    row = (await core.find_any(cmd)).row
    if row.status in ("invited", "declined"):
        raise _refuse(f"game #{row.id} has not begun, so there is nothing to replay")
    from bot.boards import replay_in_progress, replays_full

    if replay_in_progress(row.id):
        raise _refuse(f"a replay of game #{row.id} is being drawn right now; it will be posted shortly")
    if replays_full():
        raise _refuse("several replays are being drawn right now; ask again in a minute, nothing was changed")
    text = f"Game #{row.id}, phase by phase."
    if not cmd.community or cmd.community != row.community:
        # Never post into another community's thread: the asker (a player) gets it privately.
        return [Reply(to="private", user=cmd.user, place=cmd.place, game_id=row.id, animation=True, text=text)]
    async with core.store.transaction():
        return await core.queue(row.id, [Reply(to="channel", place=row.place, game_id=row.id, animation=True,
                                               text=text)])


LATE = {"nothing": "moderators are told", "default": "the first legal answer is played for the late player",
        "forfeit": "the late player forfeits the game"}
"""What happens when a decision's clock runs out (``on_timeout``)."""


def terms_text(g: Live) -> str:
    """The terms a game is played on: its options, its clock and what a late player risks, and hints."""
    settings = g.row.settings_dict
    opts = ", ".join(f"{k}:{escape_markdown(str(v), 40)}" for k, v in g.config.options.items()) or "none"
    hours = settings.get("clock_hours")
    clock = (f"{hours} h a decision (when it runs out, {LATE.get(settings.get('on_timeout', 'nothing'), '')})"
             if hours else "none (no time limit)")
    hints = "; hints: on (each player may ask privately for a suggested order, and the thread is told)" \
        if settings.get("hints") else ""
    return f"options: {opts}; clock: {clock}{hints}"


@command("game status")
async def status(core: Core, cmd: Command) -> list[Reply]:
    """Turn, phase and whose decision it is (and the clock)."""
    from bot import helpdesk

    g = await core.find_any(cmd)
    clock = await helpdesk.clock_line(core, g)
    return [private(cmd.user, cmd.place, status_text(g, cmd.user) + (f"\n{clock}" if clock else ""))]


def status_text(g: Live, user: str) -> str:
    """A one-paragraph status of a game."""
    if g.state is None:
        if g.row.status == "declined":
            return f"Game #{g.id} ({g.title}) was declined (or withdrawn, or left unanswered); it never began."
        return f"Game #{g.id} ({g.title}) is waiting for the invited player to accept."
    view = g.rules.view(g.state, None)
    waits = []
    for p in g.pending():
        waits.append(f"{g.name_of(p.seat)} ({p.seat}): {'a private choice' if p.secret else p.text}")
    turn = f"turn {view.turn}, " if view.turn else ""
    if g.row.status == "over":
        return f"Game #{g.id} ({g.title}) is over, {turn}{view.phase}: {result_words(g)}."
    paused = " Paused by a moderator." if g.row.status == "paused" else ""
    return (f"Game #{g.id} ({g.title}), {turn}{view.phase}.{paused}\nWaiting on: "
            + ("; ".join(waits) or "nobody") + f"\n{words.sentence(terms_text(g))}.")


def result_words(g: Live) -> str:
    """How a finished game ended: ``bob (CHEZ) won; alice resigned``."""
    assert g.state is not None
    out = g.rules.outcome(g.state)
    result = g.row.settings_dict.get("result") or (out.model_dump() if out else {})
    winner = result.get("winner")
    who = f"{g.name_of(winner)} ({winner}) won" if winner else "drawn"
    return f"{who}; {words.said_once(result.get('reason', ''), winner)}"


@command("game log")
async def game_log(core: Core, cmd: Command) -> list[Reply]:
    """What happened so far, as this person may see it."""
    g = await core.find_any(cmd)
    from bot.parsing import parse_int

    last = parse_int(cmd.args.get("last", "30"), "last", 1, 500)
    seats = g.seats_of(cmd.user)
    over = g.row.status == "over" and g.state is not None
    waiting = g.state is not None and not over and any(p.secret and p.seat not in seats for p in g.pending())
    entries = await log_entries(core, g.row.id, viewer_seats=seats, secret_waiting=waiting)
    shown = [line for entry in entries[-last:] for line in entry]
    if over:  # a resignation or a forfeit is no action of the log
        shown.append(f"Game over: {result_words(g)}.")
    text = "\n".join(shown) or "Nothing has happened yet."
    if len(text) > LOG_INLINE:  # the newest lines, whole, in a file rather than cut across many messages
        return [Reply(to="private", user=cmd.user, place=cmd.place, game_id=g.id,
                      text=f"The last {min(last, len(entries))} entries of game #{g.id}'s log are attached.",
                      file_name=f"hexhive-game-{g.id}-log.txt", file_text=text + "\n")]
    return [private(cmd.user, cmd.place, text)]


LOG_INLINE = 1900
"""A log longer than this (one Discord message) is attached as a text file."""


async def log_entries(core: Core, game_id: int, viewer_seats: list[str],
                      secret_waiting: bool = False) -> list[list[str]]:
    """The log of a game, one entry (a list of lines) an action: public events, plus ``viewer_seats``' own.

    The log stops where ``listed_until`` says: how many private steps the other player has taken (an
    army picked counter by counter) is itself a secret, and so is whether he has begun (3.03: picks
    are announced to no one). So it says that sealed choices are being made whenever it stops there
    or another seat has a secret decision waiting (``secret_waiting``, picked or not), and puts the
    hints asked since (which the thread was told of) with the last action it shows.
    """
    row = await core.store.game(game_id)
    assert row is not None
    if row.status in ("invited", "declined"):
        return []
    actions = await core.store.actions(row.id, row.branch)
    events = await logged_events(core, row, actions)
    secrets = {s.seq: s for s in await core.store.secrets(row.id, row.branch)}
    stop = listed_until(actions, events, secrets, viewer_seats)
    waiting = stop < len(actions) or secret_waiting
    upto = actions[stop - 1].seq if stop else 0
    hints: dict[int, list[str]] = {}
    for seq, lines in sorted((await hint_lines(core, row)).items()):
        hints.setdefault(min(seq, upto) if waiting else seq, []).extend(lines)
    out: list[list[str]] = [hints[0]] if 0 in hints else []
    for a, evs in zip(actions[:stop], events[:stop], strict=True):
        s = secrets.get(a.seq)
        if s is not None and s.revealed_at is None and a.seat not in viewer_seats:  # closed: its phase is over
            entry = [f"#{a.seq} {a.seat}: a sealed order (commitment `{s.commitment[:16]}`), opened when it takes effect"]
            entry += [f"    {e.text}" for e in evs if e.public or any(x in viewer_seats for x in e.to)]
            out.append(entry + hints.get(a.seq, []))
            continue
        entry = [f"#{a.seq} {a.seat}: {Action.model_validate_json(a.action).text()}"]
        entry += [f"    {e.text}" for e in evs if e.public or any(s in viewer_seats for s in e.to)]
        out.append(entry + hints.get(a.seq, []))
    if waiting:
        out.append(["(sealed choices are being made; the log goes on once they are revealed)"])
    return out


def listed_until(actions: list, events: list[list[Event]], secrets: dict, viewer_seats: list[str]) -> int:
    """How many of ``actions`` a viewer's log and record list as they are: up to the first sealed choice
    still being made that the thread was told nothing of, whoever made it (where the viewer's own stand
    among the other side's would tell whether he had begun, 3.03), or that is another seat's (one the
    thread was told of, 8.2, the record lists as sealed, and stops)."""
    for i, (a, evs) in enumerate(zip(actions, events, strict=True)):
        s = secrets.get(a.seq)
        if s is None or s.revealed_at is not None or s.closed_at is not None:
            continue
        if a.seat not in viewer_seats or not any(e.public for e in evs):
            return i
    return len(actions)


async def hint_lines(core: Core, row: GameRow) -> dict[int, list[str]]:
    """The hints asked in a game, as log lines by the action they followed: who asked, and what the
    hint said only once the game is over (issue: a bot opponent)."""
    out: dict[int, list[str]] = {}
    for h in await hints_of_line(core, row):
        said = f"; it suggested {h['suggestion']}" if row.status == "over" else ""
        out.setdefault(h["after_seq"], []).append(f"    ({h['seat']} asked for a hint{said})")
    return out


async def hints_of_line(core: Core, row: GameRow) -> list[dict]:
    """The hints asked along the game's line of play: on its branch, and on each branch it was rolled
    back from, up to the action the rollback kept."""
    info = {b["branch"]: b for b in await core.store.branches(row.id)}
    upto: dict[int, int | None] = {}
    branch: int | None = row.branch
    limit: int | None = None
    while branch is not None and branch in info and branch not in upto:
        upto[branch] = limit
        fork = info[branch]["fork_seq"]
        limit = fork if limit is None or fork is None else min(limit, fork)
        branch = info[branch]["parent_branch"]
    return [h for h in await core.store.hints(row.id)
            if h["branch"] in upto and (upto[h["branch"]] is None or h["after_seq"] <= upto[h["branch"]])]


async def logged_events(core: Core, row: GameRow, actions: list) -> list[list[Event]]:
    """What each action said: as kept when it was committed (a query), or, for a log written
    before the lines were kept, from a replay (in a worker thread when long)."""
    if all(a.events is not None for a in actions):
        return [[Event(kind="logged", text=t, to=tuple(to)) for t, to in json.loads(a.events)] for a in actions]
    _, events = await full_replay(core.store, row)
    return events


@command("game list")
async def game_list(core: Core, cmd: Command) -> list[Reply]:
    """Games in this place (and the asker's own games)."""
    rows = await core.store.games("place = ? OR parent = ?", (cmd.place, cmd.place))
    mine = [g.row for g in core.live.values() if cmd.user in g.seats.values()]
    seen, lines = set(), []
    for r in rows + mine:
        if r.id in seen:
            continue
        seen.add(r.id)
        config = config_of(r)
        # as the game names them (a replacement's name, the bot as hexhive), never by their ids
        who = " vs ".join(f"{name_in(r, config, s)} ({s})" for s in r.settings_dict.get("seats", {}))
        lines.append(f"#{r.id} {r.game} {r.status}: {who}")
    return [private(cmd.user, cmd.place, "\n".join(lines) or "No games here yet; /game new starts one.")]


# --- resign and export ---------------------------------------------------------------------------------------


@command("game resign")
async def resign(core: Core, cmd: Command) -> list[Reply]:
    """Give the game up: the opponent wins."""
    async with core.locked(cmd) as g:
        seats = g.seats_of(cmd.user)
        if not seats:
            raise _refuse(f"only a player can resign game #{g.id}")
        loser = seats[0]
        winner = next((s for s in g.rules.seats if s != loser), None)
        if not confirm.confirmed(cmd.args):
            return [confirm.ask_resign(g, cmd, winner)]
        return await finish(core, g, winner, f"{g.name_of(loser)} resigned")


async def finish(core: Core, g: Live, winner: str | None, reason: str,
                 modlog: tuple[str, str, str] | None = None) -> list[Reply]:
    """End a game outside the rules (resignation, a moderator's ruling, a clock); call under its lock.

    Every choice still sealed is opened with the result, so the record is complete.
    """
    now = core.now()
    async with core.changing(g):
        if modlog is not None:
            await core.store.add_modlog(g.id, modlog[0], modlog[1], modlog[2], now)
        opened = await core.store.reveal_secrets(g.id, g.row.branch, g.seq)
        settings = g.row.settings_dict
        # which sealed choices the ending opened (no action of the game did): a rollback to before the end
        # must not let the other side choose again knowing them (bot/moderation.py)
        settings["result"] = {"winner": winner, "reason": reason, "opened": [s.seq for s in opened]}
        await core.store.update_game(g.id, now, status="over", settings=json.dumps(settings))
        g.row = (await core.store.game(g.id)) or g.row
        replies = await core._reveal_lines(g, opened, g.seq, show=True) + core.end_lines(g, winner, reason)
        replies = await core.queue(g.id, replies)
    core.retire(g)
    return replies


@command("game export")
async def export(core: Core, cmd: Command) -> list[Reply]:
    """The game record as JSON (docs/record-format.md); sealed choices stay sealed."""
    gid = (await core.find_any(cmd)).id
    record = await build_record(core, gid, viewer_user=cmd.user)
    return [Reply(to="private", user=cmd.user, place=cmd.place, game_id=gid,
                  text=f"The record of game #{gid} is attached.", file_name=f"hexhive-game-{gid}.json",
                  file_text=record.model_dump_json(indent=1))]


async def build_record(core: Core, game_id: int, viewer_user: str | None = None) -> GameRecord:
    """The record of a game; the seed only once it is over (or was never secret)."""
    row = await core.store.game(game_id)
    assert row is not None
    config = config_of(row)
    seats = json.loads(row.settings).get("seats", {})
    viewer_seats = [s for s, u in seats.items() if u == viewer_user]
    actions = await core.store.actions(row.id, row.branch)
    secrets = {s.seq: s for s in await core.store.secrets(row.id, row.branch)}
    events: list[list] = [[] for _ in actions]
    outcome = None
    if row.status not in ("invited", "declined"):
        events = await logged_events(core, row, actions)
        live = core.live.get(row.id) or await load_live(core.store, row)
        assert live.state is not None
        out = live.rules.outcome(live.state)
        ended = json.loads(row.settings).get("result")
        outcome = out.model_dump() if out else ended and {k: v for k, v in ended.items() if k != "opened"}
    over = row.status == "over"
    # While the game is in play, a dice key other than `main` stays secret: after a finished game is rolled
    # back its seed is known, and key and seed together would foretell every roll. Without the seed the
    # keys check nothing, so nothing is lost; both are published at the end.
    keys_shown = over or row.seed_public
    logged = []
    stop = listed_until(actions, events, secrets, viewer_seats)
    for i, (a, evs) in enumerate(zip(actions, events, strict=True)):
        s = secrets.get(a.seq)
        sealed = s is not None and s.revealed_at is None and a.seat not in viewer_seats
        if i == stop and not (sealed and any(e.public for e in evs)):
            break  # a sealed choice being made that the thread was not told of (listed_until)
        logged.append(LoggedAction(
            seq=a.seq, seat=a.seat, action=None if sealed else Action.model_validate_json(a.action),
            rolls=[Roll.model_validate(r) for r in json.loads(a.rolls)],
            dice_key=a.dice_key if keys_shown or a.dice_key == "main" else "secret",
            commitment=s.commitment if s else None, nonce=None if (s is None or sealed) else s.nonce,
            events=[e.text for e in evs if e.public],
        ))
        if i == stop:
            break  # another seat's choice being made, which the thread was told of (8.2): how many more is secret
    # a hint asked after the actions the record stops at would tell how many secret steps were taken:
    # it is listed after the last action shown
    listed = logged[-1].seq if logged else 0
    hints = [HintEntry(after_seq=min(h["after_seq"], listed), seat=h["seat"],
                       suggestion=h["suggestion"] if over else None)
             for h in await hints_of_line(core, row)]
    moderation = [ModerationEntry(seq=m.get("seq"), moderator=m["moderator"], what=m["what"], reason=m["reason"])
                  for m in await core.store.modlog(row.id)]
    return GameRecord(
        game_id=row.id, config=config, status=row.status, seed_hash=seed_hash(row.seed),
        seed=row.seed if (over or row.seed_public) else None, dice_secret=not row.seed_public,
        setup_rolls=[Roll.model_validate(r) for r in json.loads(row.setup_rolls)], actions=logged, outcome=outcome,
        dice_keys=await dice_keys(core, row.id, row.branch) if keys_shown else None, moderation=moderation,
        hints=hints or None,
    )


async def dice_keys(core: Core, game_id: int, branch: int) -> list[DiceKey]:
    """The dice key of each stretch of a branch's line of play, oldest first (each rollback forks a new one)."""
    info = {b["branch"]: b for b in await core.store.branches(game_id)}
    chain = []
    b: int | None = branch
    while b is not None and b in info:
        chain.append(info[b])
        b = info[b]["parent_branch"]
    keys = [DiceKey(from_seq=1, key=chain[-1]["dice_key"])] if chain else []
    for br in reversed(chain[:-1]):
        if keys and keys[-1].from_seq == br["fork_seq"] + 1:
            keys.pop()  # a fork with no action of its own before the next (a rollback, then a renewal)
        keys.append(DiceKey(from_seq=br["fork_seq"] + 1, key=br["dice_key"]))
    return keys
