"""The data files: map, counters, chits and the Combat Results Table (rules 2.0, 3.01, 7.06)."""

from __future__ import annotations

from collections import Counter as Tally

from engine.core.hexes import distance, half_turn, megahex
from engine.core.odds import distribution, odds, result
from engine.games.chitin.board import T, geo
from engine.games.chitin.data import board, chits, counters, crt, kind_points, scenarios, sheet_kinds


def test_2_01_map_size_ends_and_terrain_types() -> None:
    m = board()
    assert m.data.source == "reconstructed" and "printed" in m.data.notes
    assert (m.data.columns, m.data.rows) == (15, 22)
    assert set(m.data.terrain_types) == {"plains", "river", "forest", "slope"}
    assert {s.pattern for s in m.data.terrain_types.values()} == {"grass", "waves", "trees", "slope"}
    assert len(m.edges["north"]) == 15 and len(m.edges["south"]) == 15
    assert all(T(h).endswith("01") for h in m.edges["north"])


def test_2_01_map_is_fair_under_a_half_turn_about_megahex_a() -> None:
    m = board()
    centre = m.megahex_origin
    assert centre is not None and T(centre) == m.data.named["chit A"]
    for h in m.hexes:
        image = half_turn(h, centre)
        assert image in m.hexes
        assert m.terrain(h) == m.terrain(image), T(h)
    assert {half_turn(h, centre) for h in m.edges["north"]} == set(m.edges["south"])


def test_2_01_two_rivers_a_third_rough_and_mixed_hexes() -> None:
    m = board()
    rough = [h for h in m.hexes if m.terrain(h) & {"forest", "slope"}]
    river = [h for h in m.hexes if m.has(h, "river")]
    assert 0.28 < len(rough) / len(m.hexes) < 0.38
    assert any(m.has(h, "river") and h in rough for h in m.hexes), "a hex may be river and rough at once"
    # two rivers: the river hexes fall into two connected pieces, images of each other
    pieces = []
    left = set(river)
    while left:
        todo, piece = [left.pop()], set()
        while todo:
            h = todo.pop()
            piece.add(h)
            for n in geo().nbrs[h]:
                if n in left:
                    left.discard(n)
                    todo.append(n)
        pieces.append(piece)
    assert len(pieces) == 2
    assert {half_turn(h, m.megahex_origin) for h in pieces[0]} == pieces[1]  # type: ignore[arg-type]


def test_2_01_seven_lettered_megahexes_clockwise() -> None:
    m = board()
    g = geo()
    assert sorted(m.regions) == list("ABCDEFG")
    centre_a = m.named["chit A"]
    for letter, hexes in m.regions.items():
        assert len(hexes) == 19
        c = m.named[f"chit {letter}"]
        assert set(megahex(c)) == set(hexes) and g.mega[c] == c
        if letter != "A":
            assert distance(c, centre_a) in (4, 5)
    # B pairs with E, C with F, D with G under the half turn
    for a, b in ("BE", "CF", "DG"):
        assert half_turn(m.named[f"chit {a}"], centre_a) == m.named[f"chit {b}"]


def test_2_02_counter_sheet_has_56_counters_a_side() -> None:
    kinds = sheet_kinds()
    assert len(kinds) == 56
    tally = Tally(kinds)
    assert tally["B"] == 6 and tally["W"] == 6
    assert tally["GT3"] == 2 and tally["GT2"] == 3 and tally["GT1"] == 3
    assert (tally["PL1"], tally["PL2"], tally["PL4"]) == (4, 4, 1)
    assert counters().source == "partly reconstructed"


def test_2_021_each_counter_holds_a_number_of_units() -> None:
    assert {kind_points(k) for k in ("GT3", "PX3", "LR3", "TR3", "PL4")} == {12, 9, 6, 8}


def test_2_022_five_classes_and_the_gantua_counter_example() -> None:
    t = counters().types
    assert {t[c].cls for c in ("GT", "PX", "LR", "TR", "PL")} == {"S", "T", "R", "H", "F"}
    gt = t["GT"]
    assert (3 * gt.strength, 3 * gt.disrupted, gt.move, gt.charge) == (12, 6, 4, True)
    pl = t["PL"]
    assert (2 * pl.strength, pl.move, pl.role) == (4, 2, "air")
    assert t["B"].role == "basic"


def test_2_023_worker_defends_at_one_moves_four_cannot_attack() -> None:
    w = counters().types["W"]
    assert (w.strength, w.defence, w.move, w.role) == (0, 1, 4, "worker")


def test_2_024_and_3_01_lettered_chits_sit_on_their_megahexes() -> None:
    data = chits()
    assert data.lettered["A"] == 20 and set(data.lettered) == set("ABCDEFG")
    assert data.lettered["C"] == data.lettered["F"] and data.lettered["B"] == data.lettered["E"]
    assert len(data.unnumbered) >= 10 and data.limit == 30
    for sc in scenarios().scenarios.values():
        assert set(sc.chits) <= set("ABCDEFG")


def test_7_06_crt_printed_rows_and_reconstructed_diagonal() -> None:
    t = crt()
    assert t.rows[1] == ["A-3", "A-2", "A-2", "A-1", "A-1", "AD", "AR", "DR", "D-1"]
    assert t.rows[2] == ["A-3", "A-2", "A-1", "A-1", "AD", "AR", "DR", "D-1", "D-1"]
    assert t.rows[3][0] == "A-2" and t.printed_cells[3] == 1
    seq = "A-3 A-2 A-2 A-1 A-1 AD AR DR D-1 D-1 DD D-2 D-2 D-3".split()
    for die in range(3, 7):
        for col in range(9):
            k = col + die - 1
            assert t.rows[die][col] == seq[k], (die, col)


def test_7_062_a_two_on_a_one_to_two_attack_gives_a1() -> None:
    t = crt()
    assert result(t, odds(t, 6, 12), 2) == "A-1"


def test_7_061_twenty_against_twelve_is_three_to_two() -> None:
    assert odds(crt(), 20, 12).label == "3-2"


def test_7_06_outer_rules_one_to_five_five_to_one() -> None:
    t = crt()
    assert odds(t, 2, 10).label == "AE"
    assert not odds(t, 1, 6).allowed
    assert odds(t, 10, 2).label == "DE" and odds(t, 12, 2).label == "DE"
    assert odds(t, 9, 2).label == "4-1"
    assert sum(distribution(t, odds(t, 4, 4)).values()) == 1
