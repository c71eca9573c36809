"""Lifecycle commands: new game, accept, decline, board, log, resign, list, status, export, help."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot import confirm, phaselog
from bot.live import Live, full_replay
from bot.records import GameRecord, LoggedAction, dumps
from bot.replies import Button, Command, Reply
from engine.core import registry
from engine.core.dice import Roll, SeededDice, seed_hash
from engine.core.errors import RuleError
from engine.core.protocol import Action, GameConfig, Player

if TYPE_CHECKING:
    from bot.core import Core

Handler = Callable[["Core", Command], Awaitable[list[Reply]]]
HANDLERS: dict[str, Handler] = {}

NEW_GAME_KEYS = {"game", "opponent", "opponent_name", "scenario", "seat", "seed", "clock", "on_timeout"}


def command(name: str) -> Callable[[Handler], Handler]:
    def wrap(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return wrap


def _refuse(text: str) -> Exception:
    from bot.core import Refusal

    return Refusal(text)


# --- help ----------------------------------------------------------------------------------------

GENERAL_HELP = """\
hexhive runs two-player hex-and-counter games. Commands:
  /game new game:NAME opponent:USER [scenario:S] [seat:SEAT] [option:value ...]   challenge someone
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
  /game options [game:NAME]             the games; a game's scenarios, seats and options
  /undo                                 take back your own last order of this phase
  /resolve dice opponent:USER ...       a stand-alone step-reduction combat
  /resolve assault opponent:USER ...    a stand-alone close assault
  /mod pause|resume|rollback|branches|restore|replace|end|log   moderators only
Games: {games}. In a game, its own orders (/move, ...) are listed by /game help."""


@command("help")
@command("game help")
async def help_command(core: Core, cmd: Command) -> list[Reply]:
    """General help, or what the current game is waiting on."""
    from bot import helpdesk
    from bot.core import Refusal, private

    try:
        g = core.find_game(cmd)
    except Refusal:
        return [private(cmd.user, cmd.place, GENERAL_HELP.format(games=", ".join(registry.names())))]
    if cmd.args.get("all", "").casefold() in ("yes", "true", "on"):
        return [private(cmd.user, cmd.place, helpdesk.all_orders(g.rules, g.config))]
    return [private(cmd.user, cmd.place, helpdesk.game_help(g, cmd.user))]


# --- new game, accept, decline -----------------------------------------------------------------------


@command("game new")
async def new_game(core: Core, cmd: Command) -> list[Reply]:
    """Challenge a member to a game; the game's thread is opened and the opponent invited."""
    from bot import helpdesk
    from bot.core import private

    name = helpdesk.game_name(cmd.args.get("game", ""))
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
    from bot import helpdesk

    rules = registry.get(game)
    if "options" in args:  # a free-text field of name:value words (Discord), merged under explicit ones
        args = option_words(args["options"]) | {k: v for k, v in args.items() if k != "options"}
    opponent = args.get("opponent", "").strip()
    if not opponent:
        raise _refuse(f"name your opponent: /game new game:{game} opponent:USER")
    if opponent == cmd.user:
        raise _refuse("you cannot challenge yourself; name another member as opponent")
    scenario = helpdesk.choice(args.get("scenario", rules.scenarios[0] if rules.scenarios else ""), rules.scenarios)
    if rules.scenarios and scenario not in rules.scenarios:
        raise _refuse(f"{rules.title} has no scenario '{scenario}'; choose one of: {', '.join(rules.scenarios)}")
    seat = args.get("seat", rules.seats[0])
    seat = next((s for s in rules.seats if s.casefold() == seat.casefold()), seat)
    if seat not in rules.seats:
        raise _refuse(f"{rules.title} has no seat '{seat}'; choose one of: {', '.join(rules.seats)}")
    other = next(s for s in rules.seats if s != seat)
    seed_arg = args.get("seed")
    if seed_arg is not None and not cmd.is_moderator and not cmd.place.startswith("console"):
        raise _refuse("only a moderator (or the local console) may fix the dice seed")
    options = {k: v for k, v in args.items() if k not in NEW_GAME_KEYS}
    clock = args.get("clock", "72h")
    hours = _parse_clock(clock)
    on_timeout = args.get("on_timeout", "nothing")
    if on_timeout not in ("nothing", "default", "forfeit"):
        raise _refuse("on_timeout must be nothing, default or forfeit")
    opponent_name = args.get("opponent_name", "").strip() or opponent
    players = (Player(seat=seat, name=cmd.display or cmd.user), Player(seat=other, name=opponent_name))
    config = GameConfig(game=game, scenario=scenario, options=options, players=players)
    try:
        rules.setup(config, SeededDice("check", 0))  # validates scenario and options before anyone accepts
    except RuleError as exc:
        raise _refuse(str(exc)) from None
    except (ValueError, TypeError) as exc:
        raise _refuse(f"the options were not understood: {exc}") from None
    seed = seed_arg if seed_arg is not None else core.new_seed()
    place = await core.open_thread(cmd.place, f"{rules.title}: {players[0].name} vs {opponent_name}")
    settings = {"seats": {seat: cmd.user, other: opponent}, "clock_hours": hours, "on_timeout": on_timeout}
    now = core.now()
    from bot.live import load_live

    async with core.store.transaction():
        gid = await core.store.insert_game(
            place=place, parent=cmd.place, game=game, config=config.model_dump_json(), status="invited",
            seed=seed, seed_public=seed_arg is not None, setup_rolls="[]", settings=json.dumps(settings),
            created_by=cmd.user, now=now,
        )
        row = await core.store.game(gid)
        assert row is not None
        g = await load_live(core.store, row)
        opts = ", ".join(f"{k}:{v}" for k, v in options.items()) or "none"
        text = (f"<@{opponent}>, {players[0].name} challenges you to {rules.title} (game #{gid}, scenario "
                f"{scenario or 'standard'}, you play {other}; options: {opts}; clock: {clock}). "
                f"Answer with /game accept or /game decline.")
        replies = [Reply(to="channel", place=place, text=text, game_id=gid, seq=0, mentions=[opponent],
                         buttons=[Button(label="Accept", command=f"/game accept game:{gid}"),
                                  Button(label="Decline", command=f"/game decline game:{gid}",
                                         style="danger")])]
        replies = await core.queue(gid, replies)
    core.live[gid] = g
    return replies


def option_words(text: str) -> dict[str, str]:
    """``'hidden_charges:on god_lives:2'`` -> ``{'hidden_charges': 'on', 'god_lives': '2'}``."""
    from bot.parsing import ParseError, parse_command

    try:
        return parse_command("/options " + text)[1]
    except ParseError as exc:
        raise _refuse(f"options: {exc}") from None


def _parse_clock(text: str) -> int | None:
    t = text.strip().lower()
    if t in ("none", "off", "0"):
        return None
    if t.endswith("h") and t[:-1].isdigit() and 0 < int(t[:-1]) <= 24 * 30:
        return int(t[:-1])
    if t.endswith("d") and t[:-1].isdigit() and 0 < int(t[:-1]) <= 30:
        return int(t[:-1]) * 24
    raise _refuse("clock must be like 72h, 3d or none")


@command("game accept")
async def accept(core: Core, cmd: Command) -> list[Reply]:
    """The invited player accepts: the game is set up and begins."""
    try:
        g = core.find_game(cmd, statuses=("invited",))
    except Exception:
        begun = [x for x in core.live.values() if x.row.place == cmd.place and x.row.status != "invited"]
        if begun:
            raise _refuse(f"game #{begun[0].id} has already begun") from None
        raise
    async with g.lock:
        if g.row.status != "invited":
            raise _refuse(f"game #{g.id} is already {g.row.status}")
        invited = [s for s, u in g.seats.items() if u != g.row.created_by] or list(g.seats)[1:]
        if cmd.user not in (g.user_of(s) for s in invited):
            raise _refuse(f"only the invited player can accept game #{g.id}")
        dice = SeededDice(g.row.seed, 0, "main")
        state = g.rules.setup(g.config, dice)
        now = core.now()
        async with core.store.transaction():
            await core.store.update_game(g.id, now, status="active",
                                         setup_rolls=dumps([r.model_dump() for r in dice.rolls]))
            g.row = (await core.store.game(g.id)) or g.row
            g.state, g.seq = state, 0
            dice_note = (f"Dice seed `{g.row.seed}` (fixed, not secret)" if g.row.seed_public else
                         f"Dice: SHA-256 of the secret seed is `{seed_hash(g.row.seed)}`; the seed is published "
                         f"at the end so anyone can check every roll")
            rolls = ", ".join(f"{r.why or 'die'}: {r.value}" for r in dice.rolls)
            intro = f"Game #{g.id} begins: {g.rules.title}. " + ", ".join(
                f"{g.name_of(s)} plays {s}" for s in g.rules.seats) + f".\n{dice_note}."
            if rolls:
                intro += f"\nSet-up rolls: {rolls}."
            replies = [Reply(to="channel", place=g.row.place, text=intro, game_id=g.id, seq=0,
                             mentions=list(g.seats.values()))]
            replies += phaselog.shape(g, core.board_replies(g, force=True) + core.prompt_replies(g, []), seq=0,
                                      actor=cmd.user, place=cmd.place, over=False)
            await phaselog.save(core, g, now)
            await core._save_board_key(g, now)
            replies = await core.queue(g.id, replies)
        return replies


@command("game decline")
async def decline(core: Core, cmd: Command) -> list[Reply]:
    """The invited player (or the challenger, withdrawing) declines."""
    g = core.find_game(cmd, statuses=("invited",))
    if cmd.user not in g.seats.values():
        raise _refuse(f"only the two players can decline game #{g.id}")
    async with core.store.transaction():
        await core.store.update_game(g.id, core.now(), status="declined")
        replies = await core.queue(g.id, [Reply(to="channel", place=g.row.place, game_id=g.id,
                                                text=f"Game #{g.id} was declined; nothing more will happen in it.")])
    core.live.pop(g.id, None)
    return replies


# --- board, status, log, list -----------------------------------------------------------------------------


@command("game board")
async def board(core: Core, cmd: Command) -> list[Reply]:
    """The current board, privately; a player sees their own secrets, anyone else a spectator's view."""
    g = await core.find_any(cmd)
    if g.state is None:
        raise _refuse(f"game #{g.id} has not begun")
    seats = g.seats_of(cmd.user)
    return [Reply(to="private", user=cmd.user, place=cmd.place, game_id=g.id, seq=g.seq, board=True,
                  viewer=seats[0] if seats else None, text=status_text(g, cmd.user))]


@command("game replay")
async def replay(core: Core, cmd: Command) -> list[Reply]:
    """An animated replay of the game so far, posted where it is played."""
    text = cmd.args.get("game", "").lstrip("#")
    row = await core.store.game(int(text)) if text.isdigit() else None
    if row is None or row.status in ("invited", "declined"):
        row = (await core.find_any(cmd)).row
    async with core.store.transaction():
        return await core.queue(row.id, [Reply(to="channel", place=row.place, game_id=row.id, animation=True,
                                               text=f"Game #{row.id}, phase by phase.")])


@command("game status")
async def status(core: Core, cmd: Command) -> list[Reply]:
    """Turn, phase and whose decision it is (and the clock)."""
    from bot import helpdesk
    from bot.core import private

    g = await core.find_any(cmd)
    clock = await helpdesk.clock_line(core, g)
    return [private(cmd.user, cmd.place, status_text(g, cmd.user) + (f"\n{clock}" if clock else ""))]


def status_text(g: Live, user: str) -> str:
    """A one-paragraph status of a game."""
    if g.state is None:
        return f"Game #{g.id} ({g.rules.title}) is waiting for the invited player to accept."
    view = g.rules.view(g.state, None)
    waits = []
    for p in g.pending():
        waits.append(f"{g.name_of(p.seat)} ({p.seat}): {'a private choice' if p.secret else p.text}")
    turn = f"turn {view.turn}, " if view.turn else ""
    if g.row.status == "over":
        out = g.rules.outcome(g.state)
        result = g.row.settings_dict.get("result") or (out.model_dump() if out else {})
        winner = result.get("winner")
        who = f"{g.name_of(winner)} ({winner}) won" if winner else "drawn"
        return f"Game #{g.id} ({g.rules.title}) is over, {turn}{view.phase}: {who}; {result.get('reason', '')}."
    paused = " Paused by a moderator." if g.row.status == "paused" else ""
    return (f"Game #{g.id} ({g.rules.title}), {turn}{view.phase}.{paused}\nWaiting on: "
            + ("; ".join(waits) or "nobody"))


@command("game log")
async def game_log(core: Core, cmd: Command) -> list[Reply]:
    """What happened so far, as this person may see it."""
    from bot.core import private

    g = await core.find_any(cmd)
    last = cmd.args.get("last", "30")
    if not last.isdigit() or not 0 < int(last) <= 500:
        raise _refuse("last must be a number from 1 to 500")
    entries = await log_entries(core, g.row.id, viewer_seats=g.seats_of(cmd.user))
    shown = [line for entry in entries[-int(last):] for line in entry]
    return [private(cmd.user, cmd.place, "\n".join(shown) or "Nothing has happened yet.")]


async def log_entries(core: Core, game_id: int, viewer_seats: list[str]) -> list[list[str]]:
    """The log of a game, one entry (a list of lines) an action: public events, plus ``viewer_seats``' own.

    The log stops at the first choice still sealed from this viewer: how many private
    steps the other player has taken (an army picked counter by counter) is itself a secret.
    """
    row = await core.store.game(game_id)
    assert row is not None
    if row.status in ("invited", "declined"):
        return []
    _, events = await full_replay(core.store, row)
    actions = await core.store.actions(row.id, row.branch)
    secrets = {s.seq: s for s in await core.store.secrets(row.id, row.branch)}
    out: list[list[str]] = []
    for a, evs in zip(actions, events, strict=True):
        if a.seq in secrets and secrets[a.seq].revealed_at is None and a.seat not in viewer_seats:
            out.append(["(sealed choices are being made; the log goes on once they are revealed)"])
            break
        entry = [f"#{a.seq} {a.seat}: {Action.model_validate_json(a.action).text()}"]
        entry += [f"    {e.text}" for e in evs if e.public or any(s in viewer_seats for s in e.to)]
        out.append(entry)
    return out


@command("game list")
async def game_list(core: Core, cmd: Command) -> list[Reply]:
    """Games in this place (and the asker's own games)."""
    from bot.core import private

    rows = await core.store.games("place = ? OR parent = ?", (cmd.place, cmd.place))
    mine = [g.row for g in core.live.values() if cmd.user in g.seats.values()]
    seen, lines = set(), []
    for r in rows + mine:
        if r.id in seen:
            continue
        seen.add(r.id)
        seats = json.loads(r.settings).get("seats", {})
        who = " vs ".join(f"{u} ({s})" for s, u in seats.items())
        lines.append(f"#{r.id} {r.game} {r.status}: {who}")
    return [private(cmd.user, cmd.place, "\n".join(lines) or "No games here yet; /game new starts one.")]


# --- resign and export ---------------------------------------------------------------------------------------


@command("game resign")
async def resign(core: Core, cmd: Command) -> list[Reply]:
    """Give the game up: the opponent wins."""
    g = core.find_game(cmd)
    seats = g.seats_of(cmd.user)
    if not seats:
        raise _refuse(f"only a player can resign game #{g.id}")
    loser = seats[0]
    winner = next((s for s in g.rules.seats if s != loser), None)
    if not confirm.confirmed(cmd.args):
        return [confirm.ask_resign(g, cmd, winner)]
    return await finish(core, g, winner, f"{g.name_of(loser)} resigned")


async def finish(core: Core, g: Live, winner: str | None, reason: str) -> list[Reply]:
    """End a game outside the rules (resignation, a moderator's ruling)."""
    async with g.lock:
        now = core.now()
        async with core.store.transaction():
            settings = g.row.settings_dict
            settings["result"] = {"winner": winner, "reason": reason}
            await core.store.update_game(g.id, now, status="over", settings=json.dumps(settings))
            g.row = (await core.store.game(g.id)) or g.row
            replies = await core.queue(g.id, core.end_lines(g, winner, reason))
    core.live.pop(g.id, None)
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
    from bot.live import config_of

    config = config_of(row)
    seats = json.loads(row.settings).get("seats", {})
    viewer_seats = [s for s, u in seats.items() if u == viewer_user]
    actions = await core.store.actions(row.id, row.branch)
    secrets = {s.seq: s for s in await core.store.secrets(row.id, row.branch)}
    events: list[list] = [[] for _ in actions]
    outcome = None
    if row.status not in ("invited", "declined"):
        state, events = await full_replay(core.store, row)
        rules = registry.get(config.game)
        out = rules.outcome(state)
        outcome = out.model_dump() if out else json.loads(row.settings).get("result")
    logged = []
    for a, evs in zip(actions, events, strict=True):
        s = secrets.get(a.seq)
        sealed = s is not None and s.revealed_at is None and a.seat not in viewer_seats
        logged.append(LoggedAction(
            seq=a.seq, seat=a.seat, action=None if sealed else Action.model_validate_json(a.action),
            rolls=[Roll.model_validate(r) for r in json.loads(a.rolls)], dice_key=a.dice_key,
            commitment=s.commitment if s else None, nonce=None if (s is None or sealed) else s.nonce,
            events=[e.text for e in evs if e.public],
        ))
        if sealed:
            break  # how many more private steps were taken is itself a secret
    over = row.status == "over"
    return GameRecord(
        game_id=row.id, config=config, status=row.status, seed_hash=seed_hash(row.seed),
        seed=row.seed if (over or row.seed_public) else None, dice_secret=not row.seed_public,
        setup_rolls=[Roll.model_validate(r) for r in json.loads(row.setup_rolls)], actions=logged, outcome=outcome,
    )
