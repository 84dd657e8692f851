"""The actions of a game, each a small immutable record: start, mark, unmark, score, next turn,
roll, undo, end.

A face builds one of these (``tap_of`` reads one from a posted form) and hands it to
``listbuilder.play.games.act``, the one function that applies any of them; a tap that changes
the game is kept in its log as a ``Logged`` line, which undo takes back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from listbuilder.errors import InputError
from listbuilder.record import Record, record
from listbuilder.words import one_of


@record
class Tap(Record):
    """What every game action has: its name in a game file's log and in a form."""

    name: ClassVar[str] = ""
    __json__: ClassVar[tuple[str, ...] | None] = ("tap",)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A tap's JSON is its name, then its own fields in the order they are declared: set here,
        # as the class is made, for ``@record`` to read. A ClassVar (``name``) is no field.
        super().__init_subclass__(**kwargs)
        own = vars(cls).get("__annotations__", {})
        fields = (n for n, kind in own.items() if not str(kind).startswith(("ClassVar", "typing.ClassVar")))
        cls.__json__ = ("tap", *fields)

    @property
    def tap(self) -> str:
        """The action's name, as a form and a game file's log say it."""
        return self.name


@record
class Start(Tap):
    """Start a new game of the list (the game before it stays, to look back at)."""

    name: ClassVar[str] = "start"


@record
class Mark(Tap):
    """Put a marker on a piece: a toggle on, or one more on a count."""

    name: ClassVar[str] = "mark"
    piece: str
    marker: str


@record
class Unmark(Tap):
    """Take a marker off a piece: a toggle off, or one fewer on a count."""

    name: ClassVar[str] = "unmark"
    piece: str
    marker: str


@record
class Score(Tap):
    """Add to a track (or take away, with a negative ``by``): Fate tokens, victory points."""

    name: ClassVar[str] = "score"
    track: str
    by: int


@record
class NextTurn(Tap):
    """Move the turn track on, clearing the markers the rules clear each turn."""

    name: ClassVar[str] = "next-turn"


@record
class RollDice(Tap):
    """Make one of the rule set's rolls; ``faces`` are the dice if they were rolled at the table."""

    name: ClassVar[str] = "roll"
    roll: str
    faces: tuple[int, ...] = ()


@record
class UndoTap(Tap):
    """Take back the last tap that changed the game."""

    name: ClassVar[str] = "undo"


@record
class End(Tap):
    """End the game: it is kept, and shown, but taps no longer change it (undo takes the end back)."""

    name: ClassVar[str] = "end"


TAPS: tuple[type[Tap], ...] = (Start, Mark, Unmark, Score, NextTurn, RollDice, UndoTap, End)
_BY_NAME = {t.name: t for t in TAPS}


def tap_of(fields: Mapping[str, Sequence[str]]) -> Tap:
    """The tap a posted form asks for: ``tap`` names it, the other fields give its values."""

    def one(key: str) -> str:
        values = fields.get(key) or [""]
        return values[-1]

    name = one("tap")
    kind = _BY_NAME.get(name)
    if kind is None:
        raise InputError.detailed(f"'{name}' is not a game action", one_of(list(_BY_NAME)))
    if kind in (Mark, Unmark):
        return kind(piece=one("piece"), marker=one("marker"))
    if kind is Score:
        return Score(track=one("track"), by=_whole(one("by"), "the amount"))
    if kind is RollDice:
        given = one("faces").replace(",", " ").split()
        if len(given) > MAX_FACES:
            raise InputError(f"a roll takes at most {MAX_FACES} dice, found {len(given):,}")
        return RollDice(roll=one("roll"), faces=tuple(_whole(f, "a die") for f in given))
    return kind()


MAX_DIGITS = 9  # a number a form sends: more than any score or die (as the builder's forms read them)
MAX_FACES = 10  # dice a form may name for one roll; a roll-off takes two


def _whole(text: str, what: str) -> int:
    """A form's number, read with a bound: ``int()`` past 4,300 digits is a ValueError of its own."""
    digits = text.strip().lstrip("+-")
    if len(digits) > MAX_DIGITS and digits.isascii() and digits.isdigit():
        raise InputError(
            f"{what} must be a whole number of at most {MAX_DIGITS} digits, found one of {len(digits):,} digits"
        )
    try:
        value = int(text.strip()) if len(digits) <= MAX_DIGITS else None
    except ValueError:
        value = None
    if value is None:
        raise InputError(f"{what} must be a whole number, found '{text[:40]}'")
    if abs(value) > 1_000_000:
        raise InputError(f"{what} is out of range: {value}")
    return value


@record
class Logged(Record):
    """One line of a game's log: a tap that changed the game, with what undoing it restores."""

    tap: str  # mark, unmark, score, next-turn, roll, end
    turn: int  # the turn it was made in
    piece: str = ""
    marker: str = ""
    track: str = ""
    was: int = 0  # the marker's or track's value before
    now: int = 0  # and after
    roll: str = ""
    faces: tuple[int, ...] = ()
    bonus: int = 0  # roll-off: what the other side adds to its die (the roll's 'opponent_adds')
    # next-turn, or a mark that takes other markers off: (piece, marker, value) it cleared
    cleared: tuple[tuple[str, str, int], ...] = ()

    def line(self) -> dict[str, Any]:
        """The line as a game file's log writes it: only the keys its tap uses."""
        out: dict[str, Any] = {"tap": self.tap, "turn": self.turn}
        if self.tap in ("mark", "unmark"):
            out.update(piece=self.piece, marker=self.marker, was=self.was, now=self.now)
            if self.cleared:
                out["cleared"] = [list(c) for c in self.cleared]
        elif self.tap == "score":
            out.update(track=self.track, was=self.was, now=self.now)
        elif self.tap == "roll":
            out.update(roll=self.roll, faces=list(self.faces))
            if self.bonus:
                out["bonus"] = self.bonus
        elif self.tap == "next-turn" and self.cleared:
            out["cleared"] = [list(c) for c in self.cleared]
        return out

    def words(self, toggle: bool | None = None, title: str = "") -> str:
        """The line as the log on the page says it (``toggle``: whether its marker is on or off,
        rather than a count; by default, a change between 0 and 1 reads as one; ``title``: what a
        roll is for, as the rule set names it; by default its id)."""
        if self.tap in ("mark", "unmark"):
            if toggle is None:
                toggle = self.now in (0, 1) and self.was in (0, 1)
            took = "".join(f" ({marker} {value} → 0)" for _, marker, value in self.cleared)
            if toggle:
                return f"{self.marker} {'on' if self.now else 'off'}: {self.piece}{took}"
            return f"{self.marker} on {self.piece}: {self.was} → {self.now}{took}"
        if self.tap == "score":
            return f"{self.track} {self.was} → {self.now}"
        if self.tap == "roll":
            return f"Rolled {title or self.roll}: {' and '.join(str(f) for f in self.faces)}"
        if self.tap == "next-turn":
            n = len(self.cleared)
            return f"Turn {self.turn + 1} began" + (f" ({n} marker{'' if n == 1 else 's'} cleared)" if n else "")
        return "The game ended"
