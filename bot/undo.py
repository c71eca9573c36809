"""Take-back: a player undoes their own last order(s) in their current phase (``/undo``).

A take-back is allowed while nothing has been decided that the player could exploit:
no die was rolled, no secret was sealed or revealed, and the decision has not passed to
the opponent (nor has the phase changed). It is an action in the log, ``undo {seq: N}``,
so replays and records stay exact (bot/records.py folds it back to the state before
action N); the phase message strikes the order out. A moderator's rollback covers
everything else.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

from bot import phaselog
from bot.answers import Refusal, private
from bot.lifecycle import command
from bot.live import SNAPSHOT_EVERY
from bot.records import UNDO, dumps, fold, load_state, replay
from bot.replies import Button, Command, Reply
from bot.store import ActionRow
from engine.core.protocol import MODERATOR, Action

if TYPE_CHECKING:
    from pydantic import BaseModel

    from bot.core import Core
    from bot.live import Live


def effective(rows: list[ActionRow]) -> list[ActionRow]:
    """The log's actions that still count: each take-back removes the action it names."""
    out: list[ActionRow] = []
    for r in rows:
        action = json.loads(r.action)
        if action.get("verb") == UNDO:
            back = int(action["args"]["seq"])
            out = [x for x in out if x.seq != back]
        else:
            out.append(r)
    return out


def _reaches_behind(rows: list[ActionRow], start: int) -> bool:
    """Whether a take-back among ``rows`` names an action at or before ``start``."""
    for r in rows:
        action = json.loads(r.action)
        if action.get("verb") == UNDO and int(action["args"]["seq"]) <= start:
            return True
    return False


async def _recent(core: Core, g: Live) -> tuple[list[ActionRow], int]:
    """The rows a take-back looks at, and the action number they follow: those after the second
    newest snapshot (50 to 100 actions), not the whole log, which in a long game is thousands."""
    seqs = await core.store.snapshot_seqs(g.id, g.row.branch, 2)
    start = seqs[-1] if len(seqs) == 2 else 0
    return await core.store.actions(g.id, g.row.branch, after=start), start


async def _state_before(core: Core, g: Live, rows: list[ActionRow], start: int, seq: int) -> BaseModel:
    """The state just before action ``seq``: the newest snapshot before it and the actions after it
    (``rows`` holds those after ``start``), or the whole log folded when a take-back reaches behind it."""
    from bot.live import OFF_LOOP_AFTER, _action, _rolls

    snap = await core.store.snapshot_upto(g.id, g.row.branch, seq - 1)
    if snap is not None and snap[0] >= start and not _reaches_behind([r for r in rows if r.seq < seq], snap[0]):
        base, text = snap
        steps = [(r.seat, _action(r.action), _rolls(r.rolls)) for r in rows if base < r.seq < seq]
        return fold(g.rules, load_state(g.rules, text), steps, first=base + 1, trusted=True)[0]
    if start:
        rows = await core.store.actions(g.id, g.row.branch, upto=seq - 1)
    steps = [(r.seat, _action(r.action), _rolls(r.rolls)) for r in rows if r.seq < seq]
    setup = _rolls(g.row.setup_rolls)
    if len(steps) < OFF_LOOP_AFTER:
        state, _ = replay(g.rules, g.config, setup, steps, trusted=True)
    else:  # a long game is folded in a worker thread, with its own copy of the rules
        state, _ = await asyncio.to_thread(replay, type(g.rules)(), g.config, setup, steps, trusted=True)
    return state


@command("undo")
async def undo(core: Core, cmd: Command) -> list[Reply]:
    """Take back your own last order of this phase, if nothing has been revealed or rolled since it."""
    async with core.locked(cmd) as g:
        if g.row.status != "active" or g.state is None:
            raise Refusal(f"game #{g.id} is {g.row.status}; nothing can be taken back now")
        seats = g.seats_of(cmd.user)
        if not seats:
            raise Refusal(f"only a player of game #{g.id} can take back an order")
        rows, start = await _recent(core, g)
        # What the asker may know of the log: the other side's sealed choices not yet opened are not in it
        # (3.03, 8.2, 8.1 of Annihilator). The answer must not name them, nor differ for their being there.
        kept = await core.store.secrets(g.id, g.row.branch, opened_after=start)
        sealed = {s.seq for s in kept if s.revealed_at is None}
        counted = [a for a in effective(rows) if not (a.seq in sealed and a.seat not in seats)]
        if start and (len(counted) < 2 or _reaches_behind(rows, start)):
            # the last two orders that count may lie further back: the whole log (rare)
            rows, start = await core.store.actions(g.id, g.row.branch), 0
            kept = await core.store.secrets(g.id, g.row.branch)
            counted = [a for a in effective(rows) if not (a.seq in sealed and a.seat not in seats)]
        if not counted:
            raise Refusal("there is no order to take back yet")
        last = counted[-1]
        hidden_after = any(a.seq > last.seq and a.seq in sealed for a in rows)
        action = Action.model_validate_json(last.action)
        if last.seat not in seats or last.seat == MODERATOR:
            raise Refusal(f"the last order ({action.text()}) was not yours; only your own orders can be taken "
                          "back (a moderator can roll the game back)")
        if last.secret:
            raise Refusal("a sealed choice cannot be taken back; change it with the game's own orders "
                          "before you commit (for example /drop)")
        revealed = [s for s in kept if s.revealed_at is not None and s.revealed_at >= last.seq]
        if revealed:
            raise Refusal(f"{action.text()} revealed sealed choices, so it cannot be taken back")
        if json.loads(last.rolls):
            raise Refusal(f"{action.text()} rolled dice, so it cannot be taken back (a moderator can roll back)")
        if hidden_after or not any(p.seat == last.seat and not p.secret for p in g.pending()):
            raise Refusal(f"the decision has passed to your opponent since {action.text()}; "
                          "ask a moderator to roll back instead")
        before = await _state_before(core, g, rows, start, last.seq)
        others = {p.seat for p in g.pending() if p.seat != last.seat}
        if others - {p.seat for p in g.rules.pending(before) if p.seat != last.seat}:
            raise Refusal(f"{action.text()} handed a decision to your opponent, so it cannot be taken back")
        now_view, old_view = g.rules.view(g.state, None), g.rules.view(before, None)
        if (now_view.turn, now_view.phase) != (old_view.turn, old_view.phase):
            raise Refusal(f"{action.text()} ended the phase, so it cannot be taken back")
        again = [a for a in effective(rows) if a.seq != last.seq]
        return await _commit(core, g, cmd, last, action, before, again)


async def _commit(core: Core, g: Live, cmd: Command, last: ActionRow, action: Action, before: BaseModel,
                  again: list[ActionRow]) -> list[Reply]:
    """Log the take-back and put the game back; ``again``: the orders that count after it (for the
    next Undo button)."""
    seq = g.seq + 1
    now = core.now()
    undo_action = Action(verb=UNDO, args={"seq": last.seq})
    replies: list[Reply] = []
    async with core.changing(g):  # if nothing is committed, the game in memory stays as it was
        await core.store.append_action(
            g.id, g.row.branch, seq, seat=last.seat, user=cmd.user, action=undo_action.model_dump_json(),
            rolls=dumps([]), dice_key=g.dice_key, dice_seq=seq, secret=False, now=now,
            events=dumps([[f"{last.seat} took back action #{last.seq}", []]]))
        if seq % SNAPSHOT_EVERY == 0:
            await core.store.put_snapshot(g.id, g.row.branch, seq, before.model_dump_json())
        g.state, g.seq = before, seq
        note = f"({g.name_of(last.seat)} took back {action.text()})"
        edit = phaselog.strike(g, last.seq, seq, note)
        if edit is not None:
            replies.append(edit)
        await phaselog.save(core, g, now)
        replies = await core.queue(g.id, replies)
    prompts = [p for p in g.pending() if p.seat == last.seat and not p.secret]
    text = f"Taken back: {action.text()}."
    buttons: list[Button] = []
    if prompts:
        rule = f" (rule {prompts[0].rule})" if prompts[0].rule else ""
        text += f"\nNow: {prompts[0].text}{rule}"
        buttons = core.buttons(g, last.seat, prompts[0])[:24]
    if again and again[-1].seat == last.seat and not json.loads(again[-1].rolls) and not again[-1].secret:
        buttons.append(phaselog.undo_button(g))
    ack = private(cmd.user, cmd.place, text)
    ack.game_id, ack.seq, ack.buttons = g.id, g.seq, buttons
    return [ack] + replies
