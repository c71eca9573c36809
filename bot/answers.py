"""What the core and every command handler share: a refusal, a private reply, the limits, who may see a game.

The core imports this module, and so do the handlers (``bot/lifecycle.py``, ``bot/moderation.py`` ...),
which the core never imports: the transports hand it the command table (``bot/commands.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.replies import Command, Reply

if TYPE_CHECKING:
    from bot.store import GameRow

Handler = Callable[[Any, Command], Awaitable[list[Reply]]]
"""A command's handler: ``async def handler(core, cmd) -> list[Reply]``."""


class Refusal(Exception):
    """A command the bot turns down politely; ``str()`` is the reply."""


@dataclass(frozen=True)
class Limits:
    """What one member or community may open at once (settings ``max_invites_*``, ``invite_days``)."""

    invites_per_member: int = 3
    invites_per_community: int = 50
    invite_days: int = 7
    bot_games_per_member: int = 3
    """Games against the bot one member may have in play at once (setting ``max_bot_games_per_member``)."""
    bot_games_per_community: int = 30
    """... and one server (``max_bot_games_per_community``): the bot's decisions share one worker."""


def visible(row: GameRow, cmd: Command) -> bool:
    """Whether ``cmd``'s author may find this game by number: it is of their community, or they play in it."""
    if cmd.community and row.community == cmd.community:
        return True
    return cmd.user in row.settings_dict.get("seats", {}).values()


def private(user: str, place: str, text: str) -> Reply:
    """A reply only the person who gave the command sees."""
    return Reply(to="private", user=user, place=place, text=text)


def polite(text: str) -> str:
    """A refusal as the member reads it: "Sorry, ..." and a full stop."""
    text = text.strip()
    if not text:
        return "Sorry, that cannot be done now."
    if not text.endswith((".", "!", "?", ")")):
        text += "."
    if text.startswith("Sorry"):
        return text
    first = text.split(" ", 1)[0]
    if first in _PLAIN_WORDS:
        text = text[0].lower() + text[1:]
    return "Sorry, " + text


# Sentence openers that read naturally after "Sorry, " in lower case; anything else
# (a unit, a game, a side: "Stone B1", "OneWorld", "CHEZ") keeps its capital.
_PLAIN_WORDS = {"The", "This", "That", "There", "These", "Those", "It", "You", "Your", "A", "An", "Only", "No",
                "Nothing", "Not", "Each", "Every", "Write", "Name", "Choose", "Give", "Say", "Use", "Adding",
                "Reaching", "Charges", "Counts", "Moving", "Taking", "Placing", "Setting", "Removing", "Picking", "Going",
                "Facing", "Ground", "Overruns", "Losses", "Units", "All", "Air"}
