"""Typed rule errors: ``str()`` of each is a message a player can read and act on."""

from __future__ import annotations

import re


def _cites(message: str, rule: str) -> bool:
    """Whether ``message`` already names rule ``rule`` (and not, say, rule 6.21 for 6.2)."""
    return re.search(rf"\brule {re.escape(rule)}(?![\w.]*\w)", message, re.IGNORECASE) is not None


class RuleError(Exception):
    """An order the rules do not allow. The message names the unit, hex and rule section."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        text = message if rule is None or _cites(message, rule) else f"{message} (rule {rule})"
        super().__init__(text)

    @property
    def message(self) -> str:
        return str(self)


class IllegalAction(RuleError):
    """The action is well formed but not legal in this position."""


class NotYourTurn(RuleError):
    """The rules are waiting on somebody else."""


class BadArguments(RuleError):
    """The action could not be understood: an unknown verb, a missing or malformed argument."""
