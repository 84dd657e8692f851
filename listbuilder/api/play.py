"""Play a list: games of a folder's lists, the taps that change them, set-up rolls and odds at hand.

A game is a YAML file in ``FOLDER/.listbuilder/games/`` (``listbuilder.play.games``); playing
never changes the list file. Every action is a tap record (``Start``, ``Mark``, ``Unmark``,
``Score``, ``NextTurn``, ``RollDice``, ``UndoTap``, ``End``) handed to ``play_tap``, which checks it,
writes the game and returns it. A game file that cannot be trusted is shown, never played on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from listbuilder.play import games
from listbuilder.play.board import Board, Piece, list_board
from listbuilder.play.games import GameSummary
from listbuilder.play.matchups import Opponent, SituationOption, opponents, piece_odds, situation_options
from listbuilder.play.rolls import die_face as face
from listbuilder.play.rolls import done, result, words
from listbuilder.play.taps import End, Logged, Mark, NextTurn, RollDice, Score, Start, Tap, UndoTap, Unmark, tap_of
from listbuilder.play.trust import Game
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "Board",
    "End",
    "Game",
    "GameSummary",
    "Mark",
    "NextTurn",
    "OddsChoices",
    "Piece",
    "Played",
    "RollDice",
    "Score",
    "SituationOption",
    "Start",
    "Tap",
    "UndoTap",
    "Unmark",
    "die_face",
    "game_odds",
    "games_of",
    "load_game",
    "odds_choices",
    "play_board",
    "play_tap",
    "read_tap",
    "roll_result",
    "start_game",
    "tap_words",
]


@record
class Played(Record):
    """What a tap did: the game after it, and the tap in words."""

    game: Game
    done: str

    __json__ = ("done", "game")


@record
class OddsChoices(Record):
    """What an odds question can name: the lists of the same rule set (file, name, units) and the
    situation options."""

    opponents: tuple[Opponent, ...]
    options: tuple[SituationOption, ...]


def play_board(folder: Path, name: str, catalogs: Catalogs) -> Board:
    """The board of the list ``name`` of ``folder``: its pieces and their markers, as it is now."""
    return list_board(folder, name, catalogs)


def games_of(folder: Path, name: str) -> tuple[GameSummary, ...]:
    """The games of a list, newest first (a file that cannot be read says why)."""
    return games.summaries(folder, name)


def load_game(
    folder: Path, name: str, catalogs: Catalogs, game: str | None = None, *, board: Board | None = None
) -> Game:
    """One game of a list (``None``: its latest), judged against the list as it is now
    (``board``: the list's board, when the caller has just read it)."""
    board = board or play_board(folder, name, catalogs)
    return games.load(folder, board, games.latest(folder, name) if game is None else game)


def start_game(folder: Path, name: str, catalogs: Catalogs) -> Game:
    """Start a new game of a list; its earlier games are kept."""
    return games.start(folder, play_board(folder, name, catalogs))


def play_tap(folder: Path, name: str, catalogs: Catalogs, game: str, tap: Tap) -> Played:
    """Apply one tap to a game of a list and write it: the game after it, and what was done."""
    board = play_board(folder, name, catalogs)
    after, line = games.act(folder, board, game, tap)
    return Played(game=after, done=done(board, tap, after.id, line))


def read_tap(fields: Mapping[str, Sequence[str]]) -> Tap:
    """The tap a posted form names (``tap=mark``, ``piece``, ``marker``...)."""
    return tap_of(fields)


def roll_result(board: Board, line: Logged) -> str:
    """A logged roll's result in words (its table's row, or who won a roll-off)."""
    return result(board, line)


def tap_words(board: Board, line: Logged) -> str:
    """A line of a game's log in words ('Stunned on: Sentry 2', 'Danger on Picket: 1 → 2')."""
    return words(board, line)


def die_face(n: int) -> str:
    """The die face character of ``n``: ⚀ to ⚅."""
    return face(n)


def odds_choices(folder: Path, name: str, catalogs: Catalogs, board: Board | None = None) -> OddsChoices:
    """The lists of ``folder`` of the same rule set as ``name`` (an opponent for odds), with their
    entries, and the rule set's situation options."""
    board = board or play_board(folder, name, catalogs)
    return OddsChoices(opponents=opponents(folder, board, catalogs), options=situation_options(board))


def game_odds(
    folder: Path,
    name: str,
    catalogs: Catalogs,
    piece: str,
    opponent: str,
    target: int,
    situation: Mapping[str, str | bool | int] | None = None,
) -> Any:
    """The exact odds (``listbuilder odds``' figures) of a piece of the list attacking entry
    ``target`` of the list ``opponent`` of the same folder; ``situation`` is the values of the
    mechanic's options."""
    board = play_board(folder, name, catalogs)
    other = play_board(folder, opponent, catalogs)
    return piece_odds(board, piece, other.report, target, situation or {})
