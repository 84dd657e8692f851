"""A game's log in words: what a tap did, and what a roll came to (the row of its table a die
falls on, or who won a roll-off)."""

from __future__ import annotations

from listbuilder.play.board import Board
from listbuilder.play.taps import Logged, Start, Tap, UndoTap
from listbuilder.rules.playaids import faces

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def die_face(n: int) -> str:
    """The die face character of ``n`` (1-6)."""
    return DIE_FACES[n - 1] if 1 <= n <= 6 else str(n)


def result(board: Board, line: Logged) -> str:
    """The result of a logged roll: its table's row (e.g. 'Corner to corner, 11" from the corner'),
    or who won a roll-off."""
    roll = board.roll(line.roll)
    if roll is None:
        return "not a roll of this rule set"
    if roll.kind == "roll-off":
        you, them = (*line.faces, 0, 0)[:2]
        them += line.bonus
        said = f"you {you}, your opponent {them}" + (f" ({them - line.bonus} + {line.bonus})" if line.bonus else "")
        if you == them:
            return f"{said}: a tie, {roll.tie}" if roll.tie else f"{said}: a tie, which the rules do not settle"
        return f"{said}: " + ("you roll higher" if you > them else "your opponent rolls higher")
    table = board.table(roll.table)
    face = line.faces[0] if line.faces else 0
    for row in table.rows if table else ():
        if face in (faces(row[0]) or ()):
            return ", ".join(cell for cell in row[1:] if cell)
    return "no row of the table has this face"


def words(board: Board, line: Logged) -> str:
    """A logged tap in words: 'Stunned on: Sentry 2', 'Danger on Picket: 1 → 2', a roll (by its
    title: 'Rolled Objective 1: 4') and its result."""
    if line.tap == "roll":  # named by what is rolled for, as the page's button is, never by its id
        roll = board.roll(line.roll)
        named = line.words() if roll is None else line.words(title=roll.title)
        return f"{named}: {result(board, line)}"
    if line.tap in ("mark", "unmark"):
        piece = board.piece(line.piece)
        control = piece.control(line.marker) if piece is not None else None
        return line.words(None if control is None else control.kind == "toggle")
    return line.words()


def done(board: Board, tap: Tap, game_id: str, line: Logged | None) -> str:
    """What a tap did, in words: the game started, the line it logged, or the line it undid."""
    if isinstance(tap, Start):
        return f"Game {game_id} started"
    said = words(board, line) if line is not None else "nothing"
    return f"Undone: {said}" if isinstance(tap, UndoTap) else said
