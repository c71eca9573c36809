"""The console transport: the documented grammar, audiences, boards and exit statuses."""

from __future__ import annotations

import io

import pytest

from bot.console import run_script

SCRIPT = """\
# a whole toy game
!moderator carol
alice: /game new game:toy opponent:bob pile:2 seed:3
bob: /game accept
alice dm: /guess parity:odd
bob dm: /guess parity:even
carol@#game-1: /game status
"""


async def run(tmp_path, text: str) -> tuple[int, str]:
    out = io.StringIO()
    rc = await run_script(text.splitlines(), tmp_path / "c.db", tmp_path / "out", out)
    return rc, out.getvalue()


async def test_script_prints_each_reply_with_its_audience_and_writes_boards(tmp_path):
    rc, out = await run(tmp_path, SCRIPT)
    assert rc == 0
    assert "[#game-1] @bob, alice challenges you" in out
    assert "[DM alice] you guessed odd" in out
    assert "[to carol] Game #1" in out
    boards = sorted((tmp_path / "out").glob("board-*.png"))
    assert boards and all(b.read_bytes().startswith(b"\x89PNG") for b in boards)


async def test_a_secret_appears_only_in_its_owners_lines_until_revealed(tmp_path):
    rc, out = await run(tmp_path, SCRIPT.split("bob dm:")[0])
    blocks: list[tuple[str, str]] = []
    for line in out.splitlines():
        if line.startswith("["):
            head, _, text = line.partition("] ")
            blocks.append((head + "]", text))
        elif line.startswith(" ") and blocks and "[button]" not in line:
            blocks[-1] = (blocks[-1][0], blocks[-1][1] + "\n" + line)
    channel = "\n".join(t for h, t in blocks if h.startswith("[#"))
    bob = "\n".join(t for h, t in blocks if h in ("[DM bob]", "[to bob]"))
    alice = "\n".join(t for h, t in blocks if h in ("[DM alice]", "[to alice]"))
    assert "guessed odd" in alice and "parity:odd" in alice
    assert "odd" not in channel and "guessed odd" not in bob and "parity:odd" not in bob


async def test_an_unreadable_line_stops_the_script_with_status_2(tmp_path):
    rc, out = await run(tmp_path, "alice /help\n")
    assert rc == 2 and "line 1" in out


async def test_rule_errors_are_ordinary_replies(tmp_path):
    rc, out = await run(tmp_path, "alice: /take n:1\nalice: /game new game:toy\n")
    assert rc == 0 and out.count("[to alice] Sorry") == 2


async def test_an_internal_error_makes_the_status_non_zero(tmp_path, monkeypatch):
    from tests.support.toygame import ToyGame

    def boom(self, state, viewer):
        raise RuntimeError("bug")

    monkeypatch.setattr(ToyGame, "view", boom)
    rc, out = await run(tmp_path, "alice: /game new game:toy opponent:bob\nbob: /game accept\n")
    assert rc == 1 and "error id" in out


async def test_game_replay_writes_an_animated_gif_of_the_game(tmp_path):
    from pathlib import Path

    from PIL import Image

    script = (Path(__file__).parents[1] / "scripts" / "resolve_dice.txt").read_text()
    rc, out = await run(tmp_path, script + "alice: /game replay game:1\n")
    assert rc == 0 and "(animation:" in out
    gif = tmp_path / "out" / "replay-game1.gif"
    with Image.open(gif) as img:
        assert img.format == "GIF" and img.n_frames >= 3


async def test_a_second_run_numbers_its_boards_on_and_keeps_the_first_runs(tmp_path):
    rc, _ = await run(tmp_path, SCRIPT)
    first = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("board-*.png")}
    assert rc == 0 and first
    (tmp_path / "c.db").unlink()
    rc, _ = await run(tmp_path, SCRIPT)
    after = {p.name: p.read_bytes() for p in (tmp_path / "out").glob("board-*.png")}
    assert rc == 0 and len(after) == 2 * len(first)
    assert all(after[name] == data for name, data in first.items())


async def test_an_opponent_written_as_a_mention_is_the_member(tmp_path):
    rc, out = await run(tmp_path, "alice: /game new game:toy opponent:@bob pile:2\nbob: /game accept\n")
    assert rc == 0 and "[#game-1] @bob, alice challenges you" in out and "begins" in out


async def test_the_phase_message_is_printed_again_when_it_changes(tmp_path):
    script = SCRIPT.replace("carol@#game-1: /game status", "alice@#game-1: /take n:1")
    rc, out = await run(tmp_path, script)
    assert rc == 0 and "(edited)" in out


async def test_the_interactive_console_takes_the_seed_too(tmp_path, monkeypatch):
    """``hexhive console --seed S`` without a script: new games' dice seeds are S-1, S-2 (it was ignored)."""
    from bot.console import interactive
    from bot.store import Store

    lines = "alice: /game new game:toy opponent:bob\nalice: /game new game:toy opponent:carol\n/quit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert await interactive(tmp_path / "i.db", tmp_path / "out", seed_base="S") == 0
    store = await Store.open(tmp_path / "i.db")
    try:
        assert [g.seed for g in await store.games()] == ["S-1", "S-2"]
    finally:
        await store.close()


async def test_8_2_an_aspect_count_left_out_means_none_and_the_order_is_kept_whole(tmp_path):
    """OneWorld's ``/aspects fog:01`` for a lone Child is ``stone:0 blade:0 fog:1``: taken, and logged
    with every part, as a plain number; counts that do not add up are refused with what was given,
    and a count not written with the digits 0-9 is refused (rule 8.2)."""
    from pathlib import Path

    from bot.records import GameRecord

    script = (Path(__file__).resolve().parents[1] / "scripts" / "oneworld_full_game.txt").read_text().splitlines()
    first = script.index("alice dm: /aspects stone:0 blade:0 fog:1")
    lines = (script[:first] + ["alice dm: /aspects blade:1 fog:1", "alice dm: /aspects fog:\uff11",
                               "alice dm: /aspects fog:01"] + script[first + 1:] + ["alice: /game export game:1"])
    out = io.StringIO()
    rc = await run_script(lines, tmp_path / "c.db", tmp_path / "out", out, boards=False)
    text = out.getvalue()
    assert rc == 0
    assert "Sorry, you gave blade 1, fog 1 (stone left out, so 0), 2 in all, but you have 1 Child in 0505" in text
    assert "Sorry, counts are whole numbers written with the digits 0-9, as in stone:1 blade:1 fog:0" in text  # a full-width 1
    rec = GameRecord.model_validate_json((tmp_path / "out" / "hexhive-game-1.json").read_text())
    assert rec.outcome is not None  # the rest of the game played on as scripted
    aspects = [a for a in rec.actions if a.action.verb == "aspects"]
    assert aspects[0].action.args == {"stone": 0, "blade": 0, "fog": 1}
    assert all(set(a.action.args) == {"stone", "blade", "fog"} for a in aspects)


async def test_a_line_written_as_the_bot_itself_is_refused_and_changes_nothing(tmp_path):
    """``bot`` (and ``hexhive``) is the bot opponent's own name in the console: a line as it would give
    the bot's orders for it, its replies never printed (they are the bot's). A script stops at it."""
    start = "alice: /game new game:oneworld opponent:bot level:easy seed:4\n"
    rc, before = await run(tmp_path, start)
    assert rc == 0 and "Game #1" in before
    for who in ("bot", "hexhive", "bot@#game-1", "bot dm", "Hexhive"):
        place = tmp_path / who.replace(" ", "_").replace("@#", "_")
        place.mkdir()
        rc, out = await run(place, start + f"{who}: /game resign confirm:yes\nalice: /game status game:1\n")
        assert rc == 2, out
        assert "line 2" in out and "hexhive's own name" in out
        assert "resigned" not in out and "is over" not in out


async def test_opponent_hexhive_in_the_console_is_the_bot_as_on_discord(tmp_path):
    rc, out = await run(tmp_path, "alice: /game new game:oneworld opponent:hexhive level:easy seed:4\n")
    assert rc == 0
    assert "challenges you" not in out and "hexhive (easy)" in out


async def test_game_list_names_the_players_as_the_game_does_not_by_their_ids(tmp_path):
    rc, out = await run(tmp_path, "alice: /game new game:oneworld opponent:bot level:easy seed:4\n"
                                  "alice@#lobby: /game list\n")
    assert rc == 0
    listed = out[out.index("[to alice] #1"):]
    assert "hexhive (easy) (CHEZ)" in listed.splitlines()[0] or "hexhive (easy) (BORG)" in listed.splitlines()[0]
    assert "bot (" not in listed.splitlines()[0]



@pytest.mark.parametrize("script", [SCRIPT + "carol: /help\n" * 60,
                                    "alice: /game new game:oneworld opponent:bot level:easy seed:4\n"
                                    + "alice: /help\n" * 60, "alice: /help\n"],
                         ids=["two members", "against the bot", "all of it written at the exit"])
def test_a_transcript_piped_into_a_reader_that_stops_early_ends_without_a_traceback(tmp_path, script):
    """``hexhive console --script F | head -4``: the reader closes the pipe; the console stops quietly,
    with status 1, the bot opponent's printing of its orders included. Output to a pipe is buffered
    (``PYTHONUNBUFFERED`` unset, as in a shell): a short transcript is written only when it is flushed,
    which at the interpreter's exit failed with a traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "s.txt"
    path.write_text(script)
    hexhive = Path(sys.executable).with_name("hexhive")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    p = subprocess.Popen([str(hexhive), "console", "--script", str(path), "--seed", "p"], cwd=tmp_path,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # the reader goes away before the first write (its start takes longer than this)
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 1, err
    assert "Traceback" not in err and "BrokenPipeError" not in err and "ERROR" not in err, err


class Closing(io.StringIO):
    """A stream whose reader goes away after ``lines`` writes (``| head``)."""

    def __init__(self, lines: int) -> None:
        super().__init__()
        self.left = lines

    def write(self, text: str) -> int:
        if self.left <= 0:
            raise BrokenPipeError(32, "Broken pipe")
        self.left -= 1
        return super().write(text)


@pytest.mark.parametrize("lines", [1, 3, 6, 12, 20])
async def test_a_reader_gone_while_the_bot_opponent_prints_stops_the_console_not_the_bot(
        tmp_path, monkeypatch, lines):
    """The bot opponent's orders are printed from its own task: a closed pipe there was taken for an error
    of the bot (logged with a traceback, tried again later) and the script went on; and the store was closed
    under a bot still thinking. The script stops at the line, and leaves nothing running."""
    from bot.commands import make_core
    from tests.bot.test_opponent import Inline

    cores = []

    def make(store):  # noqa: ANN001, ANN202
        core = make_core(store)
        core.opponent.executor = Inline()
        cores.append(core)
        return core

    monkeypatch.setattr("bot.console.make_core", make)
    script = ["alice: /game new game:oneworld opponent:bot level:easy", "alice: /game status"] * 10
    with pytest.raises(BrokenPipeError):
        await run_script(script, tmp_path / "c.db", None, Closing(lines), boards=False)
    (core,) = cores
    assert not core.opponent.errors, core.opponent.errors
    assert not [t for t in core.opponent.tasks.values() if not t.done()]


def test_a_console_started_with_standard_output_closed_runs_its_script_without_a_traceback(tmp_path):
    """``hexhive console --script F >&-``: nothing to print to (``sys.stdout`` is None); the script runs."""
    import shlex
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "s.txt"
    path.write_text("alice: /help\n")
    hexhive = Path(sys.executable).with_name("hexhive")
    done = subprocess.run(["sh", "-c", f"{shlex.quote(str(hexhive))} console --script {shlex.quote(str(path))} >&-"],
                          cwd=tmp_path, capture_output=True, timeout=120)
    err = done.stderr.decode()
    assert done.returncode == 0 and "Traceback" not in err, err


async def test_each_board_is_printed_under_its_own_phase_post_while_the_bot_opponent_plays_on(tmp_path):
    """The bot opponent's orders are printed as they come, from its own task: they were printed while a
    line's post waited for its board to be drawn, so that board came out under the bot's later posts
    ("Game #1: set-up" followed by the set-up order's board). A post's board now follows the post."""
    import re

    rc, out = await run(tmp_path, "alice: /game new game:oneworld opponent:bot level:easy seed:4\n"
                                  "alice: /game status\n")
    assert rc == 0
    phase = None
    boards = 0
    for line in out.splitlines():
        if m := re.match(r"^\[#game-1\] Game #1: (.*)$", line):
            phase = m.group(1)
        elif m := re.match(r"^\s+\(alt text: OneWorld, (.*?)\. ", line):
            boards += 1
            assert m.group(1) == phase, f"the board of '{m.group(1)}' is printed under the post of '{phase}'\n{out}"
    assert boards >= 2


async def test_a_second_run_with_the_same_seed_on_the_same_database_numbers_its_seeds_on(tmp_path):
    """``--seed S --db D`` run twice: the second run's first game had the seed S-1 again, already published
    at the end of the first run's game, so its "secret" dice were known to all. Seeds are numbered on."""
    from bot.store import Store

    db = tmp_path / "c.db"
    for _ in range(2):
        rc = await run_script(["alice: /game new game:toy opponent:bob"], db, None, io.StringIO(), seed_base="S")
        assert rc == 0
    store = await Store.open(db)
    try:
        assert [g.seed for g in await store.games()] == ["S-1", "S-2"]
    finally:
        await store.close()


async def test_status_and_log_of_a_finished_annihilator_game_say_who_won_once(tmp_path):
    """The end line, /game status and the log's last line said "alice (Marines) won; both brain core hexes
    are destroyed: the Marines win (rule 10.0)": the Annihilator's reason names the winner too (10.0)."""
    from pathlib import Path

    script = (Path(__file__).parent.parent / "scripts" / "annihilator_cores.txt").read_text()
    rc, out = await run(tmp_path, script + "alice@#game-1: /game status\nalice@#game-1: /game log last:1\n")
    assert rc == 0
    said = "alice (Marines) won; both brain core hexes are destroyed (rule 10.0)."
    status = out[out.index("alice> /game status"):out.index("alice> /game log")]
    assert said in status and said in out[out.index("alice> /game log"):], out[-1500:]
    assert "the Marines win" not in status

