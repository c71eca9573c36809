"""The fourteen optional rules of 12.0 as game options, validated from players' strings."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from engine.core.errors import BadArguments

OPTIONS_HELP: dict[str, str] = {
    "singing_grasses": "on/off: the Singing Grasses Rule, a line of atmosphere under every board (12.0)",
    "friendly_obstacle": "on/off: a Blade may stop short in a hex holding a friendly Stone, one Stone per Blade (12.0)",
    "pylon_movement": "on/off: Pylon to Pylon moves are Stone 3 hexes, Blade and Fog 1, never mixed with other movement (12.0)",
    "flee_while_you_can": "on/off: a god that has lost a life may move one hex a turn (12.0)",
    "god_lives": "1, 2 or 3 lives for both gods, or BORG/CHEZ such as 2/3 (12.0); default 3; "
    "not with tower_elimination or god_powers:scenario, which fix the lives",
    "tower_elimination": "on/off: no Towers of Balance, one god life each; a game may end in a tie (12.0)",
    "frustration_clause": "on/off: after three rounds in a hex with no loss, both sides there are eliminated (12.0)",
    "moving_towers": "off, cw or ccw: after each turn the player moves his Tower one hex along the map edge (12.0)",
    "new_geography": "on/off: gods and Towers swap set-up places: gods at the Tower sites, Towers at the ends (12.0)",
    "more_balance": "on/off: only the player with fewer Children on the map gets reinforcements (12.0)",
    "stacking_limit": "a number from 1 to 13, or roll: the most Children of one god in a hex (12.0); default 4",
    "chaos_gambit_1": "on/off: Children may go into Chaos Itself; they go under their Tower as if destroyed (12.0)",
    "chaos_gambit_2": "on/off: the map wraps; a being leaving one edge reappears at the opposite edge (12.0)",
    "non_aligned_towers": "on/off: a die picks the Tower each reinforcement: odd the west, even the east (12.0)",
    "god_powers": "off, on (each god transforms one Child not in combat a turn) or scenario (BORG: 1 life, 2 a turn; CHEZ: none, 3 lives) (12.0)",
}

_ON = {"on", "yes", "true", "1", "y"}
_OFF = {"off", "no", "false", "0", "n", ""}


class Options(BaseModel):
    """The options of one game; every rule of 12.0 is off by default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    singing_grasses: bool = False
    friendly_obstacle: bool = False
    pylon_movement: bool = False
    flee_while_you_can: bool = False
    god_lives: str = "3/3"
    tower_elimination: bool = False
    frustration_clause: bool = False
    moving_towers: Literal["off", "cw", "ccw"] = "off"
    new_geography: bool = False
    more_balance: bool = False
    stacking_limit: str = "4"
    chaos_gambit_1: bool = False
    chaos_gambit_2: bool = False
    non_aligned_towers: bool = False
    god_powers: Literal["off", "on", "scenario"] = "off"

    @field_validator("god_lives", mode="before")
    @classmethod
    def _lives(cls, v: Any) -> str:
        text = str(v).strip()
        parts = text.split("/") if "/" in text else [text, text]
        if len(parts) != 2 or any(p.strip() not in ("1", "2", "3") for p in parts):
            raise ValueError("write 1, 2 or 3, or BORG/CHEZ lives such as 2/3")
        return f"{parts[0].strip()}/{parts[1].strip()}"

    @field_validator("stacking_limit", mode="before")
    @classmethod
    def _stack(cls, v: Any) -> str:
        text = str(v).strip().lower()
        if text == "roll":
            return text
        if not text.isdigit() or not 1 <= int(text) <= 13:
            raise ValueError("write a number from 1 to 13, or roll")
        return str(int(text))

    @field_validator("moving_towers", "god_powers", mode="before")
    @classmethod
    def _switch(cls, v: Any) -> Any:
        if isinstance(v, bool):
            return "on" if v else "off"
        text = str(v).strip().lower()
        if text in _OFF:
            return "off"
        return "on" if text in _ON else text

    def lives(self) -> dict[str, int]:
        """Starting god lives per seat (10.2, 12.0 God Lives, Tower Elimination, God Powers)."""
        if self.tower_elimination:
            return {"BORG": 1, "CHEZ": 1}
        if self.god_powers == "scenario":
            return {"BORG": 1, "CHEZ": 3}
        borg, chez = self.god_lives.split("/")
        return {"BORG": int(borg), "CHEZ": int(chez)}

    def transforms(self, seat: str) -> int:
        """Non-combat transformations a god may make a turn (12.0 God Powers)."""
        if self.god_powers == "on":
            return 1
        if self.god_powers == "scenario":
            return 2 if seat == "BORG" else 0
        return 0

    @property
    def towers(self) -> bool:
        """Whether Towers of Balance are in play (12.0 Tower Elimination)."""
        return not self.tower_elimination


def parse_options(raw: dict[str, Any]) -> Options:
    """Validate options given as strings; raise ``BadArguments`` naming a bad one."""
    unknown = sorted(set(raw) - set(OPTIONS_HELP))
    if unknown:
        raise BadArguments(
            f"OneWorld has no option '{unknown[0]}'; the options are: " + ", ".join(sorted(OPTIONS_HELP))
        )
    clean: dict[str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, str) and Options.model_fields[key].annotation is bool:
            low = value.strip().lower()
            if low not in _ON | _OFF:
                raise BadArguments(f"option {key} takes on or off, not '{value}'")
            value = low in _ON
        clean[key] = value
    try:
        opts = Options.model_validate(clean)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "?"
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        if key in OPTIONS_HELP:
            msg = OPTIONS_HELP[key]
        raise BadArguments(f"option {key} does not take '{raw.get(key, '')}': {msg}") from None
    _check_lives(raw, opts)
    return opts


def _check_lives(raw: dict[str, Any], opts: Options) -> None:
    """RULINGS OneWorld 9: god_lives with an option that fixes the lives is refused, saying which wins."""
    if "god_lives" not in raw:
        return
    fixed = opts.lives()
    if opts.tower_elimination:
        other, wins, rule = "tower_elimination", "one life for each god", "rule 12.0 Tower Elimination"
    elif opts.god_powers == "scenario":
        other = "god_powers:scenario"
        wins, rule = f"BORG {fixed['BORG']} life, CHEZ {fixed['CHEZ']}", "rule 12.0 God Powers"
    else:
        return
    raise BadArguments(
        f"god_lives cannot be combined with {other}: {other} wins: {wins} ({rule}); "
        f"leave god_lives out (RULINGS OneWorld 9)"
    )
