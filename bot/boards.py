"""Boards for transports: the view a person may see, drawn off the event loop."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from engine.core.protocol import View

if TYPE_CHECKING:
    from bot.core import Core
    from render import Boards


async def board_view(core: Core, game_id: int, viewer: str | None) -> View | None:
    """The view of a game for a seat (or a spectator), from memory or rebuilt from the log."""
    g = core.live.get(game_id)
    if g is not None and g.state is not None:
        return g.rules.view(g.state, viewer)
    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return None
    from bot.live import config_of, full_replay
    from bot.records import rules_for

    state, _ = await full_replay(core.store, row)
    return rules_for(config_of(row)).view(state, viewer)


async def board_views(core: Core, game_id: int, viewer: str | None) -> tuple[View, View] | None:
    """The view of ``viewer`` and the spectator's view of the same position (one replay at most)."""
    g = core.live.get(game_id)
    if g is not None and g.state is not None:
        view = g.rules.view(g.state, viewer)
        return view, (view if viewer is None else g.rules.view(g.state, None))
    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return None
    from bot.live import config_of, full_replay
    from bot.records import rules_for

    state, _ = await full_replay(core.store, row)
    rules = rules_for(config_of(row))
    view = rules.view(state, viewer)
    return view, (view if viewer is None else rules.view(state, None))


async def render_board_images(core: Core, game_id: int, viewer: str | None) -> Boards | None:
    """A board post's images: the focus view, the full map and their alt text, drawn in a worker
    thread. The framing and the alt text come from the spectator's view (nothing sealed steers them)."""
    views = await board_views(core, game_id, viewer)
    if views is None:
        return None
    from render import boards

    view, public = views
    return await asyncio.to_thread(boards, view, public=public)


def board_attachments(drawn: Boards | bytes | None) -> list[tuple[str, bytes, str]]:
    """(file name suffix, PNG bytes, alt text) of each image of a board post, focus view first.
    Plain bytes (a renderer of the full map alone) are one image without alt text."""
    if drawn is None:
        return []
    if isinstance(drawn, bytes):
        return [("board.png", drawn, "")]
    full_alt = ("Full map. " + drawn.alt)[:1024]
    if drawn.focus == drawn.full:
        return [("board.png", drawn.full, drawn.alt)]
    return [("focus.png", drawn.focus, drawn.alt), ("board.png", drawn.full, full_alt)]


async def render_board_png(core: Core, game_id: int, viewer: str | None,
                           highlights: tuple[str, ...] | list[str] = ()) -> bytes | None:
    """PNG bytes of a game's board, rendered in a worker thread (Pillow releases the GIL).

    ``highlights``: hexes outlined as legal destinations (``/game moves ... board:yes``).
    """
    view = await board_view(core, game_id, viewer)
    if view is None:
        return None
    if highlights:
        from engine.core.protocol import HighlightView

        extra = tuple(HighlightView(hex=h, kind="legal") for h in dict.fromkeys(highlights))
        view = view.model_copy(update={"highlights": view.highlights + extra})
    from render import board

    return await asyncio.to_thread(board, view)


async def replay_views(core: Core, game_id: int) -> list[View]:
    """A spectator's view of the game at the end of every phase so far, from the log."""
    from bot.live import config_of
    from bot.records import Folder, rules_for
    from engine.core.dice import RecordedDice, Roll
    from engine.core.protocol import Action

    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return []
    rules = rules_for(config_of(row))
    state = rules.setup(config_of(row), RecordedDice([Roll.model_validate(r) for r in json.loads(row.setup_rolls)]))
    views = [rules.view(state, None)]
    actions = await core.store.actions(row.id, row.branch)
    folder = Folder(rules, state, [Action.model_validate_json(a.action) for a in actions], trusted=True)
    for a in actions:
        dice = RecordedDice([Roll.model_validate(r) for r in json.loads(a.rolls)])
        folder.step(a.seat, Action.model_validate_json(a.action), dice)
        v = rules.view(folder.state, None)
        if (v.turn, v.phase) != (views[-1].turn, views[-1].phase):
            views.append(v)
        else:
            views[-1] = v
    return views


async def render_replay_gif(core: Core, game_id: int, max_bytes: int) -> bytes | None:
    """An animated GIF of the game so far, under ``max_bytes`` (a channel's upload limit)."""
    views = await replay_views(core, game_id)
    if not views:
        return None
    from render import animate

    return await asyncio.to_thread(animate, views, max_bytes=max_bytes)
