"""Games of the lists of a folder, kept in ``FOLDER/.listbuilder/games/``: where they live,
starting one, loading one, and applying a tap to one, a game at a time.

Playing never changes the list file. ``gamefile`` reads and writes a game's YAML; ``trust``
decides how far what it says is believed.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.memory import Bounded
from listbuilder.play.board import Board
from listbuilder.play.game import Dice, fair_dice, initial, step, undo
from listbuilder.play.gamefile import GameFile, cached_stamp, read_game_file, write_game
from listbuilder.play.places import game_ids, game_path, games_locked
from listbuilder.play.taps import Logged, Start, Tap, UndoTap
from listbuilder.play.trust import Game, judge
from listbuilder.record import Record, record

MAX_GAMES = 500  # games kept per list; the oldest go first


@record
class GameSummary(Record):
    """A game of a list, for the list of games."""

    id: str
    started: str
    turn: int
    ended: bool
    taps: int
    error: str = ""

    __json__ = ("game=id", "started", "turn", "ended", "taps", "error")


def now_text() -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime())


def start(folder: Path, board: Board) -> Game:
    """Start a new game of ``board``'s list (the list's earlier games are kept)."""
    with games_locked(folder, board.file) as where:
        ids = game_ids(folder, board.file)
        number = int(ids[-1]) + 1 if ids else 1
        if number > 999_999:
            raise InputError("this list has had a million games", file=where)
        gf = GameFile(
            list=board.file,
            name=board.name,
            system=board.system,
            version=board.version,
            revision=board.revision,
            roster=board.roster,
            started=now_text(),
            state=initial(board),
        )
        path = where / f"{number:04d}.yaml"
        write_game(path, gf)
        for old in ids[: max(0, len(ids) + 1 - MAX_GAMES)]:
            (where / f"{int(old):04d}.yaml").unlink(missing_ok=True)
        return judge(str(number), gf, board)


# The last judgement of each game file: a tap reads the file (kept by gamefile) and needs its verdict,
# which is a replay of its whole log; kept while neither the file nor the list has changed.
_JUDGED: Bounded[Path, tuple[Any, Game]] = Bounded(256)


def _judged(path: Path, game_id: str, gf: GameFile, board: Board) -> Game:
    key = (cached_stamp(path), board.version, board.system, id(board.aids))
    held = _JUDGED.get(path)
    if held is not None and held[0] == key:
        return held[1]
    game = judge(game_id, gf, board)
    _JUDGED.put(path, (key, game))
    return game


def latest(folder: Path, list_name: str) -> str:
    """The id of a list's latest game; an ``InputError`` when it has none."""
    ids = game_ids(folder, list_name)
    if not ids:
        raise InputError.detailed(f"{list_name} has no game yet", "start one")
    return ids[-1]


def load(folder: Path, board: Board, game_id: str) -> Game:
    """One game of ``board``'s list, judged against the list as it is now."""
    path = game_path(folder, board.file, game_id)
    return _judged(path, str(int(game_id)), read_game_file(path), board)


def act(folder: Path, board: Board, game_id: str, tap: Tap, dice: Dice = fair_dice) -> tuple[Game, Logged | None]:
    """Apply ``tap`` to a game and write it; the game after it, and the line it logged (or undid).

    Refused, with nothing written, for a game that is not trusted and for a tap the game cannot take."""
    if isinstance(tap, Start):
        return start(folder, board), None
    with games_locked(folder, board.file):  # one change of a list's games at a time, between servers too
        path = game_path(folder, board.file, game_id)
        gf = read_game_file(path)
        game = _judged(path, str(int(game_id)), gf, board)
        if not game.trusted:
            raise InputError(
                "this game file cannot be played on: " + game.problems[0],
                file=path,
                details=[ErrorDetail(message=p) for p in game.problems[1:4]]
                + [ErrorDetail(message="it is shown as it is", hint="start a new game")],
            )
        if isinstance(tap, UndoTap):
            state, line = undo(game.state)
        else:
            state = step(game.state, tap, board, dice)
            line = state.log[-1]
        # a game plays on the list as it is: its version is the one the taps were checked against
        roster = gf.roster if game.list_changed else board.roster
        new = GameFile(
            list=gf.list,
            name=gf.name,
            system=gf.system,
            version=gf.version,
            played_on=board.version,  # the log, played on the list as it is now
            revision=gf.revision,
            roster=roster,
            started=gf.started,
            state=state,
        )
        write_game(path, new)
        # the tap was checked against the trusted game: the verdict carries over without a replay
        after = dataclasses.replace(game, state=state)
        _JUDGED.put(path, ((cached_stamp(path), board.version, board.system, id(board.aids)), after))
        return after, line


def summaries(folder: Path, list_name: str) -> tuple[GameSummary, ...]:
    """The games of a list, newest first, each read as far as it can be."""
    out = []
    for gid in reversed(game_ids(folder, list_name)):
        try:
            gf = read_game_file(game_path(folder, list_name, gid))
        except InputError as exc:
            out.append(GameSummary(id=gid, started="", turn=0, ended=False, taps=0, error=exc.summary))
            continue
        s = gf.state
        out.append(GameSummary(id=gid, started=gf.started, turn=s.turn, ended=s.ended, taps=len(s.log)))
    return tuple(out)
