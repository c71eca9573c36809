

def test_the_stand_alone_cards_show_each_sides_units_as_counters():
    from engine.core import registry
    from engine.core.dice import SeededDice
    from engine.core.protocol import GameConfig, Player

    for name, opts in (("dice", {"attack": "4,4", "defence": "3"}),
                       ("assault", {"attackers": "Bug1/teeth=4,Bug2/teeth=4", "defenders": "Marine/3"})):
        rules = registry.get(name)
        cfg = GameConfig(game=name, options=opts, players=(Player(seat="attacker", name="a"),
                                                             Player(seat="defender", name="d")))
        view = rules.view(rules.setup(cfg, SeededDice("c", 0)), None)
        by_side = {s: [c.label for c in view.counters if c.side == s] for s in ("attacker", "defender")}
        assert by_side["attacker"] and by_side["defender"], name
        assert len(by_side["attacker"]) == 2


def test_stacking_limits_a_stacking_limit_without_a_stacking_rule_is_refused():
    import pytest

    from engine.core import registry
    from engine.core.dice import SeededDice
    from engine.core.errors import BadArguments
    from engine.core.protocol import GameConfig

    rules = registry.get("dice")
    cfg = GameConfig(game="dice", options={"attack": "4", "defence": "3", "stacking_limit": "3"})
    with pytest.raises(BadArguments, match="stacking:units or stacking:strength"):
        rules.setup(cfg, SeededDice("s", 0))
