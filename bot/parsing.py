"""Syntax of command lines (``/move child:B7 dir:NE``), apart from legality, which is the engine's."""

from __future__ import annotations

import re
import shlex

# Commands made of two words: the first word is a group.
GROUPS = {"game", "mod", "resolve", "db"}


class ParseError(ValueError):
    """A line that cannot be read as a command; the message says how to write it."""


def parse_command(text: str) -> tuple[str, dict[str, str]]:
    """``'/game new game:oneworld opponent:bob'`` -> ``('game new', {...})``."""
    text = text.strip()
    if not text.startswith("/"):
        raise ParseError("commands start with '/', for example: /help")
    try:
        words = shlex.split(text[1:])
    except ValueError as exc:
        raise ParseError(f"could not read that line ({exc}); check the quotes") from None
    if not words:
        raise ParseError("an empty command; try /help")
    name = words[0].lower()
    rest = words[1:]
    if name in GROUPS and rest and ":" not in rest[0]:
        name = f"{name} {rest[0].lower()}"
        rest = rest[1:]
    args: dict[str, str] = {}
    for w in rest:
        if ":" not in w:
            raise ParseError(f"'{w}' should be written name:value, for example to:0507")
        k, v = w.split(":", 1)
        k = k.strip().lower()
        if not k or not k.replace("_", "").replace("-", "").isalnum():
            raise ParseError(f"'{k}' is not an argument name")
        if k in args:
            raise ParseError(f"the argument '{k}' is given twice")
        args[k] = v.strip()
    return name, args


# --- numbers, lengths and echoed text: one place for each ---------------------------------------

MAX_ARG_NAME = 32
MAX_ARG_VALUE = 4000
"""Discord's longest text field; nothing a member may type is longer."""
_DIGITS = re.compile(r"[0-9]{1,18}")


def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    """An ASCII whole number from ``lo`` to ``hi``; anything else is a ``ParseError`` naming ``what``.

    ``str.isdigit`` accepts superscripts and other scripts' digits that ``int`` then rejects
    or reads, and very long numbers overflow SQLite's integers: this grammar admits neither.
    """
    t = text.strip().lstrip("#")
    if not _DIGITS.fullmatch(t) or not lo <= int(t) <= hi:
        raise ParseError(f"{what} must be a whole number from {lo} to {hi}, written with the digits 0-9")
    return int(t)


def check_args(args: dict[str, str]) -> None:
    """Refuse argument names or values too long to be real, without echoing them back."""
    for k, v in args.items():
        if len(k) > MAX_ARG_NAME:
            raise ParseError(f"an argument name is at most {MAX_ARG_NAME} characters (one had {len(k)})")
        if len(v) > MAX_ARG_VALUE:
            raise ParseError(f"the value of {k} is at most {MAX_ARG_VALUE} characters (it had {len(v)})")


_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#<])")
_UNESCAPE = re.compile(r"\\([\\*_~`|>\[\]()#<])")


def escape_markdown(text: str, limit: int = 100) -> str:
    """Text a member wrote, made safe to echo in a post: one line, at most ``limit``
    characters, and no Discord markdown (no links, mentions, headings or formatting)."""
    one = " ".join(text.split())
    if len(one) > limit:
        one = one[: limit - 1] + "…"
    return _MARKDOWN.sub(r"\\\1", one)


def unescape_markdown(text: str) -> str:
    """What Discord shows for text escaped by ``escape_markdown`` (for the console)."""
    return _UNESCAPE.sub(r"\1", text)
