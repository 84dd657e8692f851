"""Play a list: games of a folder's lists, the taps that change them, set-up rolls and odds at hand.

A game is a YAML file in ``FOLDER/.listbuilder/games/`` (``listbuilder.play.games``); playing
never changes the list file. Every action is a tap record (``Start``, ``Mark``, ``Unmark``,
``Score``, ``NextTurn``, ``RollDice``, ``UndoTap``, ``End``) handed to ``play_tap``, which checks it,
writes the game and returns it. A game file that cannot be trusted is shown, never played on.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from listbuilder.odds.matchups import Outcome
from listbuilder.play import games
from listbuilder.play.board import Board, Piece
from listbuilder.play.board import list_board as play_board
from listbuilder.play.games import GameSummary
from listbuilder.play.games import summaries as games_of
from listbuilder.play.matchups import (
    Opponent,
    OptionGroup,
    SituationOption,
    attack_choices,
    opponents,
    option_groups,
    piece_odds,
)
from listbuilder.play.rolls import die_face as die_face
from listbuilder.play.rolls import done
from listbuilder.play.rolls import result as roll_result
from listbuilder.play.rolls import words as tap_words
from listbuilder.play.taps import End, Logged, Mark, NextTurn, RollDice, Score, Start, Tap, UndoTap, Unmark
from listbuilder.play.taps import tap_of as read_tap
from listbuilder.play.trust import Game
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "Board",
    "End",
    "Game",
    "GameSummary",
    "Logged",
    "Mark",
    "NextTurn",
    "OddsChoices",
    "Opponent",
    "OptionGroup",
    "Outcome",
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
    """What an odds question can name: the lists of the same rule set (file, name, units), the
    rule set's kinds of attack (id, title) and each kind's situation options."""

    opponents: tuple[Opponent, ...]
    attacks: tuple[tuple[str, str], ...]
    groups: tuple[OptionGroup, ...]  # the options, one group per mechanic the kinds use

    @property
    def options(self) -> tuple[SituationOption, ...]:
        """The options of the default kind of attack."""
        return self.groups[0].options if self.groups else ()

    def options_of(self, attack: str | None) -> tuple[SituationOption, ...]:
        """The options of the kind of attack ``attack`` (the default's for none, or one not offered)."""
        return next((g.options for g in self.groups if attack in g.attacks), self.options)


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


def odds_choices(folder: Path, name: str, catalogs: Catalogs, board: Board | None = None) -> OddsChoices:
    """The lists of ``folder`` of the same rule set as ``name`` (an opponent for odds), with their
    entries, and the rule set's situation options."""
    board = board or play_board(folder, name, catalogs)
    return OddsChoices(
        opponents=opponents(folder, board, catalogs), attacks=attack_choices(board), groups=option_groups(board)
    )


def game_odds(
    folder: Path,
    name: str,
    catalogs: Catalogs,
    piece: str,
    opponent: str,
    target: int,
    situation: Mapping[str, str | bool | int] | None = None,
    attack: str | None = None,
) -> Outcome:
    """The exact odds (``listbuilder odds``' figures) of a piece of the list attacking entry
    ``target`` of the list ``opponent`` of the same folder with the kind of attack ``attack``
    (default the rule set's first); ``situation`` is the values of that kind's options."""
    board = play_board(folder, name, catalogs)
    other = play_board(folder, opponent, catalogs)
    return piece_odds(board, piece, other.report, target, situation or {}, attack)
