"""Every console script in tests/scripts/ plays through: exit status 0 and each `# expect:` line appears."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.console import run_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.txt"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
async def test_console_script_plays_through(script, tmp_path):
    lines = script.read_text().splitlines()
    expected = [ln.split("# expect:", 1)[1].strip() for ln in lines if ln.startswith("# expect:")]
    assert expected, f"{script.name} states no expected line"
    out = io.StringIO()
    rc = await run_script(lines, tmp_path / "s.db", tmp_path / "out", out)
    text = out.getvalue()
    assert rc == 0, text[-3000:]
    for e in expected:
        assert e in text, f"{script.name}: expected {e!r}\n{text[-3000:]}"
    assert "Sorry" not in text or "# refusals expected" in script.read_text(), text[-3000:]
