"""The OneWorld commands as the bot lists them: help text, rule and arguments."""

from __future__ import annotations

from engine.core.protocol import ArgSpec, VerbSpec

_ASPECT = ArgSpec(name="aspect", help="Stone, Blade or Fog", kind="choice")

SPECS: list[VerbSpec] = [
    VerbSpec(
        verb="order",
        rule="3.2",
        help="Having won the set-up roll, set up first or second",
        args=(ArgSpec(name="setup", help="first or second"),),
    ),
    VerbSpec(
        verb="defend",
        rule="3.3",
        help="Choose the end of the map your god defends (first to set up)",
        args=(ArgSpec(name="end", help="north or south (New Geography: west or east)"),),
    ),
    VerbSpec(
        verb="tower",
        rule="3.4",
        help="Choose your Tower of Balance hex (second to set up); the other goes to your opponent",
        args=(ArgSpec(name="hex", help="one of the two Tower hexes", kind="hex"),),
    ),
    VerbSpec(
        verb="gods",
        rule="3.3",
        help="Place your three gods in one hex within three hexes of your end",
        args=(ArgSpec(name="hex", help="the gods' hex", kind="hex"),),
    ),
    VerbSpec(
        verb="place",
        rule="3.3",
        help="Place your next Child, in any aspect, within seven hexes of your god (at most 4 a hex, 7.2)",
        args=(ArgSpec(name="hex", help="where the Child stands", kind="hex"), _ASPECT),
    ),
    VerbSpec(
        verb="place_all",
        rule="3.3",
        help="Place all your remaining Children in a default formation around your god",
    ),
    VerbSpec(verb="done", rule="3.5", help="Confirm your set-up once all thirteen Children are placed"),
    VerbSpec(
        verb="move",
        rule="6.1",
        help=(
            "Move one Child: Stone one hex (6.2); Blade five hexes straight, given as a direction (6.3); "
            "Fog one to three hexes, by the path crossing the fewest Faults (6.4)"
        ),
        args=(
            ArgSpec(name="child", help="the Child's id, e.g. B7", kind="unit"),
            ArgSpec(
                name="to",
                help="the hex a Stone or Fog moves to (chaos with Chaos Gambit I)",
                kind="hex",
                required=False,
            ),
            ArgSpec(
                name="dir",
                help="the direction a Blade runs: N, NE, SE, S, SW or NW",
                kind="direction",
                required=False,
            ),
            ArgSpec(
                name="confirm",
                help="write lost to send a Blade off the map into Chaos Itself (5.6)",
                required=False,
            ),
            ArgSpec(
                name="steps",
                help="Friendly Obstacle: stop the Blade after this many hexes on a friendly Stone",
                kind="int",
                required=False,
            ),
        ),
    ),
    VerbSpec(
        verb="transform",
        rule="12.0",
        help="God Powers: your god changes the aspect of one Child not in combat",
        args=(ArgSpec(name="child", help="the Child's id", kind="unit"), _ASPECT),
    ),
    VerbSpec(
        verb="flee",
        rule="12.0",
        help="Flee While You Can: move your wounded god one hex",
        args=(ArgSpec(name="to", help="the hex the god moves to", kind="hex"),),
    ),
    VerbSpec(verb="end", rule="4.2", help="End your movement: reinforcement (9.2), then every combat (8.2)"),
    VerbSpec(
        verb="fight",
        rule="8.1",
        help="Choose which hex's combat is fought next",
        args=(ArgSpec(name="hex", help="a hex with Children of both gods", kind="hex"),),
    ),
    VerbSpec(
        verb="aspects",
        rule="8.2",
        secret=True,
        help="In secret, choose how many of your Children in the combat hex are Stone, Blade and Fog",
        args=(
            ArgSpec(name="stone", help="how many Stone (none if left out)", kind="int", required=False),
            ArgSpec(name="blade", help="how many Blade (none if left out)", kind="int", required=False),
            ArgSpec(name="fog", help="how many Fog (none if left out)", kind="int", required=False),
        ),
    ),
    VerbSpec(
        verb="aspect",
        rule="10.4",
        secret=True,
        help="In secret, choose the aspect of your accosting Child, or of your accosted god",
        args=(_ASPECT,),
    ),
]
