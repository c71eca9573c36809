"""Confirmations for what cannot be taken back: resigning, and legal orders a player could easily regret.

An order the game flags with a caution (``GameRules.caution``: Annihilator's ``/done`` that sets
off a charge on the Marines' own units; Chitin's ``/ready`` with points unspent, though the rules
refuse that order first, RULINGS Chitin 11) is not
applied at once: the player is told why, privately, with a red button that gives the same
order with ``confirm:yes``. ``/game resign`` asks the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.answers import polite
from bot.replies import Button, Command, Reply
from engine.core.labels import ENDING_VERBS
from engine.core.protocol import Action

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

CONFIRM = "confirm"
YES = "yes"


def confirmed(args: dict[str, str]) -> bool:
    """``confirm:yes`` was given (a game's own ``confirm`` values, like OneWorld's ``lost``, are not this)."""
    return args.get(CONFIRM, "").strip().casefold() == YES


def bot_args(args: dict[str, str]) -> dict[str, str]:
    """The order's arguments without the bot's own ``confirm:yes``."""
    return {k: v for k, v in args.items() if not (k == CONFIRM and confirmed(args))}


def confirm_line(g: Live, action: Action) -> str:
    return f"{action.text()} {CONFIRM}:{YES} game:{g.id}"


def ask(g: Live, cmd: Command, seat: str, action: Action, warning: str) -> Reply:
    """The private question before a regrettable order, with a red button to go ahead."""
    text = polite(warning).removeprefix("Sorry, ")
    text = f"Are you sure? {text[0].upper()}{text[1:]}\nPress the button (or add confirm:yes) to go ahead."
    label = f"{g.rules.label(action)} anyway"[:80]
    return Reply(to="private", user=cmd.user, place=cmd.place, game_id=g.id, seq=g.seq, text=text,
                 buttons=[Button(label=label, command=confirm_line(g, action), style="danger")])


def ask_resign(g: Live, cmd: Command, winner: str | None) -> Reply:
    """``/game resign`` asks first: the game ends at once and cannot be taken back."""
    who = f"{g.name_of(winner)} ({winner}) wins" if winner else "the game ends"
    return Reply(to="private", user=cmd.user, place=cmd.place, game_id=g.id, seq=g.seq,
                 text=f"Resign game #{g.id}? It ends at once and {who}; only a moderator can undo it. "
                      "Press the button (or add confirm:yes) to resign.",
                 buttons=[Button(label=f"Resign game #{g.id}", command=f"/game resign game:{g.id} confirm:yes",
                                 style="danger")])


def extra_lines(core: Core, g: Live, user: str) -> list[str]:
    """Button lines a player may press besides the prompt's answers: Undo, Resign, and cautioned orders."""
    if g.state is None or g.row.status != "active" or not g.seats_of(user):
        return []
    out = [f"/undo game:{g.id}", f"/game resign game:{g.id} confirm:yes"]
    for p in g.pending():
        if g.user_of(p.seat) != user:
            continue
        for a in g.rules.legal_now(g.state, p.seat):
            if a.verb in p.verbs and a.verb in ENDING_VERBS and g.rules.caution(g.state, p.seat, a):
                out.append(confirm_line(g, a))
    return out
