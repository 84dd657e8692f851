"""The markers of a roster entry as printed: the rule set's play aids (``rules/playaids.py``) drawn
as boxes: a tick box per model for a toggle, a box to write the number in for a count, and a
row of boxes per unit to tick up to its figures."""

from __future__ import annotations

from typing import Any

from listbuilder.army.costing import figures_in
from listbuilder.record import Record, record
from listbuilder.rules.reference import ReferenceFile, markers_for
from listbuilder.rules.system import System

# Tick boxes stop here: a count of 10**12 prints a number, not a trillion boxes.
MAX_BOXES = 40
BOXES_PER_ROW = 15
TALLIES_PER_ROW = 7  # a tally box is two boxes wide: room to pencil a number


@record
class PrintedMarker(Record):
    """A marker's row of boxes on a roster entry: a tick box per model (a toggle), a box to pencil
    a number in per model or unit (a count), or a row of boxes per unit to tick up to its figures."""

    label: str
    rows: tuple[int, ...]  # the boxes of each printed row
    tally: bool  # the boxes are wide, to write a number in
    until: str = ""  # when the text clears it: "turn", "activation", or "" (the player does)


def _split(boxes: int, per_row: int) -> list[int]:
    """``boxes`` in even rows of at most ``per_row``: 16 boxes print as 8 and 8, not 15 and 1."""
    if boxes <= 0:
        return []
    rows = -(-boxes // per_row)
    base, extra = divmod(boxes, rows)
    return [base + 1] * extra + [base] * (rows - extra)


def printed_markers(ref: ReferenceFile, system: System, entry: Any) -> tuple[PrintedMarker, ...]:
    """The boxes of each marker ``entry``'s unit gets, from the rule set's declaration; none
    past ``MAX_BOXES`` (the roster then says how many models there are instead)."""
    figures = figures_in(system, entry.unit)
    out = []
    for m in markers_for(ref, system, [entry.unit]):
        if m.per == "unit" and m.kind == "count" and m.maximum == "figures":
            # tick one box per figure lost: a row of the unit's figures for each copy
            if entry.count * figures > MAX_BOXES:
                return ()
            rows = [n for _ in range(entry.count) for n in _split(figures, BOXES_PER_ROW)]
            out.append(PrintedMarker(label=m.label, rows=tuple(rows), tally=False, until=m.clears or ""))
            continue
        boxes = entry.count * (figures if m.per == "model" else 1)
        if boxes > MAX_BOXES:
            return ()
        tally = m.kind == "count"
        rows = _split(boxes, TALLIES_PER_ROW if tally else BOXES_PER_ROW)
        out.append(PrintedMarker(label=m.label, rows=tuple(rows), tally=tally, until=m.clears or ""))
    return tuple(out)
