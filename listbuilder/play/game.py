"""The state of a game and the rules of a tap: what each action does to it, and undo.

A game is its turn, whether it has ended, the markers on each piece, the tracks' scores and the
log of taps that made them. Every tap that changes the game adds one ``Logged`` line saying
what it changed and what was there before, so undo takes the last one back exactly (a new turn
puts back the markers it cleared), and a game file can be checked by playing its log again.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.play.board import MAX_SCORE, Board
from listbuilder.play.taps import End, Logged, Mark, NextTurn, RollDice, Score, Tap, Unmark
from listbuilder.record import FrozenMap, Record, record
from listbuilder.words import did_you_mean

MAX_TAPS = 20_000  # a game's log; a long evening is a few hundred
MAX_TURN = 999

Dice = Callable[[int], tuple[int, ...]]


def fair_dice(n: int) -> tuple[int, ...]:
    """``n`` six-sided dice, from the operating system's randomness."""
    return tuple(secrets.randbelow(6) + 1 for _ in range(n))


@record
class GameState(Record):
    """A game as it stands: turn, end, markers per piece, scores per track, and its log."""

    turn: int = 1
    ended: bool = False
    markers: Mapping[str, Mapping[str, int]] = FrozenMap()  # piece -> marker -> value (never 0)
    scores: Mapping[str, int] = FrozenMap()
    log: tuple[Logged, ...] = ()
    # markers the log does not make: set aside by an edit of the list (``leftovers``), piece ->
    # marker -> value; those of pieces the list has again are in ``markers`` too
    leftovers: Mapping[str, Mapping[str, int]] = FrozenMap()

    def value(self, piece: str, marker: str) -> int:
        return self.markers.get(piece, {}).get(marker, 0)

    @property
    def rolls(self) -> tuple[Logged, ...]:
        return tuple(line for line in self.log if line.tap == "roll")


class Reading(Protocol):
    """What checking a tap reads of a game: a ``GameState``, or a replay's ``_Live`` one."""

    @property
    def turn(self) -> int: ...
    @property
    def ended(self) -> bool: ...
    @property
    def markers(self) -> Mapping[str, Mapping[str, int]]: ...
    @property
    def scores(self) -> Mapping[str, int]: ...
    def value(self, piece: str, marker: str) -> int: ...


def initial(board: Board) -> GameState:
    """A new game: turn 1, no markers, each track at its start."""
    return GameState(scores={t.label: t.start for t in board.aids.tracks})


def _refuse(summary: str, hint: str | None = None) -> InputError:
    return InputError(summary, details=[ErrorDetail(message=hint)] if hint else None)


def _set(markers: Mapping[str, Mapping[str, int]], piece: str, marker: str, value: int) -> dict[str, Any]:
    out = dict(markers)
    own = dict(out.get(piece, {}))
    if value:
        own[marker] = value
    else:
        own.pop(marker, None)
    if own:
        out[piece] = own
    else:
        out.pop(piece, None)
    return out


def step(state: GameState, tap: Tap, board: Board, dice: Dice = fair_dice) -> GameState:
    """``state`` after ``tap`` (any but start and undo); ``InputError`` for a tap the game cannot take."""
    if state.ended and not isinstance(tap, End):
        raise _refuse("the game has ended", "undo the end to play on, or start a new game")
    if len(state.log) >= MAX_TAPS:
        raise _refuse(f"a game keeps at most {MAX_TAPS:,} taps", "start a new game")
    line = _logged(state, tap, board, dice)
    return apply_line(state, line)


def _logged(state: Reading, tap: Tap, board: Board, dice: Dice) -> Logged:
    turn = state.turn
    if isinstance(tap, Mark | Unmark):
        piece, marker, was, now = _marking(state, board, tap.piece, tap.marker, isinstance(tap, Mark))
        cleared: tuple[tuple[str, str, int], ...] = ()
        if isinstance(tap, Mark):  # what putting it on takes off (hunkering down drops Danger tokens)
            found = board.piece(piece)
            control = found.control(marker) if found is not None else None
            if control is not None:
                cleared = tuple((piece, m, v) for m in control.takes_off if (v := state.value(piece, m)))
        return Logged(tap=tap.name, turn=turn, piece=piece, marker=marker, was=was, now=now, cleared=cleared)
    if isinstance(tap, Score):
        label, was, now = _scoring(state, board, tap.track, tap.by)
        return Logged(tap="score", turn=turn, track=label, was=was, now=now)
    if isinstance(tap, NextTurn):
        if not board.aids.turn_track:
            raise _refuse("this rule set keeps no turns of its own", "count the turns of the rules it is played with")
        if board.aids.turns is not None and turn >= board.aids.turns:
            raise _refuse(f"the game ends after turn {board.aids.turns}", "end the game, or undo a turn")
        if turn >= MAX_TURN:
            raise _refuse(f"the turn track stops at {MAX_TURN}")
        return Logged(tap="next-turn", turn=turn, cleared=_cleared(state, board))
    if isinstance(tap, RollDice):
        roll = board.roll(tap.roll)
        if roll is None:
            raise _refuse(f"'{tap.roll[:80]}' is not a roll of this rule set")
        count = 2 if roll.kind == "roll-off" else 1
        faces = tap.faces or dice(count)
        if len(faces) != count or any(not 1 <= f <= 6 for f in faces):
            raise _refuse(f"{roll.title} takes {count} {'die' if count == 1 else 'dice'}, each 1 to 6")
        bonus = _count_marked(state, board, roll.opponent_adds) if roll.opponent_adds else 0
        return Logged(tap="roll", turn=turn, roll=roll.id, faces=tuple(faces), bonus=bonus)
    if isinstance(tap, End):
        if state.ended:
            raise _refuse("the game has ended already")
        return Logged(tap="end", turn=turn)
    raise _refuse(f"'{tap.name}' does not change a game's state")


def _marking(state: Reading, board: Board, piece_key: str, marker: str, on: bool) -> tuple[str, str, int, int]:
    """A marker put on (``on``) or taken off a piece, checked: (piece, marker, was, now)."""
    piece = board.piece(piece_key)
    if piece is None:
        hint = did_you_mean(piece_key, [p.key for p in board.pieces])
        raise _refuse(f"'{piece_key[:80]}' is not a model of this list", hint)
    control = piece.control(marker)
    if control is None:
        names = [c.marker for c in piece.controls]
        raise _refuse(
            f"'{marker[:80]}' is not a marker of {piece.key}",
            f"its markers: {', '.join(names)}" if names else "the rule set gives it no markers",
        )
    was = state.value(piece.key, control.marker)
    now = was + (1 if on else -1)
    if now < 0:
        raise _refuse(f"{piece.key} has no {control.marker} to take off")
    if now > control.maximum:
        raise _refuse(
            f"{piece.key} is already {control.marker}"
            if control.kind == "toggle"
            else f"{control.marker} on {piece.key} is at most {control.maximum}"
        )
    return piece.key, control.marker, was, now


def _scoring(state: Reading, board: Board, track_label: str, by: int) -> tuple[str, int, int]:
    """A track moved ``by``, checked: (track, was, now)."""
    track = board.track(track_label)
    if track is None:
        raise _refuse(f"'{track_label[:80]}' is not a score of this game")
    was = state.scores.get(track.label, track.start)
    now = was + by
    if now < 0:
        raise _refuse(f"{track.label} cannot go below 0 (it is {was})")
    top = track.maximum if track.capped else MAX_SCORE
    if now > top:
        raise _refuse(f"{track.label} is at most {top}")
    return track.label, was, now


def _count_marked(state: Reading, board: Board, marker: str, *, with_the_lost: bool = False) -> int:
    """How many of the list's figures still in the game have ``marker`` on (a count over a unit's
    figures counts each); a figure out of the game no longer counts, whatever it had on when it
    fell. ``with_the_lost`` counts them too, as logs made before they stopped counting did."""
    total = 0
    for key, marks in state.markers.items():
        piece = board.piece(key)
        value = marks.get(marker, 0) if piece is not None else 0
        if piece is not None and value:
            total += value if with_the_lost else min(value, piece.figures - piece.figures_out(marks))
    return total


def _counted_the_lost(state: Reading, board: Board, line: Logged) -> bool:
    """Whether a logged roll-off's bonus counted figures out of the game, as logs made before they
    stopped counting did: what was rolled then stands."""
    roll = board.roll(line.roll)
    adds = roll.opponent_adds if roll is not None else ""
    return bool(adds) and line.bonus == _count_marked(state, board, adds, with_the_lost=True)


def _cleared(state: Reading, board: Board) -> tuple[tuple[str, str, int], ...]:
    out = []
    for piece_key, marks in state.markers.items():
        piece = board.piece(piece_key)
        if piece is None:
            continue
        for marker, value in marks.items():
            control = piece.control(marker)
            if control is not None and control.clears:
                out.append((piece_key, marker, value))
    return tuple(out)


def apply_line(state: GameState, line: Logged) -> GameState:
    """``state`` with one logged line applied (as it was checked when it was made)."""
    return _moved(state, line, forward=True, log=(*state.log, line))


def undo(state: GameState) -> tuple[GameState, Logged]:
    """``state`` before its last tap, and that tap; ``InputError`` when there is none."""
    if not state.log:
        raise _refuse("there is no tap to undo")
    line = state.log[-1]
    return _moved(state, line, forward=False, log=state.log[:-1]), line


def _moved(state: GameState, line: Logged, *, forward: bool, log: tuple[Logged, ...]) -> GameState:
    """``state`` with what ``line`` changed made (``forward``) or taken back, and ``log`` for its log."""
    markers: Mapping[str, Mapping[str, int]] = state.markers
    scores = state.scores
    turn, ended = state.turn, state.ended
    if line.tap in ("mark", "unmark"):
        markers = _set(markers, line.piece, line.marker, line.now if forward else line.was)
        for piece, marker, value in line.cleared:
            markers = _set(markers, piece, marker, 0 if forward else value)
    elif line.tap == "score":
        scores = {**scores, line.track: line.now if forward else line.was}
    elif line.tap == "next-turn":
        for piece, marker, value in line.cleared:
            markers = _set(markers, piece, marker, 0 if forward else value)
        turn += 1 if forward else -1
    elif line.tap == "end":
        ended = forward
    return GameState(turn=turn, ended=ended, markers=markers, scores=scores, log=log, leftovers=state.leftovers)


class _Live:
    """A game being played again, changed in place: a replay of n lines is n small steps, not n
    new records each holding the whole log so far."""

    def __init__(self, start: GameState) -> None:
        self.turn = start.turn
        self.ended = start.ended
        self.markers: dict[str, dict[str, int]] = {k: dict(v) for k, v in start.markers.items()}
        self.scores: dict[str, int] = dict(start.scores)
        self.log: list[Logged] = list(start.log)
        self.leftovers: dict[str, dict[str, int]] = {k: dict(v) for k, v in start.leftovers.items()}

    def value(self, piece: str, marker: str) -> int:
        return self.markers.get(piece, {}).get(marker, 0)

    def apply(self, line: Logged) -> None:
        if line.tap in ("mark", "unmark"):
            self._set(line.piece, line.marker, line.now)
            for piece, marker, _ in line.cleared:
                self._set(piece, marker, 0)
        elif line.tap == "score":
            self.scores[line.track] = line.now
        elif line.tap == "next-turn":
            for piece, marker, _ in line.cleared:
                self._set(piece, marker, 0)
            self.turn += 1
        elif line.tap == "end":
            self.ended = True
        self.log.append(line)

    def _set(self, piece: str, marker: str, value: int, markers: dict[str, dict[str, int]] | None = None) -> None:
        held = self.markers if markers is None else markers
        own = held.setdefault(piece, {})
        if value:
            own[marker] = value
        else:
            own.pop(marker, None)
            if not own:
                del held[piece]

    def set_aside(self, piece: str, marker: str, value: int) -> None:
        """A marker of a piece (or a marker) the list no longer has: kept aside at ``value``."""
        self._set(piece, marker, value, self.leftovers)

    def state(self) -> GameState:
        return GameState(
            turn=self.turn,
            ended=self.ended,
            markers=self.markers,
            scores=self.scores,
            log=tuple(self.log),
            leftovers=self.leftovers,
        )


def replay(
    board: Board,
    lines: Iterable[Logged],
    skip_missing: bool = False,
    leftovers: Mapping[str, Mapping[str, int]] = FrozenMap(),
) -> tuple[GameState, list[str]]:
    """Play a log again from a new game, checking each line as a tap is checked when it is made.

    Returns the state it ends in and what was wrong with it: a line that does not follow from
    the ones before (a hand edit), a count past its bounds, a piece or marker the list does not
    have. ``leftovers`` are markers set aside earlier: those of pieces the list has (again) are
    where the game starts from, the others stay aside.

    With ``skip_missing`` (the list was edited since the log was written), the log is played on
    the list as it is: a line about a piece or marker the list no longer has leaves the log and
    its marker is set aside (in the state's ``leftovers``), and what a line worked out from the
    list (the markers a turn clears, the figures a roll-off adds) is worked out again."""
    state = _Live(dataclasses.replace(initial(board), leftovers=leftovers))
    problems: list[str] = []
    for piece_key, marks in leftovers.items():
        held = board.piece(piece_key)
        for marker, value in marks.items():
            control = held.control(marker) if held is not None else None
            if control is None or not value:
                continue
            if not 0 < value <= control.maximum:
                problems.append(f"the leftover {marker} on {piece_key} is {value}, outside 0 to {control.maximum}")
            else:
                state._set(piece_key, marker, value)  # brought back: the model is in the list again
    for n, line in enumerate(lines, 1):
        if line.tap in ("mark", "unmark"):
            piece = board.piece(line.piece)
            if skip_missing and (piece is None or piece.control(line.marker) is None):
                state.set_aside(line.piece, line.marker, line.now)
                continue
            tap: Tap | None = None
            expected_was = state.value(line.piece, line.marker)
        elif line.tap == "score":
            tap = None
            track = board.track(line.track)
            expected_was = state.scores.get(line.track, track.start if track else 0)
        elif line.tap == "next-turn":
            tap, expected_was = NextTurn(), line.was
        elif line.tap == "roll":
            tap, expected_was = RollDice(roll=line.roll, faces=line.faces), line.was
        elif line.tap == "end":
            tap, expected_was = End(), line.was
        else:
            problems.append(f"log line {n}: '{line.tap[:40]}' is not a game action")
            break
        if line.was != expected_was:
            problems.append(f"log line {n} ({line.words()[:80]}) does not follow from the lines before it")
            break
        if line.turn != state.turn:
            problems.append(f"log line {n} says turn {line.turn}, but the game was in turn {state.turn}")
            break
        try:
            if tap is None:  # a mark or a score, checked as its tap is, without a record made for each line
                if line.tap == "score":
                    now = _scoring(state, board, line.track, line.now - line.was)[2]
                else:
                    now = _marking(state, board, line.piece, line.marker, line.tap == "mark")[3]
                made = line if now == line.now else dataclasses.replace(line, now=now)
            else:
                made = _logged(state, tap, board, fair_dice)
            if state.ended and line.tap != "end":
                raise _refuse("a tap after the game's end")
        except InputError as exc:
            problems.append(f"log line {n}: {exc.summary}")
            break
        if made.bonus != line.bonus and _counted_the_lost(state, board, line):
            made = line
        if made.now != line.now or (made.bonus != line.bonus and not skip_missing):
            problems.append(f"log line {n} ({line.words()[:80]}) is not what its tap does")
            break
        if line.tap == "next-turn" and skip_missing:
            for piece_key, marker, _ in line.cleared:
                held = board.piece(piece_key)
                if held is None or held.control(marker) is None:
                    state.set_aside(piece_key, marker, 0)  # cleared when the turn was played
        elif line.tap == "next-turn" and set(made.cleared) != set(line.cleared):
            problems.append(f"log line {n}: the markers it cleared are not the ones the turn clears")
            break
        elif line.tap == "mark" and set(made.cleared) != set(line.cleared):
            problems.append(f"log line {n}: the markers it took off are not the ones its marker takes off")
            break
        state.apply(made)
    return state.state(), problems
