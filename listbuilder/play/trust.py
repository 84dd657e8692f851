"""How far a game file is believed: the game as it can be shown and played, and why not.

A game file is trusted only if its markers and scores follow from its own log, name only pieces
and markers the list has, stay within each marker's bounds, and belong to this list. One that
fails is shown as far as it can be, and no tap changes it. When the list was edited since the
game began, the game says what changed; markers of pieces the list no longer has are set aside.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from listbuilder.play.board import Board, roster_changes
from listbuilder.play.game import GameState, replay
from listbuilder.play.gamefile import GameFile
from listbuilder.record import Record, record


@record
class Game(Record):
    """One game of a list as it can be shown and played: its state, and what to say about it."""

    id: str
    file: str  # the list's file name
    started: str
    state: GameState
    board: Board
    trusted: bool  # false: shown as the file says, and no tap changes it
    problems: tuple[str, ...] = ()  # why it is not trusted
    changes: tuple[str, ...] = ()  # what changed in the list since the game began
    list_changed: bool = False
    set_aside: tuple[str, ...] = ()  # pieces with markers that the list no longer has (kept as leftovers)

    __json__ = (
        "game=id",
        "list=file",
        "started",
        "turn=state.turn",
        "turns",
        "ended=state.ended",
        "markers=state.markers",
        "scores=state.scores",
        "rolls",
        "log",
        "trusted",
        "problems",
        "list_changed",
        "changes",
        "set_aside",
    )

    def is_out(self, piece: Any) -> bool:
        """Whether a piece is out of the game: a marker that puts it out is on, or at its maximum."""
        marks = self.state.markers.get(piece.key)
        return bool(marks) and piece.figures_out(marks) >= piece.figures

    def lost(self) -> tuple[int, int]:
        """How many pieces are out of the game, and how much of the force that is: the figures
        out, each weighing what it counts in the force's size, where a force is sized in
        figures (``Board.size``); the points of the pieces out, elsewhere."""
        pieces = weight = 0
        for piece in self.board.pieces:
            marks = self.state.markers.get(piece.key)
            out = piece.figures_out(marks) if marks else 0
            pieces += out >= piece.figures
            weight += piece.cost * out // max(piece.figures, 1) if out else 0
        return pieces, weight

    @property
    def rolls(self) -> list[dict[str, Any]]:
        return [line.line() for line in self.state.rolls]

    @property
    def log(self) -> list[dict[str, Any]]:
        return [line.line() for line in self.state.log]

    @property
    def turns(self) -> int | None:
        return self.board.aids.turns


def judge(game_id: str, gf: GameFile, board: Board) -> Game:
    """A game file weighed against the list as it is now: trusted, or shown only, and why."""
    problems: list[str] = []
    if gf.list != board.file:
        problems.append(f"it is a game of another list ('{gf.list[:80]}'), not of {board.file}")
    if gf.system != board.system:
        problems.append(f"it is a game of {gf.system[:40] or 'no rule set'}, but the list is {board.system}")
    changed = gf.version != board.version  # since the game began: the page says what changed
    # since the log was last written: it is played on the list as it is now (see ``replay``)
    moved = (gf.played_on or gf.version) != board.version
    stored = gf.state
    state, wrong = replay(board, stored.log, skip_missing=moved, leftovers=stored.leftovers)
    problems += wrong
    # where the list moved on, a marker brought back from the leftovers (or cleared by a turn
    # worked out again) was not in the markers written: those are not compared
    skip = {(p, m) for p, marks in stored.leftovers.items() for m in marks} if moved else set()
    if not wrong and (
        state.turn != stored.turn
        or state.ended != stored.ended
        or _plain(state.scores) != _plain(stored.scores)
        or _known(stored.markers, board, skip) != _known(state.markers, board, skip)
    ):
        problems.append("its turn, markers or scores do not follow from its log of taps: it was changed by hand")
    for piece, marks in stored.markers.items():
        p = board.piece(piece)
        if p is None and not moved:
            problems.append(f"it has markers on '{piece[:80]}', which is not a model of this list")
            continue
        for marker, value in marks.items():
            c = p.control(marker) if p is not None else None
            if p is not None and c is None and not moved:
                problems.append(f"it has '{marker[:80]}' on {piece[:80]}, which is not a marker it can have")
            elif c is not None and not 0 < value <= c.maximum:
                problems.append(f"{marker} on {piece} is {value}, outside 0 to {c.maximum}")
    set_aside = _aside(state.leftovers, board)
    changes = roster_changes(gf.roster, board.roster) if changed else ()
    if changed and not changes:
        changes = ("the list's file changed, but its units and counts did not",)
    problems = list(dict.fromkeys(problems))
    trusted = not problems
    return Game(
        id=game_id,
        file=board.file,
        started=gf.started,
        state=state if trusted else _shown(stored, board),
        board=board,
        trusted=trusted,
        problems=tuple(problems[:20]),
        changes=changes,
        list_changed=changed,
        set_aside=set_aside,
    )


def _plain(m: Mapping[str, int]) -> dict[str, int]:
    return dict(m)


def _known(m: Mapping[str, Mapping[str, int]], board: Board, skip: set[tuple[str, str]]) -> dict[str, dict[str, int]]:
    """The markers of the list's pieces, but those in ``skip``."""
    out = {}
    for k, marks in m.items():
        if board.piece(k) is not None:
            kept = {mk: v for mk, v in marks.items() if v and (k, mk) not in skip}
            if kept:
                out[k] = kept
    return out


def _aside(leftovers: Mapping[str, Mapping[str, int]], board: Board) -> tuple[str, ...]:
    """The set-aside markers as the page names them: a piece the list no longer has, or a marker
    a piece no longer has ('Immobilised on Colony Doctor')."""
    said = []
    for piece, marks in leftovers.items():
        held = board.piece(piece)
        if held is None:
            said.append(piece)
        else:
            said += [f"{marker} on {piece}" for marker in marks if held.control(marker) is None]
    return tuple(dict.fromkeys(said))


def _shown(stored: GameState, board: Board) -> GameState:
    """What an untrusted file says, cut to what the page can show: known pieces and markers, each
    value within its bounds (the page says the file is not to be trusted)."""
    markers = {}
    for piece, marks in stored.markers.items():
        p = board.piece(piece)
        if p is None:
            continue
        kept = {}
        for marker, value in marks.items():
            c = p.control(marker)
            if c is not None and value > 0:
                kept[marker] = min(value, c.maximum)
        if kept:
            markers[piece] = kept
    scores = {t.label: max(0, stored.scores.get(t.label, t.start)) for t in board.aids.tracks}
    return GameState(
        turn=max(1, stored.turn),
        ended=stored.ended,
        markers=markers,
        scores=scores,
        log=stored.log[-200:],
        leftovers=stored.leftovers,
    )
