"""The commands of Chitin: I, for help texts and slash commands."""

from __future__ import annotations

from engine.core.protocol import ArgSpec, VerbSpec

STACK = ArgSpec(name="stack", help="counter id (R3) or ids joined by + (R3+R7) moving together", kind="unit")
TO = ArgSpec(name="to", help="hex number such as 0608, or 'off' to leave by your own end", kind="hex")
DIR = ArgSpec(name="dir", help="facing: N, NE, SE, S, SW or NW", kind="direction")
END_DIR = ArgSpec(name="dir", help="facing at the end of the move (N, NE, SE, S, SW or NW); without it you are asked",
                  kind="direction", required=False)

VERBS = [
    VerbSpec(verb="pick", help="add a counter to your secret army (GT3 is a 3-unit Gantua)", rule="3.032", secret=True,
             args=(ArgSpec(name="kind", help="counter kind: GT1-3, PX1-3, LR1-3, TR1-3, PL1/2/4, B"),)),
    VerbSpec(verb="drop", help="take a counter out of your secret army", rule="3.032", secret=True,
             args=(ArgSpec(name="kind", help="counter kind"),)),
    VerbSpec(verb="ready", help="commit your secret army", rule="3.032", secret=True),
    VerbSpec(verb="choose", help="high roller: first move or an end; then the other player's end", rule="3.02",
             args=(ArgSpec(name="pick", help="first, north or south"),)),
    VerbSpec(verb="move", help="move a counter or a stack and face it (entering from your end, or leaving by it)",
             rule="6.0", args=(STACK, TO, END_DIR)),
    VerbSpec(verb="charge", help="charge-move Gantuas or Phlanx, with their Basics (+2 movement, must attack, doubled "
             "strength); to: its own hex charges from where it stands", rule="8.02", args=(STACK, TO, END_DIR)),
    VerbSpec(verb="fly", help="fly a Plunge counter to a megahex (named by its centre hex); it must stop where enemy air "
             "units are", rule="8.011", args=(ArgSpec(name="unit", help="air counter id", kind="unit"), TO)),
    VerbSpec(verb="split", help="split a Plunge counter in two (4 into 2+2, 2 into 1+1) during its move",
             rule="8.011", args=(ArgSpec(name="unit", help="air counter id", kind="unit"),)),
    VerbSpec(verb="overrun", help="overrun an enemy stack at 6 to 1 or better; every stack that took part may go on "
             "through its hex", rule="7.07",
             args=(ArgSpec(name="stack", help="your stacks' hexes and air units' ids joined by +, like 0607+0709+R12"),
                   ArgSpec(name="on", help="hex of the enemy stack", kind="hex"))),
    VerbSpec(verb="face", help="set the facing of the stack in a hex (free; once in place before it moves)", rule="6.06",
             args=(ArgSpec(name="stack", help="hex of the stack", kind="hex"), DIR)),
    VerbSpec(verb="attack", help="declare an attack: your stack (hex) or air unit (id) on an enemy hex or 'air'",
             rule="7.03", args=(ArgSpec(name="by", help="hex of your stack, or id of an air unit"),
                                ArgSpec(name="on", help="hex of the enemy stack, or 'air'"))),
    VerbSpec(verb="cancel", help="take back a declared attack", rule="7.03",
             args=(ArgSpec(name="by", help="attacker"), ArgSpec(name="on", help="target"))),
    VerbSpec(verb="lose", help="choose a unit to lose (one unit of that counter)", rule="7.063",
             args=(ArgSpec(name="unit", help="counter id", kind="unit"),)),
    VerbSpec(verb="retreat", help="retreat an enemy stack one hex (or megahex)", rule="7.066", args=(STACK, TO)),
    VerbSpec(verb="advance", help="advance a winning stack into a vacated hex and face it", rule="7.066",
             args=(ArgSpec(name="stack", help="hex of your stack", kind="hex"), TO, DIR)),
    VerbSpec(verb="defend", help="combat: dice: accept_and_counter, retreat or retreat_and_counter (Workers alone: "
             "accept or retreat)", rule="7.06",
             args=(ArgSpec(name="choice", help="accept_and_counter, retreat, retreat_and_counter or accept"),)),
    VerbSpec(verb="press", help="combat: dice: after a counter-attack, accept the hits or retreat", rule="7.06",
             args=(ArgSpec(name="choice", help="accept or retreat"),)),
    VerbSpec(verb="done", help="finish moving, declaring attacks, or advancing"),
]
