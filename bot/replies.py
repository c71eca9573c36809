"""What the core hands a transport: commands in, replies out. No Discord types here."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Command(BaseModel):
    """One command from a person: who, where, what, with which arguments."""

    user: str
    """A stable user id (a Discord snowflake, a console name)."""
    place: str
    """Where it was sent: a channel or thread id, or ``dm:<user>`` for a direct message."""
    name: str
    """``game new``, ``move``, ``mod rollback``, ``help`` ..."""
    args: dict[str, str] = Field(default_factory=dict)
    display: str = ""
    """The person's display name, for messages."""
    is_moderator: bool = False
    """Set by the transport: a moderator (Manage Server, or the configured role) of ``community``."""
    community: str = ""
    """The community the command was given in: ``guild:<id>`` on Discord, ``console`` in the local
    console, empty in a direct message. Moderation and reading rights are judged against the game's own."""
    at: tuple[int, int] | None = None
    """(branch, action number) an order was decided at (the bot opponent's, the clock's timeout action):
    refused, changing nothing, if the game has moved on since or is paused."""
    holders: dict[str, str] | None = None
    """Who held which seat when the order was decided (the clock's timeout action): refused, changing
    nothing, if a seat has been given to someone else since (``/mod replace``)."""
    level: str | None = None
    """The level a bot opponent's order was decided at: refused, changing nothing, if a moderator has changed
    the level of its seat (``as``) since."""
    shown: int | None = None
    """The action number of the message whose button sent this command (a click): refused, changing
    nothing, if the clicking member's decision changed since (``Core.still_current``); checked under the
    game's lock, so of two clicks of one button at once the second is refused."""


MAX_BUTTONS = 25
"""Discord's limit: five rows of five buttons under one message."""


class Button(BaseModel):
    """A choice offered as a button or a select option; ``command`` is the console line it sends."""

    label: str
    command: str
    style: Literal["primary", "secondary", "danger"] = "primary"
    """``danger`` (red) for a choice that destroys or ends something, ``secondary`` for a side choice."""


class Reply(BaseModel):
    """One message to deliver."""

    to: Literal["channel", "dm", "private"]
    """``channel``: posted in ``place``; ``dm``: a direct message to ``user``;
    ``private``: seen only by ``user`` where the command was given (ephemeral)."""
    place: str = ""
    user: str = ""
    text: str
    game_id: int | None = None
    seq: int | None = None
    """The game's action number when the reply was made: stale buttons are refused."""
    board: bool = False
    """Attach the game's board (rendered when posted)."""
    viewer: str | None = None
    """The seat whose view the board shows (None: a spectator's)."""
    highlights: list[str] = Field(default_factory=list)
    """Hexes the board outlines as legal destinations (a private ``/game moves`` board)."""
    board_view: str = ""
    """Which images of the board: ``focus``, ``full``, or both (empty)."""
    around: str = ""
    """A hex the focus view is framed on, instead of this phase's action."""
    zoc: bool = False
    """Hatch the hexes in an enemy zone of control of the side to move (Chitin: I)."""
    animation: bool = False
    """Attach an animated replay of the game so far (built from the log when posted)."""
    buttons: list[Button] = Field(default_factory=list)
    mentions: list[str] = Field(default_factory=list)
    """User ids this message may ping; nothing else is pinged."""
    file_name: str = ""
    file_text: str = ""
    """A text attachment (an exported record)."""
    secret_prompt: bool = False
    """A private decision panel: when the DM cannot be delivered, the transport falls back
    to a 'Choose privately' button in ``place``."""
    prompt: bool = False
    """A decision put to a player in the channel (bot/phaselog.py merges it into its phase's post)."""
    edit_key: str = ""
    """A message edited in place: the first reply with this key is posted, later ones replace its text
    (and its buttons); a transport that cannot edit shows it again."""
    outbox_id: int | None = None
    committed: bool = False
    """Said by a command whose change was saved (``Core.queue``): a private one carries no outbox id."""
