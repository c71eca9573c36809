"""Views for the renderer's tests: every kind of piece the games put on a board."""

from __future__ import annotations

from engine.core.hexes import format_ccrr, from_offset
from engine.core.maps import GameMap
from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View


def oneworld_view() -> View:
    """Mid-game OneWorld: Children with aspects, gods, Towers, a combat of 4 against 4."""
    c = CounterView
    counters = [
        c(hex="0405", side="BORG", label="Stone", sub="B3", id="B3"),
        c(hex="0606", side="BORG", label="Blade", sub="B4", facing=2),
        c(hex="0607", side="CHEZ", label="Fog", sub="C1", disrupted=True),
        c(hex="0808", side="CHEZ", label="?", hidden=True),
        c(hex="0908", side="CHEZ", label="Blade", sub="C5"),
        c(hex="0908", side="BORG", label="Stone", sub="B7"),
        c(hex="0111", side="BORG", label="Tower"),
        c(hex="1311", side="CHEZ", label="Tower"),
        c(hex="0702", side="BORG", label="BORG", sub="god"),
        c(hex="0720", side="CHEZ", label="CHEZ", sub="god"),
        c(hex="1004", side="CHEZ", label="Fog", sub="C2"),
        c(hex="1004", side="CHEZ", label="Fog", sub="C3"),
        c(hex="1004", side="BORG", label="Blade", sub="B1"),
    ]
    for i, label in enumerate(("Stone", "Blade", "Fog", "Stone")):
        counters.append(c(hex="0711", side="BORG", label=label, sub=f"B{10 + i}"))
        counters.append(c(hex="0711", side="CHEZ", label=label, sub=f"C{10 + i}"))
    return View(
        game="oneworld",
        map="test-oneworld",
        title="OneWorld: The War Between the Gods",
        turn=7,
        phase="Combat",
        active="CHEZ",
        sides={"BORG": "dark", "CHEZ": "light"},
        counters=tuple(counters),
        markers=(MarkerView(hex="0702", kind="god", text="3"), MarkerView(hex="0111", kind="tower")),
        arrows=(ArrowView(src="0607", dst="0606", label="Fog>Stone"),),
        highlights=(
            HighlightView(hex="0606", kind="moved"),
            HighlightView(hex="0506", kind="moved"),
            HighlightView(hex="0711", kind="combat"),
            HighlightView(hex="0908", kind="loss"),
            HighlightView(hex="0710", kind="legal"),
            HighlightView(hex="0810", kind="legal"),
        ),
        boxes={"BORG Tower": ("Stone B2", "Fog B9"), "CHEZ Tower": ()},
        caption=(
            "BORG moved Blade B4 0506-0606 and crossed a Fault: rolled 5, survived.",
            "Combat in 0711: four Children against four.",
        ),
        private=("Your aspect for C10: Stone",),
    )


def chitin_view() -> View:
    """Chitin: I with strength counters, harvest chits, attack arrows with odds."""
    c = CounterView
    counters = [
        c(hex="0806", side="Chitin", label="Gantua", sub="12-6", id="G1"),
        c(hex="0807", side="Chitin", label="Phlanx", sub="9-6", disrupted=True),
        c(hex="0808", side="Rebels", label="Termgt", sub="6-3"),
        c(hex="0709", side="Rebels", label="Worker", sub="3-1", hidden=True),
        c(hex="1110", side="Chitin", label="Low R", sub="4-2"),
        c(hex="1110", side="Chitin", label="Plunge", sub="8"),
        c(hex="1210", side="Rebels", label="Basic", sub="3-3"),
    ]
    for i in range(12):
        counters.append(
            c(
                hex=format_ccrr(from_offset(2 + i, 19 - i % 3)),
                side="Chitin" if i % 2 else "Rebels",
                label="Gantua" if i % 3 else "Phlanx",
                sub=f"{12 - i % 3 * 4}-6",
            )
        )
    return View(
        game="chitin",
        map="test-chitin",
        title="Chitin: I \u2014 Harvest",
        turn=3,
        phase="Combat",
        active="Chitin",
        sides={"Chitin": "red", "Rebels": "green"},
        counters=tuple(counters),
        markers=tuple(
            MarkerView(hex=h, kind="chit", text=t)
            for h, t in (("0811", "A20"), ("1110", "G10"), ("0412", "B10"), ("0508", "C15"))
        ),
        arrows=(
            ArrowView(src="0807", dst="0808", label="3-1"),
            ArrowView(src="1110", dst="1210", label="1-2"),
        ),
        highlights=(
            HighlightView(hex="0808", kind="combat"),
            HighlightView(hex="1210", kind="combat"),
            HighlightView(hex="0806", kind="moved"),
        ),
        boxes={"Chitin harvest": ("A (20)",), "Rebels harvest": ("C (15)", "F (15)")},
        caption=("Chitin attacks 0808 at 3-1 and 1210 at 1-2.",),
    )


def annihilator_view(game_map: GameMap) -> View:
    """Annihilator: boarding party, charges, a demolition preview, blasts and impacts."""
    c = CounterView
    counters = [
        c(hex="1319", side="Boarders", label="Demo", sub="2-4", facing=0),
        c(hex="1418", side="Boarders", label="Eng", sub="1-3", facing=1),
        c(hex="1218", side="Boarders", label="Mar", sub="3-3", facing=5),
        c(hex="1312", side="Robot", label="Def", sub="2-2", facing=3),
    ]
    extra = [h for h in sorted(game_map.hexes)][::13][:56]
    for i, h in enumerate(extra):
        counters.append(
            c(
                hex=format_ccrr(h),
                side="Robot" if i % 2 else "Boarders",
                label=f"R{i}",
                sub=f"{i % 4 + 1}-{i % 3 + 1}",
                facing=i % 6,
            )
        )
    return View(
        game="annihilator",
        map="test-annihilator",
        title="Annihilator: Demolition",
        turn=5,
        phase="Demolition",
        active="Boarders",
        sides={"Boarders": "#2a6fdb", "Robot": "gold"},
        counters=tuple(counters),
        markers=(
            MarkerView(hex="1316", kind="charge", text="C1"),
            MarkerView(hex="1315", kind="clear"),
            MarkerView(hex="1015", kind="obstructed"),
            MarkerView(hex="0207", kind="impact", text="7"),
            MarkerView(hex="2210", kind="beacon", text="BCN"),
        ),
        highlights=tuple(
            HighlightView(hex=h, kind="preview") for h in ("1316", "1315", "1314", "1215", "1415")
        )
        + (HighlightView(hex="0913", kind="blast"), HighlightView(hex="0207", kind="loss")),
        boxes={"Boarders lost": ("Mar 3-3",), "Charges left": ("2",)},
        caption=("Preview: charge C1, pattern 3, facing N.",),
    )


def combat_card_view() -> View:
    """A stand-alone combat without a map."""
    c = CounterView
    return View(
        game="close-assault",
        map="",
        title="Close assault: round 2",
        turn=2,
        phase="Melee",
        active="Red",
        sides={"Red": "red", "Blue": "blue"},
        counters=(
            c(hex="", side="Red", label="Sgt", sub="3+1"),
            c(hex="", side="Red", label="Pvt", sub="2"),
            c(hex="", side="Blue", label="Lt", sub="3", disrupted=True),
        ),
        boxes={"Casualties": ("Blue Pvt",)},
        caption=("Red rolled 5 + 1 = 6 against Blue's 4: Blue falls back.",),
    )


def sixty_counters(game_map, base: View) -> View:
    """A busy board: 60 counters in ones, twos and an eight-stack, with labels, facings and states."""
    hexes = sorted(game_map.hexes)
    counters = []
    for i in range(52):
        h = hexes[(i * 37) % len(hexes)]
        n = 2 if i % 5 == 0 else 1
        for k in range(n):
            counters.append(
                CounterView(
                    hex=format_ccrr(h),
                    side="AB"[(i + k) % 2],
                    label=f"U{i}{k}",
                    sub=f"{i % 9}-{k + 3}",
                    facing=i % 6,
                    disrupted=i % 7 == 0,
                    hidden=i % 11 == 0,
                )
            )
    counters = counters[:52]
    for k in range(8):
        counters.append(
            CounterView(hex=format_ccrr(hexes[len(hexes) // 2]), side="AB"[k % 2], label=f"S{k}", sub="4-4")
        )
    return base.model_copy(update={"counters": tuple(counters), "sides": {"A": "blue", "B": "gold"}})
