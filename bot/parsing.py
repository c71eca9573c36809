"""Syntax of command lines (``/move child:B7 dir:NE``), apart from legality, which is the engine's."""

from __future__ import annotations

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
