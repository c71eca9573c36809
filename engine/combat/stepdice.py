"""Step-reduction dice combat (step-reduction-combat.txt): a bucket of dice, each six a hit.

The API is a few pure functions and one immutable exchange. Nothing here draws
randomness: every die comes from the ``Dice`` passed in, and every ``Volley``
records the dice that fell.

Pieces a game can use on their own::

    roll_hits(dice, strength, advantages=0, why="attack") -> Volley
        strength dice, each six a hit; one re-roll of all misses per advantage (Re-rolls)
    reduced_hits(hits, retreating) -> int            # note [1]: one hit ignored per two retreating
    half_strength(strength) -> int                   # note [2]: halved, rounded up
    attack_strength(stack) / counter_strength(stack, retreating)   # Extra attack strength
    begin_hits / hit_targets / land_hit / land_forced / land_all   # engine.combat.steps: Taking hits
    judge_retreat / check_split / may_advance / check_stacking      # engine.combat.retreats

The whole sequence of the text, one decision at a time::

    ex = open_exchange(attacker, defender, options, dice)          # the attack is rolled
    # (attack_dice=, defence_dice= when a game counts strength its own way)
    ex.defender_options() -> ["accept_and_counter", "retreat", "retreat_and_counter"]
    ex = choose_defence(ex, "retreat_and_counter", dice)            # counter-attack rolled if any
    ex.attacker_options() -> ["accept", "retreat"]
    ex = choose_attack(ex, "accept")
    while ex.step == "hits":        # only when a player must say where hits land
        ex.placing, ex.chooser(), ex.targets()
        ex = place_hit(ex, unit_id)
    while ex.step == "advance":     # Advancing: the side in ex.advancing may move in
        ex = choose_advance(ex, True)
    ex.step == "done"; ex.attacker, ex.defender are the stacks afterwards; ex.notes tell the story

``Stack`` and ``Unit`` (engine.combat.steps) describe the forces: units top of the
stack first, each with a strength, the flags ``extra_defence`` and ``soft``, and
``step_points`` where one hit removes more (a whole unit); a
stack's ``redoubt`` (its intrinsic strength), ``cover`` (a city's extra
defense) and ``advantages`` (re-rolls). ``StepOptions`` names every option.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.combat.retreats import check_stacking, may_advance
from engine.combat.stepoptions import StepOptions
from engine.combat.steps import HitTally, Stack, begin_hits, hit_targets, land_all, land_forced, land_hit
from engine.core.dice import Dice
from engine.core.errors import IllegalAction

Side = Literal["attacker", "defender"]
DefenderChoice = Literal["accept_and_counter", "retreat", "retreat_and_counter"]
AttackerChoice = Literal["accept", "retreat"]
ExchangeStep = Literal["defender_choice", "attacker_choice", "hits", "advance", "done"]

DEFENDER_CHOICES: tuple[DefenderChoice, ...] = ("accept_and_counter", "retreat", "retreat_and_counter")
ATTACKER_CHOICES: tuple[AttackerChoice, ...] = ("accept", "retreat")
HIT = 6


class Volley(BaseModel):
    """One side's dice: the first roll, then each re-roll of the misses, in order."""

    model_config = ConfigDict(frozen=True)

    strength: int
    passes: tuple[tuple[int, ...], ...] = ()

    @property
    def hits(self) -> int:
        """Every six in every pass."""
        return sum(d == HIT for p in self.passes for d in p)

    def text(self) -> str:
        """The dice as players read them: ``8 dice: 6 2 3 6 1 4 5 2; re-roll 6: ...; 2 hits``."""
        if not self.passes:
            return "no dice: no hits"
        parts = [f"{self.strength} dice: " + " ".join(map(str, self.passes[0]))]
        parts += [f"re-roll {len(p)}: " + " ".join(map(str, p)) for p in self.passes[1:]]
        return "; ".join(parts) + f"; {hits_text(self.hits)}"


def roll_hits(dice: Dice, strength: int, advantages: int = 0, why: str = "attack") -> Volley:
    """Roll ``strength`` dice, each six a hit, re-rolling all misses once per advantage (Re-rolls)."""
    passes: list[tuple[int, ...]] = []
    misses = strength
    for n in range(advantages + 1):
        if misses <= 0:
            break
        label = why if n == 0 else f"{why}, re-roll {n}"
        faces = tuple(dice.roll(6, f"{label}, die {i + 1} of {misses}") for i in range(misses))
        passes.append(faces)
        misses = sum(f != HIT for f in faces)
    return Volley(strength=strength, passes=tuple(passes))


def reduced_hits(hits: int, retreating: int) -> int:
    """Note [1]: ignore one hit for every two retreating units (or points), fraction dropped."""
    return max(0, hits - retreating // 2)


def half_strength(strength: int) -> int:
    """Note [2]: a counter-attack while retreating rolls half the original strength, rounded up."""
    return (strength + 1) // 2


def attack_strength(stack: Stack) -> int:
    """The attack's dice: the units' strength plus a redoubt's intrinsic strength (Extra attack strength)."""
    return stack.strength + stack.redoubt


def counter_strength(stack: Stack, retreating: bool) -> int:
    """The counter-attack's dice: full strength with the redoubt, or half the units' strength in retreat."""
    return half_strength(stack.strength) if retreating else attack_strength(stack)


def retreat_count(stack: Stack, options: StepOptions) -> int:
    """What note [1] counts: strength points (its example) or units, by ``reduce_per``."""
    return stack.strength if options.reduce_per == "strength" else len(stack.units)


class Exchange(BaseModel):
    """One attack and its answer, from the first roll to the last advance."""

    model_config = ConfigDict(frozen=True)

    options: StepOptions
    attacker: Stack
    defender: Stack
    attack: Volley
    counter: Volley | None = None
    defender_choice: DefenderChoice | None = None
    attacker_choice: AttackerChoice | None = None
    attacker_can_retreat: bool = True
    defender_can_retreat: bool = True
    defence_dice: int | None = None
    """The defending stack's original strength as the game counts it, when not its units' strength."""
    hits_on: dict[str, int] = {}
    step: ExchangeStep = "defender_choice"
    placing: Side | None = None
    tally: HitTally | None = None
    tallies: dict[str, HitTally] = {}
    advancing: Side | None = None
    advanced: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def retreated(self, side: Side) -> bool:
        """Whether ``side`` chose to retreat."""
        choice = self.defender_choice if side == "defender" else self.attacker_choice
        return choice is not None and choice.startswith("retreat")

    def stack(self, side: Side) -> Stack:
        """The stack of ``side`` as it stands now."""
        return self.attacker if side == "attacker" else self.defender

    def defender_options(self) -> list[DefenderChoice]:
        """The defender's choices now; retreats only when the caller found a retreat open."""
        if self.step != "defender_choice":
            return []
        return [c for c in DEFENDER_CHOICES if self.defender_can_retreat or not c.startswith("retreat")]

    def attacker_options(self) -> list[AttackerChoice]:
        """The attacker's choices after a counter-attack."""
        if self.step != "attacker_choice":
            return []
        return [c for c in ATTACKER_CHOICES if self.attacker_can_retreat or c == "accept"]

    def counter_dice(self, retreating: bool) -> int:
        """The counter-attack's dice: full strength, or half of it rounded up in retreat (note [2])."""
        if self.defence_dice is None:
            return counter_strength(self.defender, retreating)
        return half_strength(self.defence_dice) if retreating else self.defence_dice

    def chooser(self) -> Side | None:
        """Who says where the next hit lands (Taking hits 1: the side that rolled; 2: the owner)."""
        if self.step != "hits" or self.placing is None:
            return None
        if self.options.hit_allocation == "defender":
            return self.placing
        return _other(self.placing)

    def targets(self) -> list[str]:
        """Units the next hit may land on."""
        if self.placing is None or self.tally is None:
            return []
        return hit_targets(self.stack(self.placing), self.tally)


def open_exchange(
    attacker: Stack,
    defender: Stack,
    options: StepOptions,
    dice: Dice,
    *,
    attacker_can_retreat: bool = True,
    defender_can_retreat: bool = True,
    attack_dice: int | None = None,
    defence_dice: int | None = None,
) -> Exchange:
    """The attacker attacks: check stacking, roll the attack, and wait on the defender's choice.

    ``attack_dice`` and ``defence_dice`` replace the stacks' strengths as dice counts
    where a game counts strength its own way (a charge doubling it, say).
    """
    for who, stack in (("attacker", attacker), ("defender", defender)):
        if not stack.units:
            raise IllegalAction(f"the {who} has no units in the stack: give at least one unit")
        check_stacking(stack, options, who)
    strength = attack_strength(attacker) if attack_dice is None else attack_dice
    volley = roll_hits(dice, strength, attacker.advantages, "attack")
    told = _strength_text(attacker) if attack_dice is None else str(attack_dice)
    note = f"The attacker attacks with {told}: {volley.text()}."
    return Exchange(
        options=options,
        attacker=attacker,
        defender=defender,
        attack=volley,
        attacker_can_retreat=attacker_can_retreat,
        defender_can_retreat=defender_can_retreat,
        defence_dice=defence_dice,
        notes=(note,),
    )


def choose_defence(ex: Exchange, choice: DefenderChoice, dice: Dice) -> Exchange:
    """The defender accepts the hits and counter-attacks, or retreats (with or without counter-attack)."""
    if choice not in ex.defender_options():
        raise IllegalAction(_no_choice("defender", choice, ex.defender_options()))
    retreating = choice != "accept_and_counter"
    hits = ex.attack.hits
    if retreating:
        hits = reduced_hits(hits, retreat_count(ex.defender, ex.options))
    notes = [_defence_note(ex, choice, hits)]
    update: dict = {"defender_choice": choice, "hits_on": {"defender": hits}}
    if choice == "retreat":
        update["hits_on"]["attacker"] = 0
        return _start_hits(ex.model_copy(update={**update, "notes": ex.notes + tuple(notes)}))
    strength = ex.counter_dice(retreating)
    volley = roll_hits(dice, strength, ex.defender.advantages, "counter-attack")
    notes.append(f"The defender counter-attacks with {strength}: {volley.text()}.")
    update.update(counter=volley, step="attacker_choice", notes=ex.notes + tuple(notes))
    return ex.model_copy(update=update)


def choose_attack(ex: Exchange, choice: AttackerChoice) -> Exchange:
    """After a counter-attack, the attacker takes the total hits or retreats with reduced hits."""
    if choice not in ex.attacker_options():
        raise IllegalAction(_no_choice("attacker", choice, ex.attacker_options()))
    assert ex.counter is not None
    hits = ex.counter.hits
    if choice == "retreat":
        hits = reduced_hits(hits, retreat_count(ex.attacker, ex.options))
        note = f"The attacker retreats and takes {hits_text(hits)} of {ex.counter.hits} (note [1])."
    else:
        note = f"The attacker accepts {hits_text(hits)}."
    update = {
        "attacker_choice": choice,
        "hits_on": {**ex.hits_on, "attacker": hits},
        "notes": ex.notes + (note,),
    }
    return _start_hits(ex.model_copy(update=update))


def place_hit(ex: Exchange, unit_id: str) -> Exchange:
    """The chooser puts the next hit on ``unit_id`` (Taking hits 1 or 2)."""
    if ex.step != "hits" or ex.placing is None or ex.tally is None:
        raise IllegalAction("no hits are waiting to be placed now")
    stack, tally = land_hit(ex.stack(ex.placing), ex.tally, unit_id)
    return _continue_hits(ex, ex.placing, stack, tally)


def choose_advance(ex: Exchange, advance: bool) -> Exchange:
    """The side in ``ex.advancing`` moves into the vacated hex, or holds (Advancing)."""
    if ex.step != "advance" or ex.advancing is None:
        raise IllegalAction("no advance is open now")
    side = ex.advancing
    note = f"The {side} {'advances into the vacated hex' if advance else 'holds its hex'}."
    advanced = ex.advanced + ((side,) if advance else ())
    ex = ex.model_copy(update={"advanced": advanced, "notes": ex.notes + (note,)})
    return _next_advance(ex, after=side)


# -- the steps between decisions ---------------------------------------------------------------


def _start_hits(ex: Exchange) -> Exchange:
    return _next_hits(ex.model_copy(update={"step": "hits"}), after=None)


def _next_hits(ex: Exchange, after: Side | None) -> Exchange:
    # The defender's losses are placed first, then the attacker's.
    if after == "attacker":
        return _after_hits(ex)
    side: Side = "defender" if after is None else "attacker"
    in_redoubt = not ex.retreated(side)
    stack, tally = begin_hits(ex.stack(side), ex.hits_on.get(side, 0), in_redoubt, ex.options.redoubt_absorbs)
    return _continue_hits(ex, side, stack, tally)


def _continue_hits(ex: Exchange, side: Side, stack: Stack, tally: HitTally) -> Exchange:
    if ex.options.hit_allocation == "stacking_order":
        stack, tally = land_all(stack, tally)
    else:
        stack, tally = land_forced(stack, tally)
    update = {side: stack, "placing": side, "tally": tally}
    ex = ex.model_copy(update=update)
    if tally.remaining > 0:
        return ex
    ex = ex.model_copy(
        update={
            "tallies": {**ex.tallies, side: tally},
            "tally": None,
            "placing": None,
            "notes": ex.notes + (_loss_note(side, tally, stack),),
        }
    )
    return _next_hits(ex, after=side)


def _after_hits(ex: Exchange) -> Exchange:
    return _next_advance(ex.model_copy(update={"step": "advance"}), after=None)


def _next_advance(ex: Exchange, after: Side | None) -> Exchange:
    order: list[Side] = ["attacker", "defender"]
    for side in order[order.index(after) + 1 :] if after else order:
        enemy = _other(side)
        open_ = may_advance(
            ex.options,
            enemy_retreated=ex.retreated(enemy),
            enemy_eliminated=not ex.stack(enemy).units,
            retreated=ex.retreated(side),
            survivors=bool(ex.stack(side).units),
        )
        if open_:
            return ex.model_copy(update={"advancing": side})
    return ex.model_copy(update={"step": "done", "advancing": None})


def _other(side: Side) -> Side:
    return "defender" if side == "attacker" else "attacker"


def hits_text(n: int) -> str:
    """``1 hit``, ``3 hits``."""
    return "1 hit" if n == 1 else f"{n} hits"


def _strength_text(stack: Stack) -> str:
    if stack.redoubt:
        return f"{stack.strength + stack.redoubt} ({stack.strength} and a redoubt of {stack.redoubt})"
    return str(stack.strength)


def _defence_note(ex: Exchange, choice: DefenderChoice, hits: int) -> str:
    if choice == "accept_and_counter":
        return f"The defender accepts {hits_text(hits)} and counter-attacks."
    tail = " and counter-attacks at half strength (note [2])" if choice == "retreat_and_counter" else ""
    return f"The defender retreats, taking {hits_text(hits)} of {ex.attack.hits} (note [1]){tail}."


def _loss_note(side: Side, tally: HitTally, stack: Stack) -> str:
    parts = []
    if tally.absorbed:
        parts.append(f"the redoubt absorbs {hits_text(tally.absorbed)}")
    if tally.losses:
        counts = {u: tally.losses.count(u) for u in dict.fromkeys(tally.losses)}
        parts.append("steps lost: " + ", ".join(f"{u} {n}" for u, n in counts.items()))
    if tally.eliminated:
        parts.append("eliminated: " + ", ".join(tally.eliminated))
    if tally.wasted:
        parts.append(f"{hits_text(tally.wasted)} without effect")
    if tally.redoubt_lost:
        parts.append(f"the redoubt loses {tally.redoubt_lost} strength")
    left = ", ".join(f"{u.id} {u.strength}" for u in stack.units) or "nothing"
    body = "; ".join(parts) if parts else "no losses"
    return f"The {side}'s stack: {body}; left: {left}."


def _no_choice(who: str, choice: str, allowed: list) -> str:
    if not allowed:
        return f"the {who} has no choice to make now"
    return f"'{choice}' is not open to the {who} now; the choices are: " + ", ".join(allowed)
