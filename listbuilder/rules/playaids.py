"""The play aids of a rule set: its markers, scores, turn track and set-up rolls, declared once.

``reference.yaml``'s ``play_aids`` says what a player keeps track of at the table. The printed
roster draws them as tick boxes and tracks; the play page (``listbuilder.play``) makes them
buttons. Both read these records, so a marker is declared in one place:

- a **marker** is a *toggle* (Stunned: on or off) or a *count* (Danger tokens: 0, 1, 2...), kept
  per *model* (each figure) or per *unit* (each copy of an entry, where a rule set tracks units),
  for the unit types its ``uses`` names, with a ``maximum`` (a number, ``figures``: the unit's
  figures, or none where the text sets no cap), ``clears: turn`` where the text wipes it at
  the end of each turn (``activation`` where it lasts until the model's next activation, which
  the next turn brings), and ``takes_off`` the markers that putting it on removes;
- a **track** is a score or a pool of tokens kept once per force (Fate tokens, victory points);
- a **roll** is a set-up roll: a die read against a table of the reference, or a roll-off;
- **half** says what losing half of a force means, where the text gives it a meaning.
"""

from __future__ import annotations

import re
from typing import Literal

from listbuilder.record import Record, record
from listbuilder.rules.schema import doc


@record
class Uses(Record):
    """Which units need an item on their reference sheet: those with one of these stat values."""

    stat: str = doc("a choice or choices stat, e.g. 'class'")
    any_of: tuple[str, ...] = doc("values of the stat; leave out for any value", default=())


@record
class Marker(Record):
    """A marker a player puts on a model or a unit during a game, e.g. 'Stunned' or 'Danger tokens'."""

    label: str = doc("the marker's name, e.g. 'Stunned'")
    kind: Literal["toggle", "count"] = doc(
        "'toggle' (on or off, one tick box) or 'count' (a number that goes up and down)", default="toggle"
    )
    per: Literal["model", "unit"] = doc(
        "'model' (each figure has its own) or 'unit' (each copy of a unit has one)", default="model"
    )
    uses: Uses | None = doc("the units that get it; leave out for every unit", default=None)
    maximum: int | Literal["figures"] | None = doc(
        "a count's highest value: a number, 'figures' (the unit's figures), or left out where the text sets no cap",
        default=None,
    )
    clears: Literal["turn", "activation"] | None = doc(
        "'turn' where the text clears it when a turn ends; 'activation' where it lasts until the model's "
        "next activation, which the track's next turn brings (the next turn takes both off)",
        default=None,
    )
    takes_off: tuple[str, ...] = doc(
        "markers it takes off the model or unit when it is put on (hunkering down drops all Danger tokens)",
        default=(),
    )
    out: bool = doc("true when a model so marked is out of the game (dead, a casualty)", default=False)
    text: str = doc("what it means, in our own words", default="")
    source: str = doc("where the source text gives it", default="")


@record
class Track(Record):
    """A number kept once per force, e.g. Fate tokens 0-20 starting at 10, or victory points."""

    label: str = doc("what it counts")
    start: int = doc("where it starts", default=0)
    maximum: int = doc("the last numbered box printed", default=20)
    capped: bool = doc(
        "true only where the text caps the count at 'maximum'; otherwise a last box counts on past it",
        default=False,
    )
    steps: tuple[int, ...] = doc("the amounts the play page adds or takes away in one tap", default=(1,))
    printed: bool = doc("false for a score kept only on the play page, not printed on the roster", default=True)
    text: str = doc("how it is gained and spent, in our own words", default="")
    source: str = doc("where the source text gives it", default="")


@record
class Roll(Record):
    """A roll made before or during the game: a die read on a table of the reference, or a roll-off."""

    id: str = doc("a short name, e.g. 'deployment'")
    title: str = doc("what is rolled for, e.g. 'Deployment zones'")
    kind: Literal["table", "roll-off"] = doc(
        "'table' (one die read on 'table') or 'roll-off' (each side rolls a die, the higher wins)", default="table"
    )
    table: str = doc("for 'table': the id of the reference table whose first column holds the faces", default="")
    opponent_adds: str = doc(
        "for 'roll-off': a marker; the other side adds 1 to its die for each of your pieces that has it",
        default="",
    )
    tie: str = doc(
        "for 'roll-off': what a tie means, where the text does not say: the catalog's ruling, named "
        "('roll again (ruling roll-off-ties)'); left out, a tie is said to be one the text does not settle",
        default="",
    )
    text: str = doc("what the result means, in our own words", default="")
    source: str = doc("where the source text gives it", default="")


@record
class Half(Record):
    """What a side losing half of its force means in the rule set (an objective, a morale test)."""

    text: str = doc("what follows once half the force is out of the game, in our own words")
    source: str = doc("where the source text gives it", default="")


@record
class PlayAids(Record):
    """What the roster and the play page give players to track a game at the table."""

    turns: int | None = doc("the number of turns, for a turn track; leave out if the text sets none", default=None)
    turn_track: bool = doc(
        "false where the text keeps no turns of its own (a module plugged into other rules): no turn count, "
        "and no marker clears with a turn",
        default=True,
    )
    turn_text: str = doc("what one turn of the track is and when the game ends, in our own words", default="")
    markers: tuple[str | Marker, ...] = doc(
        "markers put on models or units: a label (a toggle on every model), or a marker in full", default=()
    )
    tracks: tuple[Track, ...] = doc("scores and token pools kept once per force", default=())
    rolls: tuple[Roll, ...] = doc("set-up rolls, in the order they are made", default=())
    half: Half | None = doc(
        "where losing half of a force matters: the play page then says where half is, and when it is reached",
        default=None,
    )
    source: str = doc("where the source text gives them", default="")

    @property
    def all_markers(self) -> tuple[Marker, ...]:
        """Every marker in full, a bare label read as a toggle on every model."""
        return tuple(m if isinstance(m, Marker) else Marker(label=m) for m in self.markers)


_FACES = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")


def faces(cell: str) -> tuple[int, ...] | None:
    """The die faces a table's first cell names ('1-3', '6'), or ``None`` if it names none."""
    m = _FACES.fullmatch(cell.strip())
    if m is None:
        return None
    low = int(m.group(1))
    high = int(m.group(2) or low)
    return tuple(range(low, high + 1)) if low <= high else None
