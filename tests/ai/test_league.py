"""The series behind ``make soak`` and ``make bench-ai``: the same figures over any number of
processes and from the results file, and the interval each win rate is printed with."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.ai import league
from tests.ai.league import series, wilson


def _figures(s: league.Series) -> tuple[object, ...]:
    return (s.games, s.natural, s.a_wins, s.draws, s.lengths, s.longest, s.by_seat, s.errors)


def test_a_series_over_two_processes_gives_the_figures_of_one() -> None:
    one = series("toy", "", {}, "easy", "random", 6, processes=1)
    two = series("toy", "", {}, "easy", "random", 6, processes=2)
    assert one.games == two.games == 6 and not one.errors and not two.errors
    assert len(set(one.lengths)) > 1  # the games differ, so an order mixed up would show
    assert (one.natural, one.a_wins, one.draws, one.lengths, one.longest) == (
        two.natural, two.a_wins, two.draws, two.lengths, two.longest)
    assert one.line() == two.line()


def test_a_series_tells_the_wins_by_the_seat_held() -> None:
    # seats alternate game by game, so each seat is held in half the games, and the wins by seat
    # add up to the series' wins
    s = series("toy", "", {}, "easy", "random", 6, processes=1)
    assert sorted(s.by_seat) == ["A", "B"]
    assert [n for _, n in s.by_seat.values()] == [3, 3]
    assert sum(w for w, _ in s.by_seat.values()) == s.a_wins
    assert f"as A {s.by_seat['A'][0]}/3, as B {s.by_seat['B'][0]}/3" in s.line()


def test_the_win_rate_interval_is_wilsons() -> None:
    # Wilson (1927); 6 of 10: 0.313 to 0.832 (the textbook figures), 0 of 10: 0 to 0.278
    assert wilson(6, 10) == pytest.approx((0.3127, 0.8318), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(150, 200) == pytest.approx((0.6857, 0.8049), abs=1e-4)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(1 - hi)


@pytest.fixture
def results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bench" / "results.jsonl"
    monkeypatch.setenv("AI_BENCH_RESULTS", str(path))
    return path


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seeds of the games actually played (not read from the results file)."""
    seeds: list[int] = []
    game = league._game

    def counted(job: league.Job) -> league._Game:
        seeds.append(job[5])
        return game(job)

    monkeypatch.setattr(league, "_game", counted)
    return seeds


def test_a_series_stopped_part_way_plays_on_from_the_results_file_with_the_same_figures(
        results: Path, played: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    first = series("toy", "", {}, "easy", "random", 3, processes=1)
    assert played == [0, 1, 2] and first.stored == 0
    assert len(results.read_text().splitlines()) == 3
    resumed = series("toy", "", {}, "easy", "random", 6, processes=1)
    assert played == [0, 1, 2, 3, 4, 5] and resumed.stored == 3  # only the games not yet played
    assert "[3 of the games from" in resumed.line()
    monkeypatch.delenv("AI_BENCH_RESULTS")
    whole = series("toy", "", {}, "easy", "random", 6, processes=1)
    assert len(set(whole.lengths)) > 1 and whole.stored == 0
    assert _figures(resumed) == _figures(whole)
    again = series("toy", "", {}, "easy", "random", 6, processes=1)
    assert _figures(again) == _figures(whole)


def test_stored_games_count_only_for_the_same_code_players_and_seeds(
        results: Path, played: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    series("toy", "", {}, "easy", "random", 2, processes=1)
    series("toy", "", {}, "random", "easy", 2, processes=1)  # other players: played
    series("toy", "", {}, "easy", "random", 2, cap=50, processes=1)  # another cap: played
    assert played == [0, 1] * 3
    monkeypatch.setattr(league, "fingerprint", lambda **_: "other code")
    s = series("toy", "", {}, "easy", "random", 2, processes=1)
    assert played == [0, 1] * 4 and s.stored == 0


def test_the_code_fingerprint_changes_with_any_file_of_the_code(tmp_path: Path) -> None:
    for part in ("engine/games", "data", "tests/support", "tests/ai"):
        (tmp_path / part).mkdir(parents=True)
    (tmp_path / "engine/games/rules.py").write_text("MP = 4\n")
    (tmp_path / "tests/ai/league.py").write_text("")
    before = league.fingerprint(tmp_path)
    (tmp_path / "engine/games/__pycache__").mkdir()
    (tmp_path / "engine/games/__pycache__/rules.cpython-311.pyc").write_bytes(b"compiled")
    assert league.fingerprint(tmp_path) == before  # compiled files are not the code
    (tmp_path / "data/map.json").write_text("{}")
    with_data = league.fingerprint(tmp_path)
    assert with_data != before
    (tmp_path / "engine/games/rules.py").write_text("MP = 5\n")
    assert league.fingerprint(tmp_path) not in (before, with_data)


def test_comments_and_docstrings_are_not_the_code_of_the_fingerprint(tmp_path: Path) -> None:
    """A result depends on what the code does, not on what it says about itself: a comment, a
    docstring or a line break changed keeps the stored games; a constant, a name or a string the
    code uses changes them. (A docstring is any string standing alone as a statement.)"""
    (tmp_path / "engine").mkdir()
    rules = tmp_path / "engine/rules.py"
    rules.write_text('"""Rules."""\nMP = 4  # movement points\n"""MP is 4 (6.1)."""\n\n\n'
                     'def f(x):\n    """Twice."""\n    return 2 * x\n')
    before = league.fingerprint(tmp_path)
    rules.write_text('"""Rules, see docs/ai-measurements.md."""\n\nMP = (\n    4\n)\n'
                     '"""MP (6.1)."""\n\ndef f(x):\n    # twice\n    return 2 * x\n')
    assert league.fingerprint(tmp_path) == before
    for changed in ('MP = 5\ndef f(x):\n    return 2 * x\n', 'MP = 4\ndef f(y):\n    return 2 * y\n',
                    'MP = 4\nNAME = "MP"\ndef f(x):\n    return 2 * x\n'):
        rules.write_text(changed)
        assert league.fingerprint(tmp_path) != before, changed
    rules.write_text("MP = (4\n")  # a file that does not parse still counts, by its bytes
    broken = league.fingerprint(tmp_path)
    rules.write_text("MP = (5\n")
    assert league.fingerprint(tmp_path) != broken


def test_a_game_s_fingerprint_leaves_out_the_other_games_files_only(tmp_path: Path) -> None:
    files = ["engine/ai/search.py", "engine/games/chitin/ai.py", "engine/games/oneworld/ai.py",
             "data/maps/chitin.json", "data/maps/oneworld.json", "data/tables/chitin-crt.json",
             "tests/support/chitin_policy.py", "tests/support/playout.py", "tests/ai/league.py"]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("1\n")
    oneworld, chitin, whole = (league.fingerprint(tmp_path, "oneworld"), league.fingerprint(tmp_path, "chitin"),
                               league.fingerprint(tmp_path))
    for name in ("engine/games/chitin/ai.py", "data/maps/chitin.json", "data/tables/chitin-crt.json",
                 "tests/support/chitin_policy.py"):  # Chitin's own: OneWorld's results stand
        (tmp_path / name).write_text("2\n")
        assert league.fingerprint(tmp_path, "oneworld") == oneworld
        assert league.fingerprint(tmp_path, "chitin") != chitin
        chitin = league.fingerprint(tmp_path, "chitin")
    assert league.fingerprint(tmp_path) != whole
    for name in ("engine/ai/search.py", "tests/support/playout.py", "tests/ai/league.py"):  # shared: both change
        (tmp_path / name).write_text("2\n")
        assert league.fingerprint(tmp_path, "oneworld") != oneworld
        assert league.fingerprint(tmp_path, "chitin") != chitin
        oneworld, chitin = league.fingerprint(tmp_path, "oneworld"), league.fingerprint(tmp_path, "chitin")


def test_a_line_cut_short_by_a_stop_is_skipped_and_its_game_played_again(results: Path, played: list[int]) -> None:
    whole = series("toy", "", {}, "easy", "random", 3, processes=1)
    lines = results.read_text().splitlines()
    results.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])  # the stop came mid-write
    resumed = series("toy", "", {}, "easy", "random", 3, processes=1)
    assert played == [0, 1, 2, 1, 2] and resumed.stored == 1
    assert _figures(resumed) == _figures(whole)
    again = series("toy", "", {}, "easy", "random", 3, processes=1)  # the games played after the cut are kept
    assert played == [0, 1, 2, 1, 2] and again.stored == 3


def test_a_crash_is_reported_and_not_stored(results: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def crash(*args: object, **kwargs: object) -> object:
        raise RuntimeError("dead end")

    monkeypatch.setattr(league, "play", crash)
    s = series("toy", "", {}, "easy", "random", 2, processes=1)
    assert len(s.errors) == 2 and "seed 0: RuntimeError: dead end" in s.errors[0]
    assert not results.exists() or results.read_text() == ""


def test_a_series_over_two_processes_stores_every_game(results: Path) -> None:
    two = series("toy", "", {}, "easy", "random", 4, processes=2)
    assert len(results.read_text().splitlines()) == 4
    again = series("toy", "", {}, "easy", "random", 4, processes=2)
    assert again.stored == 4 and _figures(again) == _figures(two)


def test_only_a_game_s_own_files_are_left_out_of_another_game_s_fingerprint() -> None:
    """The files ``fingerprint(game=...)`` leaves out are exactly the other games' own places: a shared
    file whose name begins with a game's name (``engine/core/chitin_compat.py``) would fail here."""
    own = ("engine/games/{}/", "data/{}/", "data/maps/{}.json", "data/tables/{}-crt.json",
           "tests/support/{}_policy.py")
    for game in (*league.GAMES, "toy"):
        others = [g for g in league.GAMES if g != game]
        for part in league.CODE:
            top = league.ROOT / part
            for f in [top] if top.is_file() else top.rglob("*"):
                if not f.is_file() or "__pycache__" in f.parts:
                    continue
                name = f.relative_to(league.ROOT).as_posix()
                placed = any(name.startswith(o.format(g)) if o.endswith("/") else name == o.format(g)
                             for o in own for g in others)
                assert league._of_another_game(f, league.ROOT, game) == placed, (game, name)
