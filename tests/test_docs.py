"""The docs stay true to the code: every command and every game order is documented."""

from __future__ import annotations

import re
from pathlib import Path

from bot import lifecycle, moderation
from engine.core import registry

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (ROOT / "docs" / "commands.md").read_text()


def test_every_core_command_is_in_commands_md():
    for name in list(lifecycle.HANDLERS) + list(moderation.HANDLERS):
        assert f"`/{name}`" in COMMANDS, f"/{name} is not documented in docs/commands.md"


def test_every_order_of_every_game_is_in_commands_md():
    for game in registry.names():
        if game == "toy":
            continue
        for v in registry.get(game).verbs():
            assert f"`/{v.verb}`" in COMMANDS, f"/{v.verb} ({game}) is not documented in docs/commands.md"


def test_the_readme_quick_start_is_the_ci_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == "make test"
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme and "make test" in readme


# -- references to a section of the docs -------------------------------------------------------
#
# Code and docs point at a section as ``docs/ai.md, "Budgets"`` or as a link, ``[docs/ai.md](docs/ai.md),
# "Budgets"`` (the section a heading, or a paragraph's bold label such as ``**Budgets.**``; the
# quoted words may be the start of it), and a doc at its own sections as ``"Budgets" above``. A
# section renamed or moved leaves such a pointer dangling.

_QUOTE = r'"([^"]{1,160})"'
_TO_SELF = re.compile(_QUOTE + r"\s+(?:above|below)\b")


def _flat(text: str) -> str:
    """One line, code marks dropped: ``The rollout player and /done`` names "... and `/done`"."""
    return " ".join(re.sub(r"\n[ \t]*#?[ \t]*", " ", text).replace("`", "").split())


def _sections(path: Path) -> list[str]:
    """The headings and bold paragraph labels of a markdown file, flattened."""
    text = path.read_text()
    heads = [m.group(1) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)]
    labels = [m.group(1) for m in re.finditer(r"(?:^|\n\n)\*\*([^*]+?)\*\*", text)]
    return [_flat(h) for h in heads + labels]


def _references() -> list[tuple[str, str, str]]:
    """(where, doc, quoted section) for every pointer to a section of a doc."""
    found = []
    files = [p for d in ("engine", "bot", "render", "tests") for p in (ROOT / d).rglob("*.py")]
    files += list((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    for path in files:
        text = path.read_text()
        where = str(path.relative_to(ROOT))
        for m in re.finditer(r"(docs/[a-z-]+\.md)\)?,[ \t]*\n?[ \t]*#?[ \t]*" + _QUOTE, text):
            found.append((where, m.group(1), _flat(m.group(2))))
        if path.suffix == ".md" and path.parent.name == "docs":
            for m in _TO_SELF.finditer(text):
                found.append((where, f"docs/{path.name}", _flat(m.group(1))))
    return found


def test_every_pointer_to_a_section_of_the_docs_names_one_that_is_there():
    refs = _references()
    assert len(refs) > 40  # the pattern still finds the pointers the code and docs hold
    sections = {doc: _sections(ROOT / doc) for doc in {r[1] for r in refs}}
    dangling = [f'{where}: {doc}, "{quoted}"' for where, doc, quoted in refs
                if not any(s.startswith(quoted) for s in sections[doc])]
    assert not dangling, "pointers to no section:\n" + "\n".join(dangling)


# -- the rulings the replies cite ----------------------------------------------------------------

RULING_SECTIONS = {"Chitin": "## Chitin I", "OneWorld": "## OneWorld", "Annihilator": "## Annihilator"}


def test_every_ruling_the_code_cites_is_in_docs_rulings_md():
    """Replies cite "RULINGS Chitin 11" and the like: a member must find ruling 11 under "Chitin I"
    in docs/rulings.md (the rulebooks are silent there, so the ruling is the rule)."""
    text = (ROOT / "docs" / "rulings.md").read_text()
    sections = {}
    for game, heading in RULING_SECTIONS.items():
        assert heading in text, f"docs/rulings.md has no section {heading!r}"
        body = text.split(heading + "\n", 1)[1]
        sections[game] = body.split("\n## ", 1)[0]
    cited = set()
    for top in ("engine", "bot", "render"):
        for f in (ROOT / top).rglob("*.py"):
            cited |= set(re.findall(r"RULINGS (Chitin|OneWorld|Annihilator) (\d+)", f.read_text()))
    assert len(cited) >= 10
    for game, n in sorted(cited):
        assert re.search(rf"^{n}\. ", sections[game], re.M), f"RULINGS {game} {n} is not in docs/rulings.md"
