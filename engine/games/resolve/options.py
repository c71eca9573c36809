"""Reading ``/resolve`` options: each value arrives as text and is checked here, once,
with a message that names the option and the values it takes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.core.errors import BadArguments

YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,19}$")


def check_known(options: Mapping[str, Any], known: Mapping[str, str]) -> None:
    """Refuse an option the game does not have, listing those it has."""
    for key in options:
        if key not in known:
            raise BadArguments(f"there is no option '{key}'; the options are: {', '.join(known)}")


def text(options: Mapping[str, Any], key: str, default: str = "") -> str:
    """The option as stripped text, or ``default`` when it is not given."""
    value = options.get(key)
    return default if value is None else str(value).strip()


def number(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``."""
    raw = text(options, key, str(default))
    if not re.fullmatch(r"[+-]?\d+", raw) or not low <= int(raw) <= high:
        raise BadArguments(f"{key} must be a whole number from {low} to {high}, not '{raw}'")
    return int(raw)


def choice(options: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    """One of ``allowed`` (letter case ignored)."""
    raw = text(options, key, default).lower()
    if raw not in allowed:
        raise BadArguments(f"{key} must be one of: {', '.join(allowed)} (not '{raw}')")
    return raw


def flag(options: Mapping[str, Any], key: str, default: bool) -> bool:
    """yes or no."""
    raw = text(options, key, "yes" if default else "no").lower()
    if raw in YES:
        return True
    if raw in NO:
        return False
    raise BadArguments(f"{key} must be yes or no, not '{raw}'")


def names(options: Mapping[str, Any], key: str) -> tuple[str, ...]:
    """A comma-separated list of names (may be empty)."""
    raw = text(options, key)
    out = tuple(n.strip() for n in raw.split(",") if n.strip())
    for n in out:
        check_name(n, key)
    return out


def check_name(name: str, key: str) -> str:
    """A unit or figure name: a letter, then letters, digits or _ (20 at most)."""
    if not _NAME.match(name):
        raise BadArguments(
            f"'{name}' in {key} is not a usable name: start with a letter, then letters, digits or _ "
            "(up to 20), like Bug1 or tank_2"
        )
    return name


def number_repeats(given: list[str], key: str) -> list[str]:
    """Names as given, a name written several times numbered in turn: bug,bug -> bug1,bug2."""
    out = [f"{n}{given[:i].count(n) + 1}" if given.count(n) > 1 else n for i, n in enumerate(given)]
    if len(set(out)) != len(out):
        raise BadArguments(
            f"the names in {key} clash once repeated names are numbered ({', '.join(out)}); rename one"
        )
    return out
