"""Whole games through the bot core as the console drives it: secret armies by direct message, every order accepted."""

from __future__ import annotations

import random
import re

from bot.commands import make_core
from bot.store import Store
from tests.chitin.test_playouts import keen_choice


async def play(tmp_path, line: str, seed: int) -> tuple[list[str], str]:  # type: ignore[no-untyped-def]
    store = await Store.open(tmp_path / "c.db")
    core = make_core(store)
    r = await core.handle_line("alice", "console:#game-1", line)
    gid = r[0].game_id
    assert gid is not None, r[0].text
    await core.handle_line("bob", "console:#game-1", "/game accept")
    rng = random.Random(seed)
    said: list[str] = []
    for _ in range(3000):
        g = core.live.get(gid)
        if g is None:
            break
        prompt = rng.choice(g.pending())
        assert g.state is not None
        action = keen_choice(rng, g.state, prompt.seat, g.rules.legal_actions(g.state, prompt.seat))
        user = g.user_of(prompt.seat)
        place = f"dm:{user}" if prompt.secret else "console:#game-1"
        replies = await core.handle_line(user, place, action.text() + " confirm:yes")  # past any caution (7.05)
        assert not replies[0].text.startswith("Sorry"), f"{action.text()}: {replies[0].text}"
        said += [x.text for x in replies if x.to == "channel"]
    r = await core.handle_line("alice", "console:#game-1", f"/game status game:{gid}")
    await store.close()
    return said, r[0].text


async def test_3_032_a_basic_game_with_secret_armies_plays_to_its_end(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said, status = await play(tmp_path, "/game new game:chitin opponent:bob scenario:basic turn_limit:2 seed:3", 3)
    text = "\n".join(said)
    assert "Both armies are chosen" in text and "Red has chosen" in text
    assert "The game is over" in text
    before = text.split("Both armies are chosen")[0]
    assert "Gantua" not in before and "Termagant" not in before  # nothing of an army in the channel before


async def test_7_06_a_learning_game_fights_through_the_console(tmp_path) -> None:  # type: ignore[no-untyped-def]
    said, _ = await play(tmp_path, "/game new game:chitin opponent:bob scenario:learning turn_limit:6 seed:2", 2)
    text = "\n".join(said)
    assert re.search(r"rolls \d at \S+: ", text) and "The game is over" in text


async def test_4_05_a_first_off_value_neither_on_nor_off_is_refused_and_creates_nothing(store, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A typo (``first_off:of``) was read as off and the game created with the 4.04 endgame, silently."""
    core = make_core(store)
    line = "/game new game:chitin opponent:bob scenario:armageddon first_off:of"
    r = await core.handle_line("alice", "console:#game-1", line)
    assert r[0].text.startswith("Sorry") and "first_off" in r[0].text and "on or off" in r[0].text, r[0].text
    assert await store.games() == []
    # one created so before the check (none refused it then) still loads after a restart, as it was played
    from engine.games.chitin.rules import Chitin

    monkeypatch.setattr(Chitin, "check_new", lambda self, config: None)
    gid = (await core.handle_line("alice", "console:#game-1", line))[0].game_id
    await core.handle_line("bob", "console:#game-1", "/game accept")
    monkeypatch.undo()
    again = make_core(store)
    await again.start()
    g = again.live[gid]
    assert g.state is not None and g.state.first_off is False
