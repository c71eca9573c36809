"""Moderator commands: pause, resume, rollback, branches, restore, replace, end, log.

Every moderator action is written to the moderation log and posted in the game's
place so players can read it. A rollback never deletes: it forks a new branch
holding the kept actions, draws its dice from a fresh key, and keeps the old
branch, which ``/mod restore`` brings back.
"""

from __future__ import annotations

import json
import secrets
from typing import TYPE_CHECKING

from bot import lookup, opponent
from bot.answers import Refusal, private
from bot.lifecycle import Handler, finish, new_bot_game
from bot.live import Live, load_live
from bot.parsing import ParseError, escape_markdown, parse_int
from bot.records import key_announced
from bot.replies import Command, Reply

if TYPE_CHECKING:
    from bot.core import Core

HANDLERS: dict[str, Handler] = {}


def command(name: str):  # type: ignore[no-untyped-def]
    def wrap(fn: Handler) -> Handler:
        async def checked(core: Core, cmd: Command) -> list[Reply]:
            if not cmd.is_moderator:
                raise Refusal("only moderators (Manage Server, or the moderator role) may use /" + cmd.name)
            return await fn(core, cmd)

        HANDLERS[name] = checked
        return checked

    return wrap


def _refuse(text: str) -> Exception:
    return Refusal(text)


async def _log_and_post(core: Core, game_id: int, place: str, mod: str, what: str, reason: str,
                        extra: list[Reply] | None = None) -> list[Reply]:
    now = core.now()
    reason = escape_markdown(reason, 300)
    await core.store.add_modlog(game_id, mod, what, reason, now)
    text = f"Moderation: {mod} {what}." + (f" Reason: {reason}" if reason else "")
    return await core.queue(game_id, [Reply(to="channel", place=place, game_id=game_id, text=text)] + (extra or []))


@command("mod pause")
async def pause(core: Core, cmd: Command) -> list[Reply]:
    """Stop a game: no orders are taken and its clock stops."""
    async with core.locked(cmd, statuses=("active",), moderating=True) as g, core.changing(g):
        await core.store.update_game(g.id, core.now(), status="paused")
        g.row = (await core.store.game(g.id)) or g.row
        return await _log_and_post(core, g.id, g.row.place, cmd.user, f"paused game #{g.id}", cmd.args.get("reason", ""))


@command("mod resume")
async def resume(core: Core, cmd: Command) -> list[Reply]:
    """Let a paused game go on."""
    async with core.locked(cmd, statuses=("paused",), moderating=True) as g, core.changing(g):
        await core.store.update_game(g.id, core.now(), status="active")
        g.row = (await core.store.game(g.id)) or g.row
        # the decision is put to whoever it waits on again: a rollback, restore or replace while the game
        # was paused asked nobody (``_prompts_unless_paused``), and a pause may have outlasted a ping
        return await _log_and_post(core, g.id, g.row.place, cmd.user, f"resumed game #{g.id}", cmd.args.get("reason", ""),
                                   _prompts_unless_paused(core, g))


def _prompts_unless_paused(core: Core, g: Live) -> list[Reply]:
    """The decision the game waits on, put to the players (``Core.prompt_replies``); nothing while the game
    is paused, whose orders and buttons are refused: ``/mod resume`` puts it to them then."""
    if g.state is None or g.row.status == "paused":
        return []
    return core.prompt_replies(g, [])


@command("mod branches")
async def branches(core: Core, cmd: Command) -> list[Reply]:
    """List a game's branches: the current line of play and those abandoned by rollbacks."""
    g = await core.find_any(cmd)
    core.check_moderator(g, cmd)
    lines = []
    for b in await core.store.branches(g.id):
        cur = " (current)" if b["branch"] == g.row.branch else ""
        origin = (f"forked from branch {b['parent_branch']} at action {b['fork_seq']} ({b['reason']})"
                  if b["parent_branch"] else "the original line of play")
        length, more = await public_length(core, g.id, b["branch"], b["length"])
        lines.append(f"branch {b['branch']}{cur}: {length} actions{more}, {origin}")
    return [private(cmd.user, cmd.place, "\n".join(lines))]


@command("mod rollback")
async def rollback(core: Core, cmd: Command) -> list[Reply]:
    """Move the game back to just after action ``to`` (0 = the start), keeping the abandoned branch.

    A finished game can be rolled back too: it becomes active again, on the new branch.
    """
    first = await lookup.for_rollback(core, cmd)
    core.check_moderator(first, cmd)
    async with core.lock_of(first.id):
        g = core.live.get(first.id)
        if g is None:  # a finished game, or one that finished while this command waited
            row = await core.store.game(first.id)
            if row is None or row.status != "over":
                raise _refuse(f"game #{first.id} is {row.status if row else 'gone'} now; nothing was changed")
            g = await load_live(core.store, row)
        over = g.row.status == "over"
        length, _ = await public_length(core, g.id, g.row.branch, g.seq)
        if length == 0:
            raise _refuse(f"game #{g.id} has no action to roll back yet")
        top = length if over else length - 1
        asked = cmd.args.get("to", "").strip()
        if not over and asked.isascii() and asked.isdigit() and int(asked) == length:
            raise _refuse(f"game #{g.id} is at action {length} already: to roll back, name an earlier one "
                          f"(0 to {top}; /game log shows them); nothing was changed")
        to = parse_int(cmd.args.get("to", ""), "to (the action to go back to; /game log shows them)", 0, top)
        reason = escape_markdown(cmd.args.get("reason", ""), 300)
        pair = await _splits_a_reveal(core, g, to)
        if pair is not None and not (cmd.args.get("confirm", "").lower() in ("yes", "y", "true") and reason):
            where = (f"the sealed choices from action {pair[0]} on were opened when the game ended"
                     if over and pair[1] == g.seq and pair[1] <= to else
                     f"action {to} lies between sealed choices that were revealed together (actions {pair[0]}-{pair[1]})")
            raise _refuse(
                f"{where}: "
                f"after this rollback a player could choose again knowing the other's revealed choice. Roll back to "
                f"to:{pair[0] - 1}, before the first of them, or repeat with confirm:yes and a reason:\"...\"")
        old = g.row.branch
        key = "k" + secrets.token_hex(16)  # secret while the game is in play (build_record), too long to guess
        now = core.now()
        # a finished game against the bot put back in play counts against the server's limit again
        async with new_bot_game(core, g.row.community, over and "bots" in g.row.settings_dict):
            async with core.changing(g):
                new = await core.store.fork(g.id, old, to, key, f"rollback by {cmd.user}: {reason}".strip(), now)
                if over:  # the game is played again from the kept actions
                    settings = g.row.settings_dict
                    settings.pop("result", None)
                    if not g.row.seed_public:  # its seed was posted at its end: only secret keys keep dice unforeseen
                        settings["seed_published"] = True
                    await core.store.update_game(g.id, now, status="active", settings=json.dumps(settings))
                row = await core.store.game(g.id)
                assert row is not None
                fresh = await load_live(core.store, row)
                _check_undecided(fresh, f"at action {to}", "roll back to an earlier action")
                fresh.board_key = None
                core.live[g.id] = fresh
                extra = core.board_replies(fresh, force=True) + _prompts_unless_paused(core, fresh)
                return await _log_and_post(
                    core, g.id, row.place, cmd.user,
                    f"rolled game #{g.id} back to action {to}, now branch {new} (branch {old} is kept; /mod restore branch:{old} "
                    f"brings it back; dice from here on come from a fresh key, {key_announced(key, to + 1)})", reason, extra)


def _check_undecided(g: Live, where: str, instead: str) -> None:
    """A game put back in play must still have a move to make: a position its rules have decided (the
    last action of a game that ended by them) would be in play with nobody to move, for good."""
    assert g.state is not None
    done = g.rules.outcome(g.state)
    if done is not None:
        result = f"{done.winner} wins" if done.winner else "a draw"
        raise _refuse(f"{where} game #{g.id} is already decided by its rules ({result}: {done.reason.rstrip('.')}), "
                      f"so it could not be played on; {instead}. Nothing was changed")


@command("mod restore")
async def restore(core: Core, cmd: Command) -> list[Reply]:
    """Put a game back on an earlier branch."""
    async with core.locked(cmd, moderating=True) as g:
        text = cmd.args.get("branch", "")
        lengths = {b["branch"]: b["length"] for b in await core.store.branches(g.id)}
        others = ", ".join(str(b) for b in sorted(set(lengths) - {g.row.branch})) or "none"
        try:
            branch = parse_int(text, "branch", 1, 10**9)
        except ParseError:
            branch = 0
        if branch not in lengths or branch == g.row.branch:
            raise _refuse(f"branch must be one of the other branches ({others}); /mod branches lists them")
        now = core.now()
        # Once the seed was posted (a finished game rolled back), every key the branch may roll with could be
        # known (`main`, or a key published with the seed): its line goes on from a new branch with a fresh key.
        fresh_key = bool(g.row.settings_dict.get("seed_published"))
        key = "k" + secrets.token_hex(16)
        async with core.changing(g):
            if fresh_key:
                new = await core.store.fork(g.id, branch, lengths[branch], key,
                                            f"restore of branch {branch} by {cmd.user}", now)
            else:
                await core.store.update_game(g.id, now, branch=branch)
            row = await core.store.game(g.id)
            assert row is not None
            fresh = await load_live(core.store, row)
            _check_undecided(fresh, f"on branch {branch}", "/mod end ends the game with a result")
            core.live[g.id] = fresh
            extra = core.board_replies(fresh, force=True) + _prompts_unless_paused(core, fresh)
            what = f"restored branch {branch} of game #{g.id}"
            if fresh_key:
                what += (f", as branch {new} (its seed was published when the game ended, so its dice from here "
                         f"on come from a fresh key, {key_announced(key, lengths[branch] + 1)})")
            return await _log_and_post(core, g.id, row.place, cmd.user, what, cmd.args.get("reason", ""), extra)


@command("mod replace")
async def replace(core: Core, cmd: Command) -> list[Reply]:
    """Give a seat to another member."""
    async with core.locked(cmd, moderating=True) as g:
        seat, user = cmd.args.get("seat", ""), cmd.args.get("user", "").strip()
        seat = next((s for s in g.seats if s.casefold() == seat.casefold()), seat)
        if seat not in g.seats or not user:
            raise _refuse(f"write /mod replace seat:SEAT user:USER with a seat of {', '.join(g.seats)}")
        to_bot = core.opponent.is_bot(user)
        if to_bot:
            user = core.opponent.user_id
            level = opponent.level_of(cmd.args.get("level", opponent.DEFAULT_LEVEL))
        elif "level" in cmd.args:
            raise _refuse("level: is for handing a seat to the bot (user:@hexhive on Discord, user:bot in the "
                          "console)")
        # A member cannot play both sides; the bot can (an exhibition game), since each of its seats
        # is given only that seat's information (bot/opponent.py).
        if not to_bot and any(u == user for s, u in g.seats.items() if s != seat):
            raise _refuse(f"that member already holds the other seat of game #{g.id}; a player cannot play both sides")
        if g.seats[seat] == user and (not to_bot or opponent.bot_seats(g).get(seat) == level):
            raise _refuse(f"seat {seat} of game #{g.id} is already held by {g.name_of(seat)}; nothing was changed")
        # the bot's first seat in this game makes it a game against the bot
        async with new_bot_game(core, g.row.community, to_bot and not opponent.bot_seats(g)):
            async with core.changing(g):
                settings = g.row.settings_dict
                old = g.name_of(seat)
                settings["seats"][seat] = user
                name = cmd.args.get("user_name", "").strip() or user
                bots = settings.setdefault("bots", {})
                if to_bot:  # the bot plays the seat from its next decision on
                    bots[seat] = level
                    name = f"{opponent.BOT_NAME} ({level})"
                else:  # a member takes the seat back from the bot
                    bots.pop(seat, None)
                if not bots:
                    del settings["bots"]
                # the bot's name is the bot's own, as in a game begun against it; a member's is escaped
                settings.setdefault("names", {})[seat] = name if to_bot else escape_markdown(name, 40)
                await core.store.update_game(g.id, core.now(), settings=json.dumps(settings))
                g.row = (await core.store.game(g.id)) or g.row
                g.seats = dict(settings["seats"])
                # A decision pending on the seat: its new holder is asked for it as the old one was (a
                # secret one privately); the bot reads the game instead (bot/opponent.py).
                extra = [] if to_bot else [
                    r for r in _prompts_unless_paused(core, g) if r.user == user or user in r.mentions]
                return await _log_and_post(core, g.id, g.row.place, cmd.user,
                                           f"gave seat {seat} of game #{g.id} to {g.name_of(seat)} (was {old})",
                                           cmd.args.get("reason", ""), extra)


@command("mod end")
async def end(core: Core, cmd: Command) -> list[Reply]:
    """End a game with a result: winner:SEAT or winner:draw."""
    async with core.locked(cmd, moderating=True) as g:
        winner = cmd.args.get("winner", "")
        winner = next((s for s in g.rules.seats if s.casefold() == winner.casefold()), winner)
        if winner != "draw" and winner not in g.rules.seats:
            raise _refuse(f"winner must be draw or one of {', '.join(g.rules.seats)}")
        reason = escape_markdown(cmd.args.get("reason", "ended by a moderator"), 300)
        who = "the clock" if cmd.user == "clock" else f"moderator {cmd.user}"
        return await finish(core, g, None if winner == "draw" else winner, f"{reason} ({who})",
                            modlog=(cmd.user, f"ended game #{g.id}: {winner}", reason))


@command("mod edit")
async def edit(core: Core, cmd: Command) -> list[Reply]:
    """Correct the position (place, remove or change a unit), with a reason; it goes into the log."""
    from engine.core.dice import FixedDice
    from engine.core.protocol import MODERATOR, Action

    g = core.find_game(cmd)
    core.check_moderator(g, cmd)
    ops = g.rules.edit_verbs()
    op = cmd.args.get("op", "").strip().lower()
    if not ops:
        raise _refuse(f"{g.rules.title} has no position editing; /mod rollback can undo a mistake instead")
    if op not in {v.verb for v in ops}:
        listing = "; ".join(f"op:{v.verb} " + " ".join(f"{a.name}:{a.kind.upper()}" for a in v.args) for v in ops)
        raise _refuse(f"say what to change: /mod edit {listing} reason:\"...\"")
    reason = escape_markdown(cmd.args.get("reason", "").strip(), 300)
    if not reason:
        raise _refuse('every edit needs a reason the players can read: add reason:"..."')
    action = Action(verb=op, args={k: v for k, v in cmd.args.items() if k not in ("op", "reason", "game")})
    async with core.locked(cmd, moderating=True) as g:
        assert g.state is not None
        before = g.pending()
        state, events = g.rules.apply(g.state, MODERATOR, action, FixedDice([]))  # an edit rolls no dice
        what = f"edited game #{g.id}: {'; '.join(e.text for e in events if e.public) or action.text()}"
        note = Reply(to="channel", place=g.row.place, game_id=g.id,
                     text=f"Moderation: {cmd.user} {what}. Reason: {reason}")
        # the note goes into the outbox in the edit's own transaction: a crash cannot keep one without the other
        return await core._commit(g, cmd, MODERATOR, action, None, state, events, [], before,
                                  modlog=(what, reason), notes=[note])


@command("mod log")
async def modlog(core: Core, cmd: Command) -> list[Reply]:
    """The moderation log of a game."""
    g = await core.find_any(cmd)
    core.check_moderator(g, cmd)
    rows = await core.store.modlog(g.id)
    text = "\n".join(f"{r['created_at']} {r['moderator']}: {r['what']}" + (f" (reason: {r['reason']})" if r["reason"]
                                                                           else "") for r in rows)
    return [private(cmd.user, cmd.place, text or f"No moderator has acted in game #{g.id}.")]


async def public_length(core: Core, game_id: int, branch: int, length: int) -> tuple[int, str]:
    """How many actions of a branch anyone may count: not the private steps of a sealed choice
    still being made (a moderator who also plays learns no more than a player)."""
    open_ = [s.seq for s, _ in await core.store.sealed(game_id, branch) if s.closed_at is None]
    if not open_:
        return length, ""
    return min(open_) - 1, " and sealed choices being made"


async def _splits_a_reveal(core: Core, g: Live, to: int) -> tuple[int, int] | None:
    """The first and last action of sealed choices revealed together that a rollback to ``to`` would split.

    A game ended outside the rules (a resignation, ``/mod end``, a clock) opened its choices still sealed
    after its last action, with no action of its own: a rollback to that last action splits them too."""
    result = g.row.settings_dict.get("result") if g.row.status == "over" else None
    # the choices the ending opened (a record of a game ended before they were noted: all those opened at
    # its last action, to be safe)
    by_end = set(result.get("opened", [])) if isinstance(result, dict) and "opened" in result else None
    revealed: dict[int, list[int]] = {}
    for s in await core.store.secrets(g.id, g.row.branch):
        if s.revealed_at is not None:
            revealed.setdefault(s.revealed_at, []).append(s.seq)
    for at, seqs in sorted(revealed.items()):
        if min(seqs) <= to < at:
            return min(seqs), at
        ended_here = [s for s in seqs if by_end is None or s in by_end] if result is not None and at == g.seq else []
        if ended_here and min(ended_here) <= to:
            return min(ended_here), at
    return None
