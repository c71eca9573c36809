"""Why an order is refused: messages that name the unit, the hex and the rule."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.hexes import Hex
from engine.core.protocol import Action
from engine.games.chitin import flow, movement, results
from engine.games.chitin.board import DIRS, Index, describe, geo, in_front, is_ground, role
from engine.games.chitin.combat import unmet
from engine.games.chitin.data import unit_type
from engine.games.chitin.state import Counter, State


def why(state: State, seat: str, a: Action, legal: Sequence[Action] = (), rule: str = "") -> str:
    """A polite, specific reason for refusing ``a``; ``legal`` are the seat's legal actions, ``rule`` its prompt's."""
    choices = [x for x in legal if x.verb == a.verb]
    args = canonical(state, a, choices)
    respelled = Action(verb=a.verb, args=args)
    if args != {k: str(v) for k, v in a.args.items()} and any(x.key() == respelled.key() for x in choices):
        return f"Write it as {respelled.text()} (names are written as the list offers them)"
    fn = _BY_VERB.get(a.verb)
    if fn is not None:
        text = fn(state, seat, args)
        if text:
            return text
    return _not_among(respelled, choices, rule or _rule_of(a.verb))


def canonical(state: State, a: Action, choices: Sequence[Action]) -> dict[str, str]:
    """The arguments of ``a`` written as the game writes them (ne -> NE, r3+r7 -> R3+R7), whatever their case."""
    known = {d.lower(): d for d in DIRS} | {cid.lower(): cid for cid in state.counters}
    known |= {str(v).lower(): str(v) for x in choices for v in x.args.values()}
    out = {}
    for k, v in a.args.items():
        text = str(v).strip()
        whole = known.get(text.lower())
        out[k] = whole if whole is not None else "+".join(known.get(p.lower(), p) for p in text.split("+"))
    return out


def _rule_of(verb: str) -> str:
    from engine.games.chitin.verbs import VERBS

    return next((v.rule for v in VERBS if v.verb == verb), "")


def _not_among(a: Action, choices: Sequence[Action], rule: str) -> str:
    """The first argument whose value is not legal with those before it, and the values that are."""
    cite = f" (rule {rule})" if rule else ""
    if not choices:
        return f"/{a.verb} is not a legal order now{cite}"
    for name, value in a.args.items():
        values = list(dict.fromkeys(str(x.args[name]) for x in choices if name in x.args))
        if not values:
            return f"/{a.verb} takes no argument {name} now; " + _example(choices) + cite
        if str(value) not in values:
            shown = ", ".join(values[:8]) + (f" and {len(values) - 8} more" if len(values) > 8 else "")
            return f"{a.text()} is not a legal order now: {name} may be {shown}{cite}"
        choices = [x for x in choices if str(x.args.get(name)) == str(value)]
    missing = sorted({n for x in choices for n in x.args} - set(a.args))
    if missing:
        return f"{a.text()} is not complete: give {', '.join(n + ':' for n in missing)}; " + _example(choices) + cite
    return f"{a.text()} is not a legal order now{cite}"


def _example(choices: Sequence[Action]) -> str:
    return "for example " + choices[0].text()


def _pick(state: State, seat: str, args: dict[str, str]) -> str:
    return flow.pick_problem(state, seat, args.get("kind", "")) if state.step == "forces" else ""


def _ready(state: State, seat: str, args: dict[str, str]) -> str:
    return flow.ready_problem(state, seat) if state.step == "forces" else ""


def _drop(state: State, seat: str, args: dict[str, str]) -> str:
    if state.step == "forces" and args.get("kind") not in state.picks.get(seat, []):
        return f"Your army has no {args.get('kind')} to drop (rule 3.032)"
    return ""


def _counters(state: State, seat: str, gid: str) -> tuple[list[Counter], str]:
    out = []
    for i in gid.split("+"):
        c = state.counters.get(i)
        if c is None:
            return [], f"There is no counter {i}; counters are named like R3 or B12"
        if c.side != seat:
            return [], f"{describe(c)} is a {c.side} counter; you command the {seat} hive"
        out.append(c)
    return out, ""


def _move(state: State, seat: str, args: dict[str, str], charge: bool = False) -> str:
    if state.step == "face":
        return f"First face the stack in {state.face_hex} (rule 6.06)"
    members, err = _counters(state, seat, args.get("stack", ""))
    if err:
        return err
    to = args.get("to", "")
    g = geo()
    for c in members:
        if c.where == "dead":
            return f"{describe(c)} has been destroyed"
        if c.where == "exited":
            return f"{describe(c)} has left the map and may not come back (rule 6.07)"
        if c.moved:
            return f"{describe(c)} has already moved this turn (rule 6.02)"
        if c.where == "reserve" and c.ready_turn > state.turn:
            return f"The replacement Worker {c.id} may enter from your next turn (rule 6.083)"
        if not is_ground(c):
            return f"{describe(c)} is an air unit: use /fly (rule 8.011)"
    if len({c.hex for c in members}) > 1:
        return f"{args['stack']} are not in one hex: only counters of one stack move together"
    if charge:
        text = _charge_problem(state, members)
        if text:
            return text
    if to == "off":
        return f"Units may leave the map only by their own ({state.ends[seat]}) end, from a hex on its edge, for 1 movement point (rule 6.07)"
    if to not in g.hex_of:
        return f"{to} is not a hex of the map; write four digits, column then row, like 0608"
    idx = Index(state)
    h = g.hex_of[to]
    if idx.side_at(h) not in (None, seat):
        return f"{to} holds enemy units: ground units never move onto or through them (rule 6.09)"
    if not movement.fits(idx, seat, members, h):
        return _overstacked(idx, seat, members, h, to)
    if any(c.disrupted for c in members):
        return "Disrupted units move only one hex and never into an enemy zone of control (rule 7.064)"
    start = g.hex_of[members[0].hex] if members[0].where == "map" else None
    far = movement.reach(state, idx, seat, members, start, bonus=50)
    if to not in far:
        if all(role(c) == "worker" for c in members):
            return f"No way to {to}: a Worker may not enter an enemy zone of control without a combat unit (rule 6.082)"
        return f"No way leads to {to}: enemy units block every path (rule 6.09)"
    have = min(c.mp for c in members) + (2 if charge else 0)
    if charge and to in far and not movement.next_to_enemy(idx, seat, h):
        return "A charge must end next to an enemy it can attack (rule 8.021)"
    return (
        f"Reaching {to} costs {far[to]} movement points and {args['stack']} has {have} "
        "(terrain rules 6.03, 6.031; enemy zones of control +1, rule 6.04)"
    )


def _charge_problem(state: State, members: list[Counter]) -> str:
    if not state.advanced:
        return "Charges belong to the advanced rules, which this scenario does not use (rule 8.02)"
    if not any(c.type in ("GT", "PX") for c in members):
        return "Only Gantuas and Phlanx may charge, with the Basics of their stack (rule 8.02)"
    for c in members:
        if c.type not in ("GT", "PX", "B"):
            return f"Only Gantuas and Phlanx may charge, with the Basics of their stack; {describe(c)} may not (rule 8.02)"
        if c.charging:
            return f"{describe(c)} is already charging this move (rule 8.021)"
        if c.began_disrupted:
            return f"{describe(c)} began its move disrupted and may not charge (rules 8.025, 8.034)"
    if len({c.type for c in members if c.type != "B"}) > 1:
        return "Charge with one type of warrior at a time (rule 6.051)"
    return ""


def _charge(state: State, seat: str, args: dict[str, str]) -> str:
    return _move(state, seat, args, charge=True)


def _fly(state: State, seat: str, args: dict[str, str]) -> str:
    c = state.counters.get(args.get("unit", ""))
    if not state.advanced:
        return "Air units belong to the advanced rules, which this scenario does not use (rule 8.01)"
    if c is None or c.side != seat or c.type != "PL":
        return f"{args.get('unit')} is not one of your Plunge counters (rule 8.011)"
    g = geo()
    idx = Index(state)
    if c.mp < 1:
        return f"{describe(c)} has used its two megahexes of movement this turn (rule 8.011)"
    if c.where == "map":
        hold = movement.air_hold(idx, seat, g.mega[g.hex_of[c.hex]], c)
        if hold:
            return f"{describe(c)} must stay: {hold}"
    to = args.get("to", "")
    if to in g.hex_of and to not in movement.air_reach(state, seat, c, idx):
        free = c.model_copy(update={"entered": False})
        trial = state.model_copy(update={"counters": {k: v for k, v in state.counters.items() if v.side == seat or v.type != "PL"}})
        if to in movement.air_reach(trial, seat, free):
            return (
                f"{describe(c)} cannot fly over a megahex holding enemy air units: entering one, it must stop "
                "there and attack them, unless others that entered it stay with at least their strength (rule 8.014)"
            )
    if args.get("to") == "off":
        return f"Air units leave only by your own ({state.ends[seat]}) end, from a megahex on it (rules 6.07, 8.011)"
    return f"{describe(c)} moves two megahexes a turn; megahexes are named by their centre hex (rule 8.011)"


def _face(state: State, seat: str, args: dict[str, str]) -> str:
    where = args.get("stack", "")
    if state.step != "face" and where in state.counters:
        return f"Name the stack by its hex, not by a counter: {describe(state.counters[where])} is in {state.counters[where].hex} (rule 6.06)"
    if state.step != "face" and (where not in geo().hex_of or not Index(state).stack(geo().hex_of[where], seat)):
        return f"You have no stack in {where or 'that hex'}; name one of your stacks by its hex (rule 6.06)"
    if args.get("dir") not in DIRS:
        return "Facing is one of N, NE, SE, S, SW, NW (rule 6.06)"
    if state.step == "face":
        if args.get("stack") != state.face_hex:
            return f"Face the stack that just moved, in {state.face_hex} (rule 6.06)"
        if state.face_charge:
            return "A charging stack must face an enemy it will attack (rule 8.021)"
    if state.step == "move":
        st = Index(state).stack(geo().hex_of[where], seat)
        if DIRS[st[0].facing] == args.get("dir"):
            return f"The stack in {where} already faces {args.get('dir')} (rule 6.06)"
        if any(c.turned for c in st):
            return f"The stack in {where} has turned in place this turn; give its final facing when it moves (rule 6.06)"
        return (
            "Only a stack that has not moved may turn where it stands; a stack that moves is faced with its "
            "move (/move dir:) or right after it (rule 6.06)"
        )
    return ""


def _attack(state: State, seat: str, args: dict[str, str]) -> str:
    if state.step != "attack":
        return "Attacks are declared after movement, once you send /done (rule 5.00)"
    g = geo()
    by, on = args.get("by", ""), args.get("on", "")
    idx = Index(state)
    if by in state.counters:
        c = state.counters[by]
        if on == "air":
            return f"There are no enemy air units in the megahex of {describe(c)}, or it already attacks the ground (rule 8.014)"
        return f"{describe(c)} makes one attack, on a stack in its own megahex or on the air units there (rules 8.011, 8.015)"
    if by not in g.hex_of or not idx.stack(g.hex_of[by], seat):
        return f"You have no stack in {by}; attackers are named by their hex, air units by id"
    if on == "air":
        return "Ground units may never attack air units (rule 8.015)"
    if on not in g.hex_of or idx.side_at(g.hex_of[on]) in (None, seat):
        return f"There is no enemy stack in {on}"
    st = idx.stack(g.hex_of[by], seat)
    if not in_front(g.hex_of[by], st[0].facing, g.hex_of[on]):
        return f"The enemy stack in {on} is not in front of your stack in {by}: a unit attacks only the three hexes in front of it (rule 7.02)"
    if all(role(c) == "worker" for c in st):
        return "Workers cannot attack (rule 2.023)"
    return f"The stack in {by} already attacks {on}"


def _overrun(state: State, seat: str, args: dict[str, str]) -> str:
    g = geo()
    src, dst = args.get("stack", ""), args.get("on", "")
    if state.step != "move":
        return "Overruns are made in the movement phase (rule 7.07)"
    keys = [k for k in src.split("+") if k]
    if not keys or dst not in g.hex_of or any(k not in g.hex_of and k not in state.counters for k in keys):
        return (
            "Name your stacks by their hexes and your air units by their ids, joined by +, and the enemy "
            "stack by its hex, like stack:0607+0709+R12 on:0608 (rule 7.07)"
        )
    idx = Index(state)
    if idx.side_at(g.hex_of[dst]) in (None, seat):
        return f"There is no enemy stack in {dst} (rule 7.07)"
    ground, air = movement.overrun_parts(state, idx, seat, g.hex_of[dst])
    for k in keys:
        if k in state.counters:
            c = state.counters[k]
            if c.side != seat or role(c) != "air" or c.where != "map":
                return f"{k} is not one of your air units on the map (rule 7.07)"
            if k not in air:
                return f"{describe(c)} is not in the megahex of {dst}, so it cannot join the overrun (rules 7.07, 8.011)"
            continue
        mine = [c for c in idx.stack(g.hex_of[k], seat) if role(c) in ("warrior", "basic")]
        if not mine:
            return f"You have no combat units in {k} (rule 7.07)"
        if any(c.disrupted for c in mine):
            return f"The stack in {k} is disrupted and cannot attack (rule 7.064)"
        if k not in ground:
            return f"The enemy stack in {dst} is not in front of your stack in {k} (rules 7.02, 7.07)"
    if not any(k in g.hex_of for k in keys):
        return "An overrun needs at least one ground stack to go through the hex; air units may join it (rule 7.07)"
    attack, dfn = movement.overrun_odds(state, idx, seat, keys, dst)
    if attack < 6 * dfn:
        return f"An overrun needs 6 to 1 or better; {'+'.join(keys)} have {attack} to {dfn} (rule 7.07)"
    return f"Write the attackers as {movement.overrun_key([k for k in keys if k in g.hex_of], [k for k in keys if k not in g.hex_of])} (rule 7.07)"


def _done(state: State, seat: str, args: dict[str, str]) -> str:
    if state.step == "attack":
        return "Your attacks cannot stand yet: " + "; ".join(unmet(state, Index(state), seat))
    return ""


def _retreat(state: State, seat: str, args: dict[str, str]) -> str:
    if state.step == "combat" and state.queue and state.queue[0].kind == "retreat":
        units = results.alive(state, state.queue[0].units)
        gid = movement.group_id(units)
        given = args.get("stack", "")
        if given != gid:
            hint = f"name the counter ({gid}), not its hex" if given in geo().hex_of else f"the retreating stack is {gid}"
            return f"{given or 'That'} is not the retreating stack: {hint} (rule 7.066)"
        ok = results.retreat_choices(state, state.queue[0])
        return f"The stack retreats one hex into an empty or friendly hex where it can stack: {', '.join(ok)} (rule 7.066)"
    return ""


def _lose(state: State, seat: str, args: dict[str, str]) -> str:
    if state.step == "combat" and state.queue and state.queue[0].kind == "loss":
        return f"Losses come from the units in that combat: {', '.join(state.queue[0].units)} (rule 7.063)"
    return ""


_BY_VERB = {
    "pick": _pick,
    "drop": _drop,
    "ready": _ready,
    "move": _move,
    "charge": _charge,
    "fly": _fly,
    "face": _face,
    "attack": _attack,
    "done": _done,
    "overrun": _overrun,
    "retreat": _retreat,
    "lose": _lose,
}


def _overstacked(idx: Index, seat: str, members: list[Counter], h: Hex, to: str) -> str:
    """Which stacking rule a move into ``to`` breaks: more than three units (6.05) or two types of
    warrior (6.051), with what stands there already."""
    ids = {c.id for c in members}
    there = [c for c in idx.stack(h, seat) if c.id not in ids]
    held = ", ".join(describe(c) for c in there)
    stack = there + [c for c in members if is_ground(c)]
    units = sum(c.units for c in stack)
    if units > movement.MAX_UNITS:
        return (f"{to} would hold {units} units, more than three (rule 6.05): {held} "
                f"{'is' if len(there) == 1 else 'are'} there already")
    kinds = sorted({unit_type(c.type).name for c in stack if role(c) == "warrior"})
    return (f"{to} would mix two types of warrior, {' and '.join(kinds)}, where a stack holds warriors of one "
            f"type (rule 6.051): "
            f"{held} {'is' if len(there) == 1 else 'are'} there already")
