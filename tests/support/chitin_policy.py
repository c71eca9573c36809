"""The Chitin: I player the script generator uses (tests/support/make_script.py): the bot opponent's own
playout policy, ``engine.games.chitin.ai.policy`` (docs/ai.md says how it plays).

``python -m tests.support.chitin_policy SCENARIO SEED OUT.txt`` writes a scenario's script with
its header and ``# expect:`` lines (tests/scripts/chitin_*.txt).
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from pathlib import Path

from engine.games.chitin.ai import policy as choose

__all__ = ["choose", "write_script"]


# -- writing a scenario's script -------------------------------------------------------------


def write_script(scenario: str, seed: int, out: Path) -> str:
    """Play ``scenario`` to its end with this policy and write the console script, with its header."""
    from bot.console import run_script
    from engine.games.chitin.data import scenarios
    from tests.support import make_script
    from tests.support.make_script import make

    plain = make_script.choose

    def confirmed(g, seat, legal, rng, seq):  # type: ignore[no-untyped-def]
        """The policy's order, with confirm:yes when the core asks about it first (7.05; docs/commands.md)."""
        action = plain(g, seat, legal, rng, seq)
        if g.rules.caution(g.state, seat, action):
            action = action.model_copy(update={"args": {**action.args, "confirm": "yes"}})
        return action

    make_script.choose = confirmed  # make() looks the policy up at each order
    try:
        lines = asyncio.run(make("chitin", seed, [f"scenario:{scenario}"]))
    finally:
        make_script.choose = plain
    with tempfile.TemporaryDirectory() as tmp:
        said = io.StringIO()
        rc = asyncio.run(run_script(lines, Path(tmp) / "s.db", Path(tmp) / "out", said))
    text = said.getvalue()
    ends = [ln.strip() for ln in text.splitlines() if "The game is over:" in ln]
    if rc != 0 or not ends or "Sorry" in text:
        raise RuntimeError(f"{scenario} (seed {seed}) did not replay to its end:\n{text[-2000:]}")
    title = scenarios().scenarios[scenario].title
    header = [
        f"# Chitin: I, {title}: a whole game to its end by the rules, no turn limit.",
        "# Played through the bot core by the Chitin policy of tests/support/chitin_policy.py",
        f"# (python -m tests.support.chitin_policy {scenario} {seed} tests/scripts/chitin_{scenario}.txt).",
    ]
    if scenarios().scenarios[scenario].points:
        header.append("# Secret armies are chosen by direct message.")
    header += [
        "# expect: is over.",
        f"# expect: {ends[-1]}",
    ]
    out.write_text("\n".join(header + lines) + "\n")
    return f"{len(header) + len(lines)} lines, {ends[-1]}"


def main() -> None:
    scenario, seed, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    print(write_script(scenario, seed, out))


if __name__ == "__main__":
    main()
