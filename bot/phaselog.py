"""The quiet thread: one message per phase, edited as its orders come in; pings only at a hand-over.

A game's thread reads like a game report. When a phase begins, one post carries the
board and who decides now (with a ping only when the decision passed to them); each
order of that phase then edits this post, adding its lines, instead of posting again.
A phase in which nothing happened (its only order closed it, and said nothing) posts
nothing: the next phase is written into the same message. The acting player gets a
private acknowledgement of each order, with what comes next and an Undo button.

The phase message is kept in the game's settings (``phase_msg``), so a restart edits
the same message. A transport that cannot edit prints the edit again (the console).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.replies import MAX_BUTTONS, Button, Reply
from engine.core.protocol import Action

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

RESOLVERS = ("dice", "assault")
"""The stand-alone combats: their seats are roles (attacker, defender), so posts name the members."""
_ROLE = re.compile(r"\b([Tt]he )?(attacker|defender)('s)?\b")

INLINE_NONCES = 4
"""A reveal of at most this many choices is one line of the phase message; more go in an attached file."""
EDIT_LIMIT = 1800
"""A phase message longer than this goes on in a new post (Discord allows 2,000 characters)."""


def undo_button(g: Live) -> Button:
    """The Undo button of a private acknowledgement."""
    return Button(label="Undo", command=f"/undo game:{g.id}", style="secondary")


def may_offer_undo(g: Live, seat: str, rolls: list, secret: bool, events: list, phase_changed: bool) -> bool:
    """Whether the order just given could be taken back (decides the Undo button; /undo checks again)."""
    return (not rolls and not secret and not phase_changed and not any(e.kind == "reveal" for e in events)
            and any(p.seat == seat and not p.secret for p in g.pending()))


def record(g: Live) -> dict[str, Any] | None:
    """The game's current phase message: key, text, orders, and which lines each action wrote."""
    pm = g.row.settings_dict.get("phase_msg")
    if not pm or pm.get("branch") != g.row.branch:
        return None
    return dict(pm)


def _new(g: Live, seq: int, text: str, part: int = 0) -> dict[str, Any]:
    return {"key": f"game{g.id}.b{g.row.branch}.s{seq}" + (f".{part}" if part else ""), "branch": g.row.branch,
            "text": text, "orders": 0, "marks": []}


def _append(g: Live, pm: dict[str, Any] | None, seq: int, lines: list[str]) -> dict[str, Any]:
    """Add an action's lines to the phase message (a new part when it grows too long)."""
    if pm is None:
        pm = _new(g, seq, "")
    text = pm["text"]
    joined = "\n".join(lines)
    if text and len(text) + len(joined) + 1 > EDIT_LIMIT:
        pm = _new(g, seq, "", part=len(pm["marks"]) + 1)
        text = ""
    start = len(text.split("\n")) if text else 0
    pm["text"] = f"{text}\n{joined}" if text else joined
    pm["orders"] = pm.get("orders", 0) + 1
    pm["marks"] = [*pm.get("marks", []), [seq, start, start + len(lines)]]
    return pm


def edit_reply(g: Live, pm: dict[str, Any], seq: int, *, board: bool = False,
               buttons: list[Button] | None = None, mentions: list[str] | None = None) -> Reply:
    return Reply(to="channel", place=g.row.place, text=pm["text"], game_id=g.id, seq=seq, board=board,
                 buttons=buttons or [], mentions=mentions or [], edit_key=pm["key"])


def _is_lines(r: Reply, g: Live) -> bool:
    return (r.to == "channel" and r.place == g.row.place and not r.board and not r.mentions and not r.buttons
            and not r.file_name and not r.edit_key and not r.animation and not r.prompt)


def shape(g: Live, replies: list[Reply], *, seq: int, actor: str, place: str, over: bool,
          undo: Button | None = None) -> list[Reply]:
    """Turn one order's replies into a quiet thread's: edits of the phase message, one post a phase."""
    pm = record(g)
    lines_replies = [r for r in replies if _is_lines(r, g)]
    lines = [named(g, line) for r in lines_replies for line in r.text.split("\n") if line.strip()]
    board = next((r for r in replies if r.to == "channel" and r.board and not r.edit_key), None)
    prompts = [r for r in replies if r.to == "channel" and r.prompt and r.place == g.row.place and not over]
    rest = [r for r in replies if r not in lines_replies and r is not board and r not in prompts]
    out: list[Reply] = []
    closing_empty = pm is not None and pm.get("orders", 0) == 0 and not lines
    if lines and len("\n".join(lines)) > EDIT_LIMIT:  # too long for one message: posted as it is
        out.append(Reply(to="channel", place=g.row.place, text="\n".join(lines), game_id=g.id, seq=seq))
    elif lines:
        pm = _append(g, pm, seq, lines)
        out.append(edit_reply(g, pm, seq))
    if over or board is None:
        out += ([board] if board is not None else []) + [r for r in rest if r.to != "private"] + prompts
        _save(g, pm)
        return _acks(out, rest, lines, actor, place, undo)
    out += [r for r in rest if r.to != "private"]  # a reveal belongs to the phase it closes
    pings = [p for p in prompts if p.mentions]
    if closing_empty and pm is not None and not pings:
        # 4.x "nothing happened": the new phase is written into the same message, no new post.
        head = board.text
        for p in prompts:
            head += "\n" + p.text
        pm["text"] = f"{pm['text']}\n(nothing happened)\n{head}"
        pm["marks"] = []
        out.append(edit_reply(g, pm, seq, buttons=[b for p in prompts for b in p.buttons]))
    else:
        merged = prompts[0] if prompts else None
        text = board.text + (f"\n{merged.text}" if merged is not None else "")
        pm = _new(g, seq, text)
        out.append(edit_reply(g, pm, seq, board=True, buttons=merged.buttons if merged else [],
                              mentions=merged.mentions if merged else []))
        out += prompts[1:]
    _save(g, pm)
    return _acks(out, rest, lines, actor, place, undo)


def _acks(out: list[Reply], rest: list[Reply], lines: list[str], actor: str, place: str,
          undo: Button | None) -> list[Reply]:
    """The acting player's private acknowledgement first: what their order did, what comes next, Undo."""
    privates = [r for r in rest if r.to == "private"]
    mine = next((r for r in privates if r.user == actor), None)
    if mine is None and (lines or undo is not None):
        game = next((r.game_id for r in out if r.game_id is not None), None)
        seq = next((r.seq for r in out if r.seq is not None), None)
        mine = Reply(to="private", user=actor, place=place, game_id=game, seq=seq, text="")
        privates.insert(0, mine)
    if mine is not None:
        text = "\n".join(x for x in ["Done: " + "\n".join(lines) if lines else "", mine.text] if x)
        buttons = list(mine.buttons)
        if undo is not None and len(buttons) < MAX_BUTTONS:
            buttons.append(undo)
        elif undo is not None:  # every answer of the prompt keeps its button (one was dropped, Done among them)
            text = (text or "Done.") + "\n(/undo takes your order back.)"
        privates[privates.index(mine)] = mine.model_copy(update={"text": text or "Done.", "buttons": buttons})
    return privates + out


def strike(g: Live, seq: int, undo_seq: int, note: str) -> Reply | None:
    """The phase message with action ``seq``'s lines struck through and a note of the take-back."""
    pm = record(g)
    if pm is None:
        return None
    lines = pm["text"].split("\n")
    marks = []
    for s, a, b in pm.get("marks", []):
        if s == seq:
            for i in range(a, min(b, len(lines))):
                if lines[i] and not lines[i].startswith("~~"):
                    lines[i] = f"~~{lines[i]}~~"
        else:
            marks.append([s, a, b])
    lines.append(note)
    pm["text"] = "\n".join(lines)
    pm["marks"] = marks
    pm["orders"] = pm.get("orders", 0) + 1
    _save(g, pm)
    return edit_reply(g, pm, undo_seq)


def _save(g: Live, pm: dict[str, Any] | None) -> None:
    """Keep the phase message in the game's row (written by ``save``, in the command's transaction)."""
    settings = g.row.settings_dict
    if pm is None:
        settings.pop("phase_msg", None)
    else:
        settings["phase_msg"] = pm
    g.row = replace(g.row, settings=json.dumps(settings))


async def save(core: Core, g: Live, now: str) -> None:
    """Write the phase message record to the store (inside the command's transaction)."""
    await core.store.update_game(g.id, now, settings=g.row.settings)


def sealed_reveal(g: Live, opened: list, actions: dict) -> Reply:
    """One compact post for a reveal: how many choices of whom, and the nonces in an attached file."""
    file_lines = [f"# Sealed choices of game #{g.id}, opened together.",
                  "# Each commitment is sha256 of nonce:action-json; a choice made in several private steps",
                  "# was announced with sha256 of its steps' commitments joined by ':' (docs/record-format.md).",
                  "# seq, seat, action, nonce, commitment (separated by tabs)"]
    count: dict[str, int] = {}
    for s in opened:
        a = actions.get(s.seq)
        if a is None:
            continue
        act = Action.model_validate_json(a.action)
        count[a.seat] = count.get(a.seat, 0) + 1
        file_lines.append("\t".join((str(s.seq), a.seat, act.model_dump_json(), s.nonce, s.commitment)))
    who = " and ".join(f"{n} of {g.name_of(seat)} ({seat})" for seat, n in count.items())
    first = min((s.seq for s in opened), default=0)
    if len(opened) <= INLINE_NONCES:  # a line of the phase message, the nonces folded away (a spoiler)
        nonces = ", ".join(f"`#{s.seq} {s.nonce}`" for s in opened)
        return Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq + 1,
                     text=f"Sealed choices opened: {who}; each matches its commitment (nonces: ||{nonces}||).")
    return Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq + 1,
                 text=f"Sealed choices opened: {who}; each matches its commitment. "
                      "The nonces to check them are in the attached file.",
                 file_name=f"game-{g.id}-sealed-{first}.txt", file_text="\n".join(file_lines) + "\n")


def named(g: Live, text: str) -> str:
    """In a stand-alone combat, "the defender retreats" reads "bob (defender) retreats"."""
    if g.rules.name not in RESOLVERS:
        return text

    def name(m: re.Match[str]) -> str:
        seat = m.group(2)
        if seat not in g.rules.seats:
            return m.group(0)
        return f"{g.name_of(seat)}'s" if m.group(3) else f"{g.name_of(seat)} ({seat})"

    return _ROLE.sub(name, text)
