"""Help that fits the moment: what the asker can do now, one unit's orders, each game's options.

``/game help`` shows the asker's own decision, the orders that answer it now (only
verbs with a legal action), a few concrete examples from those actions, and where the
full list is (``/game help all:yes``). ``/game moves unit:R3`` lists one unit's orders.
``/game options game:X`` lists a game's scenarios, seats and options, each with a line of
description and its default. Names are matched forgivingly (``game:OneWorld``,
``scenario:Learning``, ``dir:south``), and a mistyped command gets a suggestion.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from bot import words
from bot.answers import Refusal, private
from bot.lifecycle import command
from bot.replies import Command, Reply
from engine.core import registry
from engine.core.labels import is_hex
from engine.core.protocol import Action, GameConfig, GameRules

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

EXAMPLES = 3
MOVES_SHOWN = 25
DESTINATIONS = ("to", "at", "on", "hex")
"""Arguments that name the hex an order reaches (outlined on a /game moves board)."""


# --- what the asker can do now -------------------------------------------------------------------


def now_verbs(g: Live, seat: str, verbs: tuple[str, ...]) -> list[str]:
    """The verbs of a prompt that have a legal action now, in the prompt's order."""
    assert g.state is not None
    legal = {a.verb for a in g.rules.legal_now(g.state, seat)}
    return [v for v in verbs if v in legal]


def examples(g: Live, seat: str, verbs: list[str], limit: int = EXAMPLES) -> list[Action]:
    """A few legal actions, one of each verb first, so the examples show the different orders; those
    a player could regret (one that needs ``confirm``, such as a Blade run into Chaos, 5.6) last."""
    assert g.state is not None
    legal = [a for a in g.rules.legal_now(g.state, seat) if a.verb in verbs]
    legal.sort(key=lambda a: "confirm" in a.args)
    picked: list[Action] = []
    for v in verbs:
        first = next((a for a in legal if a.verb == v), None)
        if first is not None and len(picked) < limit:
            picked.append(first)
    for a in legal:
        if len(picked) >= limit:
            break
        if a not in picked:
            picked.append(a)
    return picked


def game_help(g: Live, user: str) -> str:
    """What the game waits on now; for the asker's own decision, the orders legal now and examples."""
    lines = [f"Game #{g.id}: {g.title} ({g.row.status})."]
    if g.state is None:
        lines.append("It begins when the invited player accepts (/game accept).")
        return "\n".join(lines)
    view = g.rules.view(g.state, None)
    if view.phase:
        lines[0] = f"Game #{g.id}: {g.title}, " + (f"turn {view.turn}, " if view.turn else "") + f"{view.phase}."
    mine_any = False
    for p in g.pending():
        rule = f" (rule {p.rule})" if p.rule else ""
        if g.user_of(p.seat) != user:
            who = f"{g.name_of(p.seat)} ({p.seat})"
            lines.append(f"Waiting on {who}: " + ("a private choice." if p.secret else f"{p.text}{rule}."))
            continue
        mine_any = True
        verbs = now_verbs(g, p.seat, p.verbs)
        lines.append(f"Your decision ({p.seat}): {p.text}{rule}.")
        if verbs:
            lines.append("You may use now: " + ", ".join("/" + v for v in verbs)
                         + (" (privately: in a direct message)" if p.secret else "") + ".")
            lines.append("For example:")
            lines += [f"  {a.text()}   ({g.rules.label(a)})" for a in examples(g, p.seat, verbs)]
    if mine_any:
        lines.append("/game moves unit:ID lists one unit's orders; /undo takes back your last order of this phase.")
    lines.append("/game help all:yes lists every order of this game.")
    return "\n".join(lines)


def all_orders(rules: GameRules, config: GameConfig | None = None) -> str:
    """Every order of a game (with these options), with its arguments and rule."""
    lines = [f"Orders of {rules.title}:"]
    for v in (rules.offered_verbs(config) if config is not None else rules.verbs()):
        rule = f" (rule {v.rule})" if v.rule else ""
        lines.append(f"  {words.usage(v)}  {v.help}{rule}".rstrip())
    lines.append("  /undo  take back your own last order of this phase")
    return "\n".join(lines)


def _no_orders(g: Live, seats: list[str], unit: str) -> str:
    """Why ``unit`` has no order for the asker: not on the board as they see it, or the other side's (both
    refused), or none legal now (from the asker's own view, so nothing hidden from them is told)."""
    assert g.state is not None
    want = unit.casefold()
    seen = [c for c in g.rules.view(g.state, seats[0]).counters
            if not c.hidden and want in {c.id.casefold(), c.label.casefold(), c.sub.casefold()} - {""}]
    if not seen:
        raise Refusal(f"there is no {unit} on the board of game #{g.id} as you see it now (eliminated, or not in "
                      "play yet); /game board shows the counters")
    if all(c.side not in seats for c in seen):
        raise Refusal(f"{unit} is {seen[0].side}'s, not yours; /game moves unit:ID lists the orders of your own units")
    return f"{unit} has no legal order now in game #{g.id}."


@command("game moves")
async def moves(core: Core, cmd: Command) -> list[Reply]:
    """One unit's legal orders now, privately."""
    g = core.find_game(cmd)
    unit = cmd.args.get("unit", "").strip()
    if not unit:
        raise Refusal("name the unit: /game moves unit:ID (for example unit:R3)")
    seats = g.seats_of(cmd.user)
    if not seats or g.state is None:
        raise Refusal(f"only a player of game #{g.id} has orders to list")
    want = unit.casefold()
    found: list[Action] = []
    for seat in seats:
        for a in g.rules.legal_now(g.state, seat):
            values = {str(v).casefold() for v in a.args.values()}
            parts = {p for v in values for p in v.split("+")}
            if want in values or want in parts:
                found.append(a)
    if not found:
        return [private(cmd.user, cmd.place, _no_orders(g, seats, unit))]  # or a refusal: not there, not yours
    lines = [f"  {a.text()}   ({g.rules.label(a)})" for a in found]
    more = (f"\n  ... and {len(found) - MOVES_SHOWN} more: all {len(found)} are in the attached file"
            if len(found) > MOVES_SHOWN else "")
    reply = private(cmd.user, cmd.place,
                    f"Orders of {unit} now ({len(found)}):\n" + "\n".join(lines[:MOVES_SHOWN]) + more)
    if more:
        reply.file_name = f"hexhive-game-{g.id}-orders-{re.sub(r'[^A-Za-z0-9_-]', '', unit)[:20] or 'unit'}.txt"
        reply.file_text = f"Orders of {unit} in game #{g.id} now ({len(found)}):\n" + "\n".join(lines) + "\n"
    if cmd.args.get("board", "").strip().casefold() in words.YES_WORDS:
        # The hexes its orders reach, outlined on the player's own board, privately.
        reply.game_id, reply.seq, reply.board, reply.viewer = g.id, g.seq, True, seats[0]
        reply.highlights = [str(v) for a in found for k, v in a.args.items() if k in DESTINATIONS and is_hex(v)]
    return [reply]


# --- the games and their options ---------------------------------------------------------------------


def games_list() -> str:
    """The games, one a line, and how to see their options."""
    lines = ["The games:"]
    for name in registry.names():
        rules = registry.get(name)
        how = "/resolve " + name if name in ("dice", "assault") else f"/game new game:{name}"
        lines.append(f"  {name}: {rules.title}, seats {' and '.join(rules.seats)}  ({how} opponent:USER)")
    lines.append("/game options game:NAME lists a game's scenarios and options.")
    return "\n".join(lines)


def options_text(rules: GameRules) -> str:
    """A game's scenarios, seats and options, each with a line of description and its default."""
    lines = [f"{rules.title} ({rules.name})"]
    if rules.scenarios:
        lines.append(f"  scenario: {', '.join(rules.scenarios)} (default {rules.scenarios[0]})")
    lines.append(f"  seat: {', '.join(rules.seats)} (default {rules.seats[0]}; the opponent takes the other)")
    lines.append("  clock: time for each decision, like 72h, 3d or none (default 72h)")
    lines.append("  on_timeout: nothing, default or forfeit (default nothing)")
    for k, v in rules.options_help.items():
        lines.append(f"  {k}: {v}")
    return "\n".join(lines)


@command("game options")
async def game_options(core: Core, cmd: Command) -> list[Reply]:
    """A game's scenarios, seats and options; without ``game:`` the list of games."""
    name = cmd.args.get("game", "").strip()
    if not name:
        return [private(cmd.user, cmd.place, games_list())]
    return [private(cmd.user, cmd.place, options_text(registry.get(words.game_name(name))))]


# --- forgiving names -----------------------------------------------------------------------------------------


# --- the clock in /game status -----------------------------------------------------------------------------------


async def clock_line(core: Core, g: Live) -> str:
    """The clock of the decision the game waits on: the deadline (a Discord timestamp) and whom it runs for."""
    hours = g.row.settings_dict.get("clock_hours")
    if g.row.status not in ("active", "paused") or g.state is None:
        return ""
    if hours is None:
        return "Clock: none (no time limit)."
    bots = g.row.settings_dict.get("bots", {})  # the bot opponent's decisions are never timed
    pending = {p.seat for p in g.pending()}
    waiting = sorted(f"{g.name_of(seat)} ({seat})" for seat in pending if seat not in bots)
    who = " and ".join(waiting) or "nobody"
    saved = await core.store.place_settings(f"clock:game:{g.id}")
    if g.row.status == "paused":
        return f"Clock: stopped while the game is paused ({hours} h a decision)."
    if pending and not waiting:
        thinking = " and ".join(sorted(f"{g.name_of(seat)} ({seat})" for seat in pending))
        return (f"Clock: {hours} h a decision, not running while the game waits on {thinking}, whose decisions "
                "are never timed.")
    if not saved or not saved.get("deadline"):
        return f"Clock: {hours} h a decision, running for {who}."
    if saved.get("expired"):
        return f"Clock: ran out for {who}."
    deadline = datetime.fromisoformat(saved["deadline"])
    stamp = int(deadline.timestamp())
    return (f"Clock: running for {who}; due <t:{stamp}:R> (<t:{stamp}:f>, "
            f"{deadline.strftime('%Y-%m-%d %H:%M UTC')}).")
