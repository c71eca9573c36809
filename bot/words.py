"""Names matched forgivingly: games, scenarios, directions, and a suggestion for a mistyped command.

``game:OneWorld``, ``scenario:Learning``, ``dir:south`` are read as ``oneworld``, ``learning``, ``S``;
``/gmae`` gets "did you mean /game?".
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from engine.core import registry
from engine.core.labels import DIRECTIONS
from engine.core.protocol import ArgValue, VerbSpec


def game_name(text: str) -> str:
    """``OneWorld`` -> ``oneworld``; a title (``Chitin: I``) names its game too."""
    t = text.strip().casefold()
    for name in registry.names():
        if t in (name, registry.get(name).title.casefold()):
            return name
    return text.strip()


def sentence(text: str) -> str:
    """``text`` with a capital first letter, the rest as it is (``str.capitalize`` lowers the rest)."""
    return text[:1].upper() + text[1:]


def choice(text: str, known: tuple[str, ...] | list[str]) -> str:
    """``Learning`` -> ``learning`` when that is one of ``known``; else the text as given."""
    return next((k for k in known if k.casefold() == text.strip().casefold()), text.strip())


_DIRECTION_WORDS = {w.replace("-", ""): k for k, w in DIRECTIONS.items()} | {
    w: k for k, w in DIRECTIONS.items()}


def direction(text: str) -> str:
    """``south`` / ``South`` / ``s`` / ``north-east`` -> ``S`` / ``NE``; anything else unchanged."""
    t = text.strip().casefold().replace(" ", "").replace("_", "-")
    if t.upper() in DIRECTIONS:
        return t.upper()
    return _DIRECTION_WORDS.get(t, _DIRECTION_WORDS.get(t.replace("-", ""), text))


def forgiving_args(args: Mapping[str, ArgValue], kinds: Mapping[str, str]) -> dict[str, ArgValue]:
    """Arguments with direction words turned into the game's letters (``dir:south`` -> ``dir:S``)
    and counts written plainly (``fog:01`` -> ``fog:1``; only ASCII digits, at most nine)."""
    out: dict[str, ArgValue] = {}
    for k, v in args.items():
        if kinds.get(k) == "direction":
            out[k] = direction(str(v))
        elif kinds.get(k) == "int" and isinstance(v, str) and _COUNT.fullmatch(v.strip()):
            out[k] = str(int(v.strip()))
        else:
            out[k] = v
    return out


_COUNT = re.compile(r"[0-9]{1,9}")


def suggest(word: str, known: list[str]) -> str:
    """``gmae`` -> ``game`` when close to a known command; else empty."""
    close = difflib.get_close_matches(word.casefold(), known, n=1, cutoff=0.6)
    return close[0] if close else ""


def unknown_command(line: str, commands: set[str]) -> str:
    """"Sorry, there is no command /gmae; did you mean /game?" when the first word is not a command.

    ``commands`` are the first words of the command table; every game's orders are commands too.
    """
    words = line.strip().lstrip("/").split()
    if not words:
        return ""
    word = words[0].casefold()
    known = known_commands(commands)
    if word in known:
        return ""
    close = suggest(word, known)
    hint = f"; did you mean /{close}?" if close else "; /help lists the commands."
    return f"Sorry, there is no command /{word}{hint}"


def known_commands(commands: set[str]) -> list[str]:
    """Every first word of a command: the table's (groups, /help, /undo) and every game's orders."""
    words = set(commands)
    for name in registry.names():
        words |= {v.verb for v in registry.get(name).verbs()}
    return sorted(words)


def usage(verb: VerbSpec) -> str:
    """How an order is written: ``/move stack:UNIT to:HEX [dir:DIRECTION]`` (optional arguments in brackets)."""
    args = " ".join(f"{a.name}:{a.kind.upper()}" if a.required else f"[{a.name}:{a.kind.upper()}]" for a in verb.args)
    return f"/{verb.verb} {args}".rstrip()


def said_once(reason: str, winner: str | None) -> str:
    """A game's reason for its end without the winner it names, to follow "X wins:" or "X won;": the
    Annihilator's "both brain core hexes are destroyed: the Marines win (rule 10.0)" (10.0) would say it twice."""
    if not winner:
        return reason
    return re.sub(rf": the {re.escape(winner)} wins?(?= \(rule |$)", "", reason)


YES_WORDS = ("yes", "true", "on")
NO_WORDS = ("no", "false", "off")
"""The words of a yes-or-no argument (``all:yes``, ``board:on``, ``hints:no``), in any letter case."""
