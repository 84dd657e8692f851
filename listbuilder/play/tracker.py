"""A board as plain data for a script: what the pocket copy's tracker plays a game with.

The served play page and the pocket file read one description of play: the rule set's play aids,
made into a board of pieces and controls by ``board.board_of``. This module writes that board
out as JSON-ready data, with the words a script cannot work out for itself (the row of a table
each die face falls on, what a roll-off's result is called) worked out here, by the same code
that words the served page's log (``rolls.py``), so the two never disagree.
"""

from __future__ import annotations

from typing import Any

from listbuilder.play.board import MAX_COUNT, MAX_SCORE, Board, Control
from listbuilder.play.game import MAX_TAPS, MAX_TURN
from listbuilder.play.rolls import DIE_FACES, result
from listbuilder.play.taps import Logged


def _control(c: Control) -> dict[str, Any]:
    return {
        "marker": c.marker,
        "kind": c.kind,
        "maximum": c.maximum,
        "clears": c.clears,
        "until": c.until,
        "out": c.out,
        "of_figures": c.of_figures,
        "takes_off": list(c.takes_off),
        "text": c.text,
    }


def _outcome(board: Board, roll_id: str, faces: tuple[int, ...]) -> str:
    """The result of a roll-off with ``faces`` (you, them), without the faces themselves."""
    said = result(board, Logged(tap="roll", turn=1, roll=roll_id, faces=faces))
    return said.rsplit(": ", 1)[-1]


def _roll(board: Board, roll: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": roll.id, "title": roll.title, "kind": roll.kind, "text": roll.text}
    if roll.kind == "roll-off":
        out["adds"] = roll.opponent_adds
        out["higher"] = _outcome(board, roll.id, (2, 1))
        out["lower"] = _outcome(board, roll.id, (1, 2))
        out["tie"] = _outcome(board, roll.id, (1, 1))
    else:
        out["faces"] = {
            str(face): result(board, Logged(tap="roll", turn=1, roll=roll.id, faces=(face,))) for face in range(1, 7)
        }
    return out


def tracker_data(board: Board) -> dict[str, Any]:
    """The board of a list as plain data: pieces (each naming one of ``controls``, the distinct sets
    of markers), tracks, rolls, the turn track and the bounds a game keeps to."""
    control_sets: list[tuple[Control, ...]] = []
    pieces = []
    for p in board.pieces:
        if p.controls not in control_sets:
            control_sets.append(p.controls)
        pieces.append(
            {
                "key": p.key,
                "unit": p.unit,
                "figures": p.figures,
                "cost": p.cost,
                "leader": p.leader,
                "stats": p.stats,
                "controls": control_sets.index(p.controls),
            }
        )
    aids = board.aids
    return {
        "name": board.name,
        "system": board.system_name,
        "leader": board.report.system.definition.leader.title,
        "turns": aids.turns,
        "turn_track": aids.turn_track,
        "turn_text": aids.turn_text,
        "counts_figures": board.counts_figures,
        "size": board.size,
        "size_unit": board.size_unit,
        "half": None if aids.half is None else aids.half.text,
        "phases": [list(p) for p in board.phases],
        "controls": [[_control(c) for c in cs] for cs in control_sets],
        "pieces": pieces,
        "tracks": [
            {
                "label": t.label,
                "start": t.start,
                "top": t.maximum if t.capped else MAX_SCORE,
                "steps": list(t.steps),
                "text": t.text,
            }
            for t in aids.tracks
        ],
        "rolls": [_roll(board, r) for r in aids.rolls],
        "dice": DIE_FACES,
        "bounds": {"taps": MAX_TAPS, "turn": MAX_TURN, "count": MAX_COUNT},
    }
