"""Persistent buttons: choices carry ``hh:<game>:<shown>:<n>:<hash>`` and are checked against the core on click.

``shown`` names the action after which the buttons were posted, as an opaque token (``t`` and ten
hex digits, keyed by a secret of the installation): a plain action number would tell anyone who
reads the button's id (any client's developer tools) how many sealed steps the other side has taken.
Buttons posted before the token carry the plain number and still work.

A choice button's command line is never stored: on a click it is recomputed from the
core (the invitation's answers, or ``core.buttons`` for the clicker's own prompts) and
matched by its short hash. A button whose game has moved on is refused politely, and
only the player a prompt waits on can use its buttons.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any

import discord

from bot.confirm import extra_lines
from bot.replies import MAX_BUTTONS, Button

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

PER_ROW = 5
CHOICE_TEMPLATE = r"hh:(?P<game>\d+):(?P<seq>\d+|t[0-9a-f]{10}):(?P<n>\d+):(?P<h>[0-9a-f]{6})"
PANEL_TEMPLATE = r"hh:(?P<game>\d+):p:(?P<user>\d+)"
STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "danger": discord.ButtonStyle.danger}


def digest(line: str) -> str:
    """A short hash of a button's command line, carried in its custom id."""
    return hashlib.sha256(line.encode()).hexdigest()[:6]


def choice_id(game: int, shown: int | str, n: int, line: str) -> str:
    """The custom id of the ``n``-th choice of a reply made at the action ``shown`` names (a token)."""
    return f"hh:{game}:{shown}:{n}:{digest(line)}"


def seq_token(secret: str, game: int, branch: int, seq: int) -> str:
    """The token naming action ``seq`` of a game's line of play ``branch`` in a button's id: nobody
    without the secret can tell from it which action it is, and a button of a line a rollback left
    is not taken for one of the new line."""
    return "t" + hmac.new(secret.encode(), f"{game}:{branch}:{seq}".encode(), hashlib.sha256).hexdigest()[:10]


async def shown_token(core: Core, game: int, seq: int) -> str:
    """The token of a reply made at action ``seq`` of the game's present line, for its buttons' ids."""
    g = core.live.get(game)
    return seq_token(await core.button_secret(), game, g.row.branch if g is not None else 1, seq)


async def shown_seq(core: Core, g: Live, shown: str, user: str) -> int | None:
    """The action a button's ``shown`` names, if its buttons still stand for ``user`` (``Core.still_current``:
    only other players' sealed choices came in since); None when it is out of date. A token can only name
    the present action or one before a run of such sealed choices, so only those are tried."""
    if shown.isdigit():  # a button posted before the tokens
        return int(shown) if await core.still_current(g, int(shown), user) else None
    secret = await core.button_secret()
    if hmac.compare_digest(seq_token(secret, g.id, g.row.branch, g.seq), shown):
        return g.seq
    mine = set(g.seats_of(user))
    for a in reversed(await core.store.actions(g.id, g.row.branch, after=max(0, g.seq - SEALED_RUN))):
        if not a.secret or a.seat in mine:
            return None
        if hmac.compare_digest(seq_token(secret, g.id, g.row.branch, a.seq - 1), shown):
            return a.seq - 1
    return None


SEALED_RUN = 200
"""How many sealed choices of the other side a button outlives at most (a Chitin army is some 30 picks)."""


def panel_id(game: int, user: str) -> str:
    """The custom id of a player's 'Choose privately' button."""
    return f"hh:{game}:p:{user}"


class StaticView(discord.ui.View):
    """Components only: clicks are routed by custom id to the dynamic items, so nothing is kept per message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def choices_view(game: int, shown: int | str, buttons: list[Button]) -> StaticView | None:
    """Buttons of a reply, 5 to a row, at most 25."""
    if not buttons:
        return None
    view = StaticView()
    for n, b in enumerate(buttons[:MAX_BUTTONS]):
        style = STYLES.get(b.style, discord.ButtonStyle.primary)
        view.add_item(discord.ui.Button(label=b.label[:80] or "choose", style=style,
                                        custom_id=choice_id(game, shown, n, b.command), row=n // PER_ROW))
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


async def resolve_choice(core: Core, game: int, shown: str, n: int, h: str,
                         user: str) -> tuple[str | None, str, int | None]:
    """The command line a click sends and the action its buttons were posted at, or ``(None, refusal, None)``."""
    g = await core.load(game)  # a button of a game start-up has not loaded yet loads it on click
    if g is None:
        return None, f"Sorry, game #{game} is no longer in play.", None
    if g.row.status == "paused":
        return None, f"Sorry, game #{game} is paused by a moderator; choices wait until it resumes.", None
    seq = await shown_seq(core, g, shown, user)  # the core checks it again under the game's lock (two clicks)
    if seq is None:
        return None, (f"Sorry, that choice is out of date: game #{game} has moved on. "
                      "/game status shows what it waits on now."), None
    lines = candidate_lines(core, g, user)
    if n < len(lines) and digest(lines[n]) == h:
        return lines[n], "", seq
    found = [line for line in lines if digest(line) == h]
    if found:
        return found[0], "", seq
    owners = _owners(core, g, h)
    if owners:
        return None, f"Sorry, that choice is for {' and '.join(owners)}, not you.", None
    return None, f"Sorry, that choice is out of date: game #{game} has moved on.", None


def panel_prompts(g: Live, user: str) -> list[Any]:
    """The secret prompts that wait on ``user`` now."""
    return [p for p in g.pending() if p.secret and g.user_of(p.seat) == user]
