"""Why an order is refused: the Child, the hex and the rule, in words a player can act on.

Messages speak only of the asking player's own counters and of public facts, so a
refusal never echoes a choice the other player holds in secret.
"""

from __future__ import annotations

import re

from engine.core.hexes import DIRECTION_NAMES, distance
from engine.core.protocol import Action
from engine.games.oneworld import combat, gods, setup
from engine.games.oneworld.board import board
from engine.games.oneworld.movement import blade_run, context, end_problem, step_problem, walk_targets
from engine.games.oneworld.state import ASPECTS, Child, State, children


def why(state: State, seat: str, action: Action) -> str:
    """A polite, specific reason why ``action`` is not legal for ``seat`` now."""
    if state.step == "over":
        return "The game is over (rule 11.2)"
    handler = _HANDLERS.get(action.verb)
    if handler is None:
        return f"OneWorld has no command /{action.verb}; see the list of commands"
    unknown = _unknown_args(action)
    if unknown:
        return unknown
    spelled = _respelled(state, seat, action)
    if spelled:
        return f"Write it as {spelled.text()} (names are written as the list offers them)"
    action = canonical(state, action)
    text = handler(state, seat, action)
    return text or f"{action.text()} is not a legal order now; it is {state.active}'s {state.step} step"


def _unknown_args(action: Action) -> str:
    from engine.games.oneworld.verbs import SPECS

    spec = next(v for v in SPECS if v.verb == action.verb)
    names = [a.name for a in spec.args]
    extra = sorted(set(action.args) - set(names))
    if not extra:
        return ""
    takes = "takes " + ", ".join(f"{n}:" for n in names) if names else "takes no arguments"
    return f"/{action.verb} has no argument '{extra[0]}'; it {takes} (rule {spec.rule})"


def _respelled(state: State, seat: str, action: Action) -> Action | None:
    """The legal order that ``action`` differs from only in capitals (dir:ne for dir:NE, stone for Stone)."""
    from engine.games.oneworld.rules import legal_for  # rules imports this module

    want = {k: str(v).strip().lower() for k, v in action.args.items()}
    for legal in legal_for(state, seat):
        if legal.verb == action.verb and {k: str(v).lower() for k, v in legal.args.items()} == want:
            return legal
    return None


def canonical(state: State, action: Action) -> Action:
    """``action`` with its names written as the game writes them (fog -> Fog, ne -> NE, b7 -> B7)."""
    words = (*ASPECTS, *DIRECTION_NAMES, *(c.id for c in state.children), "lost", "chaos")
    known = {w.lower(): w for w in words}
    args = {k: known.get(str(v).strip().lower(), v) if isinstance(v, str) else v for k, v in action.args.items()}
    return Action(verb=action.verb, args=args)


def held_choice(state: State, seat: str, verb: str) -> str:
    """A second answer to a sealed decision ``seat`` has already made: wait for the reveal."""
    fight, accost = state.fight, state.accost
    if verb == "aspects" and state.step == "combat" and fight is not None and seat in fight.chosen:
        return f"You have already chosen for round {fight.round} in {fight.hex}; wait for the reveal (rule 8.2)"
    if verb == "aspect" and state.step == "accost_god" and accost is not None and seat == state.active:
        return f"You have already chosen the aspect of {accost.child}; wait for the reveal (rule 10.4)"
    return ""


def _arg(action: Action, name: str) -> str:
    return str(action.args.get(name, "")).strip()


def _order(state: State, seat: str, action: Action) -> str:
    return "Write /order setup:first or /order setup:second (rule 3.2)"


def _defend(state: State, seat: str, action: Action) -> str:
    ends = " or ".join(f"end:{e}" for e in setup.end_choices(state))
    return f"Choose {ends} (rule 3.3)"


def _tower(state: State, seat: str, action: Action) -> str:
    sites = setup.tower_sites(state)
    if state.step != "tower":
        return "The Tower hex is chosen by the player who sets up second, before his gods (rule 3.4)"
    return f"{_arg(action, 'hex') or 'That'} is not a Tower of Balance hex; choose {sites[0]} or {sites[1]} (rule 3.4)"


def _gods(state: State, seat: str, action: Action) -> str:
    if state.step != "gods":
        return "The gods are placed right after the end (or Tower) is chosen (rule 3.3)"
    text = _arg(action, "hex")
    b = board()
    h = b.parse(text)
    if h is None:
        return f"{text or 'That'} is not a hex on the map: write four digits, column then row, like 0702"
    if text in setup.tower_sites(state):
        return f"The gods cannot sit in {text}, a Tower of Balance hex (rule 5.5)"
    end = state.ends[seat]
    if state.options.new_geography:
        return f"{text} is more than three hexes from the {end} Tower site (rules 3.3, 12.0 New Geography)"
    return f"{text} is more than three hexes from your {end} end; the gods sit within three (rule 3.3)"


def _place(state: State, seat: str, action: Action) -> str:
    if state.step != "place":
        return "Children are placed after the gods (rule 3.3)"
    if not setup.unplaced(state, seat):
        return "All thirteen of your Children are placed; write /done (rule 3.3)"
    if action.verb == "place_all":
        return ""
    aspect = _arg(action, "aspect")
    if aspect not in ASPECTS:
        return f"'{aspect}' is not an aspect: choose Stone, Blade or Fog (rule 6.1)"
    text = _arg(action, "hex")
    b = board()
    h = b.parse(text)
    if h is None:
        return f"{text or 'That'} is not a hex on the map: write four digits, column then row, like 0704"
    god = b.parse(state.god_hex[seat])
    assert god is not None
    if text == state.god_hex[seat]:
        return f"Children may never stand in {text}, the hex of their own god (rule 7.3)"
    if text in setup.tower_sites(state):
        return f"No being may enter {text}, a Tower of Balance hex (rule 5.5)"
    if distance(h, god) > 7:
        return f"{text} is {distance(h, god)} hexes from your god in {state.god_hex[seat]}; Children go within seven (rule 3.3)"
    if any(c.hex == text and c.side != seat and c.where == "map" for c in state.children):
        return f"{text} holds enemy Children; set up in another hex (rule 3.3)"
    return f"{text} already holds {state.stacking} of your Children, the stacking limit (rule 7.2)"


def _done(state: State, seat: str, action: Action) -> str:
    left = len(setup.unplaced(state, seat))
    if state.step == "place" and left:
        verb = "is" if left == 1 else "are"
        return f"{left} of your Children {verb} still to be placed; use /place or /place_all first (rule 3.3)"
    return ""


def _child(state: State, seat: str, action: Action) -> tuple[Child | None, str]:
    cid = _arg(action, "child").upper()
    if not cid:
        return (
            None,
            f"Name the Child, e.g. child:{seat[0]}1; {seat}'s Children are {seat[0]}1 to {seat[0]}13 (rule 6.1)",
        )
    child = state.child(cid)
    if child is None:
        return (
            None,
            f"There is no Child called '{cid}'; {seat}'s Children are {seat[0]}1 to {seat[0]}13 (rule 6.1)",
        )
    if child.side != seat:
        return None, f"{cid} is a Child of {child.side}, not yours (rule 3.1)"
    if child.where == "tower":
        return None, f"{cid} is under your Tower of Balance, not on the map (rules 8.4, 9.2)"
    if child.where != "map":
        where = (
            "is lost in Chaos Itself (rule 5.6)" if child.where == "lost" else "is not set up yet (rule 3.3)"
        )
        return None, f"{cid} {where}"
    return child, ""


def _move(state: State, seat: str, action: Action) -> str:
    if state.step != "move" or seat != state.active:
        return f"Children move only in their own player's movement phase; it is {state.active}'s {state.step} step (rule 4.2)"
    child, problem = _child(state, seat, action)
    if child is None:
        return problem
    if child.id in state.moved:
        return f"{child.aspect} {child.id} has already moved this turn (rule 4.2)"
    if child.aspect == "Blade":
        return _blade(state, seat, child, action)
    if "dir" in action.args:
        return f"{child.aspect} {child.id} moves to a hex: write to:XXXX; directions are for Blade (rule 6.3)"
    return _walker(state, seat, child, action)


def _walker(state: State, seat: str, child: Child, action: Action) -> str:
    rule = "6.2" if child.aspect == "Stone" else "6.4"
    target = _arg(action, "to")
    if target.lower() == "chaos":
        if not state.options.chaos_gambit_1:
            return f"{child.aspect} {child.id} cannot move into Chaos Itself (rules 5.6, {rule})"
        return (
            f"{child.aspect} {child.id} cannot reach the edge of the map this turn (rule 12.0 Chaos Gambit I)"
        )
    b = board()
    ctx = context(state, seat)
    start, h = b.parse(child.hex), b.parse(target)
    assert start is not None
    if h is None:
        off = " (beings moved off the map are lost, rule 5.6)" if target.isdigit() else ""
        return f"{target or 'That'} is not a hex on the map{off}: write to: and four digits, like 0608"
    reach = (
        3
        if child.aspect == "Stone" and state.options.pylon_movement
        else (1 if child.aspect == "Stone" else 3)
    )
    if h == start:
        return f"{child.aspect} {child.id} is already in {target}"
    if distance(start, h) > reach and not state.options.chaos_gambit_2:
        count = "one hex" if child.aspect == "Stone" else "one to three hexes"
        return f"{child.aspect} moves {count} a turn; {target} is {distance(start, h)} hexes from {child.id} in {child.hex} (rule {rule})"
    if distance(start, h) == 1:
        problem = step_problem(ctx, child, start, h)
        if problem:
            return problem
    if h == ctx.own_god:
        return f"{child.aspect} {child.id} may never enter {target}, the hex of its own god (rule 7.3)"
    if h in ctx.towers:
        return f"{child.aspect} {child.id} cannot enter the Tower of Balance at {target} (rule 5.5)"
    if h == ctx.enemy_god and state.accosted:
        return (
            f"{child.aspect} {child.id} cannot enter {target}: only one Child a turn may accost the enemy god, "
            "and one already has (rule 10.4)"
        )
    problem = end_problem(ctx, child, h)
    if problem:
        return problem
    if state.options.pylon_movement and h not in walk_targets(ctx, child, start):
        return (
            f"{child.aspect} {child.id} cannot reach {target}: Pylon-to-Pylon moves are Stone 3, Blade and Fog 1, "
            "never mixed with other movement (rule 12.0 Pylon Movement)"
        )
    return (
        f"No path of at most three hexes takes {child.aspect} {child.id} from {child.hex} to {target} without crossing "
        f"a Runeline (5.3), climbing from flatland onto a Pylon (5.1), entering a Tower (5.5) or passing through "
        f"enemy Children, who stop a move (rule {rule})"
    )


def _blade(state: State, seat: str, child: Child, action: Action) -> str:
    name = _arg(action, "dir").upper()
    who = f"Blade {child.id}"
    if not name:
        return "A Blade's move is given as a direction (N, NE, SE, S, SW, NW), not a hex: write dir:NE (rule 6.3)"
    if name not in DIRECTION_NAMES:
        return f"'{name}' is not a direction; write N, NE, SE, S, SW or NW (rule 6.3)"
    b = board()
    ctx = context(state, seat)
    start = b.parse(child.hex)
    assert start is not None
    route, stopped = blade_run(ctx, child, start, DIRECTION_NAMES.index(name))
    steps = _arg(action, "steps")
    if steps:
        if not state.options.friendly_obstacle:
            return f"{who} must move the entire five hexes unless blocked; it cannot stop after {steps} (rule 6.3)"
        return (
            f"{who} may stop short only in a hex holding a friendly Stone not already stopping another Blade, "
            f"on its line {name} (rule 12.0 Friendly Obstacle)"
        )
    if route.chaos and _arg(action, "confirm").lower() != "lost":
        return (
            f"{who} running {name} from {child.hex} would reach the edge with movement left and be lost in Chaos "
            f"Itself (rules 5.6, 6.3). To send it anyway, add confirm:lost"
        )
    if not route.chaos and _arg(action, "confirm"):
        return f"{who} running {name} stays on the map; confirm:lost is only for a run into Chaos Itself (rule 6.3)"
    if not route.path:
        return (
            f"{who} cannot run {name} from {child.hex}: {stopped}" if stopped else f"{who} cannot run {name}"
        )
    end = route.path[-1]
    return end_problem(ctx, child, end) or f"{who} cannot run {name} now (rule 6.3)"


def _transform(state: State, seat: str, action: Action) -> str:
    if state.options.transforms(seat) == 0:
        return f"{seat}'s god has no power to transform Children in this game (rule 12.0 God Powers)"
    if state.step != "move" or seat != state.active:
        return "A god transforms Children only in its own movement phase (rule 12.0 God Powers)"
    if state.transforms >= state.options.transforms(seat):
        return f"{seat}'s god has used its transformations this turn (rule 12.0 God Powers)"
    child, problem = _child(state, seat, action)
    if child is None:
        return problem
    if _arg(action, "aspect") not in ASPECTS:
        return "Choose aspect:Stone, aspect:Blade or aspect:Fog (rule 6.1)"
    if _arg(action, "aspect") == child.aspect:
        return f"{child.id} is already {child.aspect}"
    return (
        f"{child.id} in {child.hex} is in combat and cannot be transformed by its god (rule 12.0 God Powers)"
    )


def _flee(state: State, seat: str, action: Action) -> str:
    if not state.options.flee_while_you_can:
        return "The gods never want to move (rule 10.3)"
    if state.lives.get(seat, 0) >= state.options.lives()[seat]:
        return f"{seat}'s god may flee only after it has lost a life (rule 12.0 Flee While You Can)"
    if state.god_moved:
        return f"{seat}'s god has already moved this turn (rule 12.0 Flee While You Can)"
    target = _arg(action, "to")
    if target not in gods.flee_hexes(state, seat) and board().parse(target) is not None:
        return (
            f"The god may move one hex, not into {target}: never into a hex of enemy gods or Children, "
            "its own Children (7.3) or a Tower (5.5) (rule 12.0 Flee While You Can)"
        )
    return f"{target or 'That'} is not a hex next to the god in {state.god_hex[seat]}"


def _end(state: State, seat: str, action: Action) -> str:
    return f"Only {state.active} can end the movement phase now (rule 4.2)"


def _fight(state: State, seat: str, action: Action) -> str:
    if state.step != "fight":
        return "There is no choice of combat to make now (rule 8.1)"
    return f"{_arg(action, 'hex')} has no combat waiting; choose one of {', '.join(state.fights)} (rule 8.1)"


def _aspects(state: State, seat: str, action: Action) -> str:
    fight = state.fight
    if fight is None:
        return "There is no combat round waiting for aspects (rule 8.2)"
    if seat in fight.chosen:
        return held_choice(state, seat, action.verb)
    n = len(combat.fighters(state, fight.hex, seat))
    need = f"you have {children(n)} in {fight.hex}: give stone, blade and fog as whole numbers that add up to {n}"
    names = [combat.ARG[a] for a in ASPECTS]
    given = {k: str(action.args[k]).strip() for k in names if k in action.args}
    if any(re.fullmatch(r"-[0-9]{1,9}", v) for v in given.values()):
        return f"A number of Children cannot be below 0; {need} (rule 8.2)"
    if not all(re.fullmatch(r"[0-9]{1,9}", v) for v in given.values()):
        return (f"Counts are whole numbers written with the digits 0-9, as in stone:1 blade:1 "
                f"fog:0; {need} (rule 8.2)")
    counts = {k: int(v) for k, v in given.items()}
    if not counts:
        return f"You gave no numbers; {need} (rule 8.2)"
    said = ", ".join(f"{k} {v}" for k, v in counts.items())
    left = [k for k in names if k not in counts]
    if left and sum(counts.values()) == n:  # whole, but the engine takes every part named
        full = Action(verb="aspects", args={k: counts.get(k, 0) for k in names})
        return f"Write it as {full.text()} (every part named)"
    if left:  # a part left out counts as 0, which a short order such as blade:2 may not mean
        said += f" ({' and '.join(left)} left out, so 0)"
    return f"You gave {said}, {sum(counts.values())} in all, but {need} (rule 8.2)"


def _aspect(state: State, seat: str, action: Action) -> str:
    if state.accost is None:
        return "No god is being accosted now (rule 10.4)"
    if not gods.accost_legal(state, seat):
        return f"It is not your turn to choose in the accost in {state.accost.hex} (rule 10.4)"
    return "Choose aspect:Stone, aspect:Blade or aspect:Fog (rule 10.4)"


_HANDLERS = {
    "order": _order,
    "defend": _defend,
    "tower": _tower,
    "gods": _gods,
    "place": _place,
    "place_all": _place,
    "done": _done,
    "move": _move,
    "transform": _transform,
    "flee": _flee,
    "end": _end,
    "fight": _fight,
    "aspects": _aspects,
    "aspect": _aspect,
}
