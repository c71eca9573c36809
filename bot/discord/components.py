"""Persistent buttons: choices carry ``hh:<game>:<seq>:<n>:<hash>`` and are checked against the core on click.

A choice button's command line is never stored: on a click it is recomputed from the
core (the invitation's answers, or ``core.buttons`` for the clicker's own prompts) and
matched by its short hash. A button whose game has moved on is refused politely, and
only the player a prompt waits on can use its buttons.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

import discord

from bot.confirm import extra_lines
from bot.replies import Button

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

MAX_BUTTONS = 25
PER_ROW = 5
CHOICE_TEMPLATE = r"hh:(?P<game>\d+):(?P<seq>\d+):(?P<n>\d+):(?P<h>[0-9a-f]{6})"
PANEL_TEMPLATE = r"hh:(?P<game>\d+):p:(?P<user>\d+)"
STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "danger": discord.ButtonStyle.danger}


def digest(line: str) -> str:
    """A short hash of a button's command line, carried in its custom id."""
    return hashlib.sha256(line.encode()).hexdigest()[:6]


def choice_id(game: int, seq: int, n: int, line: str) -> str:
    """The custom id of the ``n``-th choice of a reply made at action ``seq``."""
    return f"hh:{game}:{seq}:{n}:{digest(line)}"


def panel_id(game: int, user: str) -> str:
    """The custom id of a player's 'Choose privately' button."""
    return f"hh:{game}:p:{user}"


class StaticView(discord.ui.View):
    """Components only: clicks are routed by custom id to the dynamic items, so nothing is kept per message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def choices_view(game: int, seq: int, buttons: list[Button]) -> StaticView | None:
    """Buttons of a reply, 5 to a row, at most 25."""
    if not buttons:
        return None
    view = StaticView()
    for n, b in enumerate(buttons[:MAX_BUTTONS]):
        style = STYLES.get(b.style, discord.ButtonStyle.primary)
        view.add_item(discord.ui.Button(label=b.label[:80] or "choose", style=style,
                                        custom_id=choice_id(game, seq, n, b.command), row=n // PER_ROW))
    return view


def panel_view(game: int, user: str) -> StaticView:
    """The single 'Choose privately' button of a player whose direct messages are closed."""
    view = StaticView()
    view.add_item(discord.ui.Button(label="Choose privately", style=discord.ButtonStyle.secondary,
                                    custom_id=panel_id(game, user)))
    return view


# --- what a click means ---------------------------------------------------------------------------


def invite_lines(game: int) -> list[str]:
    """The answers to an invitation, as the core offers them."""
    return [f"/game accept game:{game}", f"/game decline game:{game}"]


def candidate_lines(core: Core, g: Live, user: str) -> list[str]:
    """Every button command ``user`` may press in game ``g`` now."""
    if g.row.status == "invited":
        return invite_lines(g.id)
    if g.state is None or g.row.status != "active":
        return []
    out: list[str] = []
    for p in g.pending():
        if g.user_of(p.seat) == user:
            out += [b.command for b in core.buttons(g, p.seat, p)]
    return out + extra_lines(core, g, user)  # Undo, Resign, and orders asked to be confirmed


def _owners(core: Core, g: Live, h: str) -> list[str]:
    if g.state is None:
        return []
    return [g.name_of(p.seat) for p in g.pending() if any(digest(b.command) == h for b in core.buttons(g, p.seat, p))]


async def resolve_choice(core: Core, game: int, seq: int, n: int, h: str, user: str) -> tuple[str | None, str]:
    """The command line a click sends, or ``(None, refusal)``."""
    g = await core.load(game)  # a button of a game start-up has not loaded yet loads it on click
    if g is None:
        return None, f"Sorry, game #{game} is no longer in play."
    if g.row.status == "paused":
        return None, f"Sorry, game #{game} is paused by a moderator; choices wait until it resumes."
    if not await _current(core, g, seq, user):
        return None, (f"Sorry, that choice is out of date: game #{game} has moved on. "
                      "/game status shows what it waits on now.")
    lines = candidate_lines(core, g, user)
    if n < len(lines) and digest(lines[n]) == h:
        return lines[n], ""
    found = [line for line in lines if digest(line) == h]
    if found:
        return found[0], ""
    owners = _owners(core, g, h)
    if owners:
        return None, f"Sorry, that choice is for {' and '.join(owners)}, not you."
    return None, f"Sorry, that choice is out of date: game #{game} has moved on."


async def _current(core: Core, g: Live, seq: int, user: str) -> bool:
    """True when nothing since action ``seq`` changed ``user``'s decision (``Core.still_current``; the
    core checks it again under the game's lock, for two clicks at once)."""
    return await core.still_current(g, seq, user)


def panel_prompts(g: Live, user: str) -> list[Any]:
    """The secret prompts that wait on ``user`` now."""
    return [p for p in g.pending() if p.secret and g.user_of(p.seat) == user]
