"""The board of a list of a builder's folder, as its file is now: every tap reads the list to see
whether it changed (its version), and builds its board again only when it did."""

from __future__ import annotations

from pathlib import Path

from listbuilder.army.listfile import parse_list
from listbuilder.army.report import build_report
from listbuilder.editing.folder import list_path
from listbuilder.editing.history import version_of
from listbuilder.files.reading import read_text
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.memory import Bounded
from listbuilder.play.board import Board, board_of
from listbuilder.rules.catalog import Catalogs

MAX_HELD = 64  # boards kept, the least recently used dropped first

# Boards by list file, version and catalogs (by identity: the catalogs are held beside the board,
# so a key's number is never another's). A board is immutable.
_BOARDS: Bounded[tuple[str, str, int], tuple[Catalogs, Board]] = Bounded(MAX_HELD)


def list_board(folder: Path, name: str, catalogs: Catalogs) -> Board:
    """The board of the list ``name`` of ``folder``: its pieces and their markers, as it is now."""
    path = list_path(folder, name)
    text = read_text(path, "list file")
    version = version_of(text)
    key = (str(path), version, id(catalogs))
    held = _BOARDS.get(key)
    if held is not None and held[0] is catalogs:
        return held[1]
    army, system = parse_list(parse_yaml(text, path), catalogs)
    board = board_of(build_report(army, system), path.name, version)
    _BOARDS.put(key, (catalogs, board))
    return board
