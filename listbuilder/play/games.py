"""Games of the lists of a folder, kept as plain YAML in ``FOLDER/.listbuilder/games/``.

``.listbuilder/games/NAME.yaml/0001.yaml`` is the first game of the list ``NAME.yaml``: the list
it plays (file, name, version and revision, and the units and counts it had), the turn, the
markers on each piece, the scores, and the log of taps. Playing never changes the list file.

A game file is read back only as far as it can be trusted. One that is too big, a link, of
another list, or whose markers and scores do not follow from its own log (a hand edit) is shown
as it is, with what is wrong, and no tap changes it. When the list itself was edited since the
game began, the game says what changed; markers of pieces the list no longer has are set aside.
"""

from __future__ import annotations

import dataclasses
import os
import re
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.play.board import Board, roster_changes
from listbuilder.play.game import MAX_TAPS, Dice, GameState, fair_dice, initial, replay, step, undo
from listbuilder.play.taps import Logged, Start, Tap, Undo
from listbuilder.record import Record, record

FORMAT = 1
MAX_GAME_BYTES = 2 * 1024 * 1024  # a log of MAX_TAPS taps is well under this
MAX_GAMES = 500  # games kept per list; the oldest go first
_GAME = re.compile(r"(\d{4,6})\.yaml")
_LOCK = threading.Lock()  # one tap at a time in a process: a tap is a read, a check and a write


@record
class GameFile(Record):
    """A game as its file says it, before anything in it is trusted."""

    list: str = ""
    name: str = ""
    system: str = ""
    version: str = ""
    revision: int | None = None
    roster: tuple[tuple[str, int], ...] = ()
    started: str = ""
    state: GameState = GameState()


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
    set_aside: tuple[str, ...] = ()  # pieces with markers that the list no longer has

    def is_out(self, piece: Any) -> bool:
        """Whether a piece is out of the game: a marker that puts it out is on, or at its maximum."""
        marks = self.state.markers.get(piece.key)
        if not marks:
            return False
        return any(c.out and marks.get(c.marker, 0) >= c.maximum for c in piece.controls)

    def lost(self) -> tuple[int, int]:
        """How many pieces are out of the game, and what they cost."""
        out = [p for p in self.board.pieces if self.is_out(p)]
        return len(out), sum(p.cost for p in out)

    def as_json(self) -> dict[str, Any]:
        s = self.state
        return {
            "game": self.id,
            "list": self.file,
            "started": self.started,
            "turn": s.turn,
            "turns": self.board.aids.turns,
            "ended": s.ended,
            "markers": {k: dict(v) for k, v in s.markers.items()},
            "scores": dict(s.scores),
            "rolls": [line.as_json() for line in s.rolls],
            "log": [line.as_json() for line in s.log],
            "trusted": self.trusted,
            "problems": list(self.problems),
            "list_changed": self.list_changed,
            "changes": list(self.changes),
            "set_aside": list(self.set_aside),
        }


@record
class GameSummary(Record):
    """A game of a list, for the list of games."""

    id: str
    started: str
    turn: int
    ended: bool
    taps: int
    error: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.id,
            "started": self.started,
            "turn": self.turn,
            "ended": self.ended,
            "taps": self.taps,
            "error": self.error or None,
        }


# --- where games live ------------------------------------------------------------------------


def games_dir(folder: Path, list_name: str, create: bool = False) -> Path:
    """``FOLDER/.listbuilder/games/NAME.yaml/``, refusing a list name or a folder that leads out of FOLDER."""
    from listbuilder.share.folder import STATE, list_path

    path = list_path(folder, list_name)  # a plain list name of this folder, or InputError
    root = Path(os.path.realpath(folder))
    where = root / STATE / "games" / path.name
    parts = (root / STATE, root / STATE / "games", where)
    for part in parts:  # checked before anything is made, so no folder is made through a link
        if os.path.islink(part):
            raise InputError(
                "the games folder is a symbolic link, so nothing is read or written there",
                file=part,
                details=[ErrorDetail(message="remove the link; listbuilder makes the folder itself")],
            )
        if create and not part.exists():
            part.mkdir(exist_ok=True)
    return where


def game_path(folder: Path, list_name: str, game_id: str) -> Path:
    if not isinstance(game_id, str) or not re.fullmatch(r"\d{1,6}", game_id):
        raise InputError(f"'{str(game_id)[:40]}' is not a game", details=[ErrorDetail(message="games are numbered")])
    return games_dir(folder, list_name) / f"{int(game_id):04d}.yaml"


def game_ids(folder: Path, list_name: str) -> list[str]:
    """The games of a list, oldest first."""
    try:
        names = os.listdir(games_dir(folder, list_name))
    except OSError:
        return []
    return [str(int(m.group(1))) for m in sorted((_GAME.fullmatch(n) for n in names), key=_number) if m]


def _number(m: re.Match[str] | None) -> int:
    return int(m.group(1)) if m else -1


# --- reading a game file ---------------------------------------------------------------------

_CACHE: dict[Path, tuple[tuple[int, int, int], GameFile | InputError]] = {}
_CACHE_SIZE = 256


def _stamp(st: os.stat_result) -> tuple[int, int, int]:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def read_game_file(path: Path) -> GameFile:
    """The game file at ``path``, as it says it; ``InputError`` for one that cannot be read at all
    (a link, not a file, too big, not YAML, not a game's shape)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise InputError("no such game", file=path) from None
    except OSError as exc:
        raise InputError(f"cannot read the game: {exc.strerror or exc}", file=path) from None
    import stat as stat_module

    if stat_module.S_ISLNK(st.st_mode):
        raise InputError(
            "this game file is a symbolic link, so it is not read",
            file=path,
            details=[ErrorDetail(message="a game is a plain file that listbuilder writes; start a new game")],
        )
    if not stat_module.S_ISREG(st.st_mode):
        raise InputError("this game is not a regular file", file=path)
    if st.st_size > MAX_GAME_BYTES:
        raise InputError(
            f"this game file is {st.st_size:,} bytes; a game is at most {MAX_GAME_BYTES:,}",
            file=path,
            details=[ErrorDetail(message="it was not written by listbuilder; start a new game")],
        )
    held = _CACHE.get(path)
    if held is not None and held[0] == _stamp(st):
        if isinstance(held[1], InputError):
            raise held[1]
        return held[1]
    try:
        parsed: GameFile | InputError = _parse(path, _read(path))
    except InputError as exc:
        parsed = exc
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[path] = (_stamp(st), parsed)
    if isinstance(parsed, InputError):
        raise parsed
    return parsed


def _read(path: Path) -> str:
    # O_NOFOLLOW where the platform has it: the link check above and the open are one step
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as fh:
            raw = fh.read(MAX_GAME_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read the game: {exc.strerror or exc}", file=path) from None
    if len(raw) > MAX_GAME_BYTES:
        raise InputError(f"this game file is over {MAX_GAME_BYTES:,} bytes", file=path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("this game file is not UTF-8 text", file=path) from None


def _parse(path: Path, text: str) -> GameFile:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        raise InputError(f"this game file is not YAML: {str(exc).splitlines()[0][:120]}", file=path) from None
    return game_from_data(data, path)


def _bad(path: Path, where: str, expected: str) -> InputError:
    return InputError(
        f"this game file is not one listbuilder wrote: '{where}' should be {expected}",
        file=path,
        details=[ErrorDetail(message="start a new game; this one is shown as far as it can be read")],
    )


def _text(data: Mapping[str, Any], key: str, path: Path, limit: int = 300) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or len(value) > limit:
        raise _bad(path, key, f"text of at most {limit} characters")
    return value


def _whole(value: Any, path: Path, where: str, low: int = -(10**9), high: int = 10**9) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(path, where, f"a whole number from {low} to {high}")
    return value


def game_from_data(data: Any, path: Path) -> GameFile:
    """A game file's plain data as a ``GameFile``, its shape checked (its sense is checked later)."""
    if not isinstance(data, dict):
        raise _bad(path, "the file", "a mapping")
    if data.get("format") != FORMAT:
        raise _bad(path, "format", str(FORMAT))
    roster_data = data.get("roster") or []
    if not isinstance(roster_data, list) or len(roster_data) > 100_000:
        raise _bad(path, "roster", "a list of [unit, count]")
    roster = []
    for i, row in enumerate(roster_data):
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[0], str)):
            raise _bad(path, f"roster[{i}]", "[unit, count]")
        roster.append((row[0][:300], _whole(row[1], path, f"roster[{i}]", 0)))
    revision = data.get("revision")
    markers_data = data.get("markers") or {}
    if not isinstance(markers_data, dict):
        raise _bad(path, "markers", "a mapping of models to their markers")
    markers: dict[str, dict[str, int]] = {}
    for piece, marks in markers_data.items():
        if not isinstance(piece, str) or not isinstance(marks, dict):
            raise _bad(path, f"markers.{str(piece)[:40]}", "a mapping of markers to numbers")
        markers[piece[:300]] = {
            str(m)[:300]: _whole(v, path, f"markers.{piece[:40]}.{str(m)[:40]}") for m, v in marks.items()
        }
    scores_data = data.get("scores") or {}
    if not isinstance(scores_data, dict):
        raise _bad(path, "scores", "a mapping of scores to numbers")
    scores = {str(k)[:300]: _whole(v, path, f"scores.{str(k)[:40]}") for k, v in scores_data.items()}
    log_data = data.get("log") or []
    if not isinstance(log_data, list) or len(log_data) > MAX_TAPS:
        raise _bad(path, "log", f"a list of at most {MAX_TAPS:,} taps")
    log = tuple(_line(line, path, i) for i, line in enumerate(log_data))
    state = GameState(
        turn=_whole(data.get("turn", 1), path, "turn"),
        ended=data.get("ended") is True,
        markers=markers,
        scores=scores,
        log=log,
    )
    return GameFile(
        list=_text(data, "list", path),
        name=_text(data, "name", path),
        system=_text(data, "system", path),
        version=_text(data, "version", path),
        revision=None if revision is None else _whole(revision, path, "revision"),
        roster=tuple(roster),
        started=_text(data, "started", path),
        state=state,
    )


_LINE_KEYS = {"tap", "turn", "piece", "marker", "track", "was", "now", "roll", "faces", "bonus", "cleared"}


def _line(line: Any, path: Path, i: int) -> Logged:
    where = f"log[{i}]"
    if not isinstance(line, dict) or not set(line) <= _LINE_KEYS:
        raise _bad(path, where, "a tap: " + ", ".join(sorted(_LINE_KEYS)))
    faces = line.get("faces") or []
    cleared = line.get("cleared") or []
    if not isinstance(faces, list) or len(faces) > 10 or not isinstance(cleared, list):
        raise _bad(path, where, "a tap with its dice and cleared markers as lists")
    for c in cleared:
        if not (isinstance(c, list) and len(c) == 3 and isinstance(c[0], str) and isinstance(c[1], str)):
            raise _bad(path, f"{where}.cleared", "[model, marker, value]")
    for key in ("tap", "piece", "marker", "track", "roll"):
        if key in line and not isinstance(line[key], str):
            raise _bad(path, f"{where}.{key}", "text")
    return Logged(
        tap=str(line.get("tap", ""))[:40],
        turn=_whole(line.get("turn", 1), path, f"{where}.turn"),
        piece=str(line.get("piece", ""))[:300],
        marker=str(line.get("marker", ""))[:300],
        track=str(line.get("track", ""))[:300],
        was=_whole(line.get("was", 0), path, f"{where}.was"),
        now=_whole(line.get("now", 0), path, f"{where}.now"),
        roll=str(line.get("roll", ""))[:300],
        faces=tuple(_whole(f, path, f"{where}.faces") for f in faces),
        bonus=_whole(line.get("bonus", 0), path, f"{where}.bonus", 0, 100_000),
        cleared=tuple((c[0][:300], c[1][:300], _whole(c[2], path, f"{where}.cleared")) for c in cleared),
    )


# --- trusting it -----------------------------------------------------------------------------


def judge(game_id: str, gf: GameFile, board: Board) -> Game:
    """A game file weighed against the list as it is now: trusted, or shown only, and why."""
    problems: list[str] = []
    if gf.list != board.file:
        problems.append(f"it is a game of another list ('{gf.list[:80]}'), not of {board.file}")
    if gf.system != board.system:
        problems.append(f"it is a game of {gf.system[:40] or 'no rule set'}, but the list is {board.system}")
    changed = gf.version != board.version
    state, wrong = replay(board, gf.state.log, skip_missing=changed)
    problems += wrong
    stored = gf.state
    if not wrong and (
        state.turn != stored.turn
        or state.ended != stored.ended
        or _plain(state.scores) != _plain(stored.scores)
        or _known(stored.markers, board) != _plain_markers(state.markers)
    ):
        problems.append("its turn, markers or scores do not follow from its log of taps: it was changed by hand")
    for piece, marks in stored.markers.items():
        p = board.piece(piece)
        if p is None and not changed:
            problems.append(f"it has markers on '{piece[:80]}', which is not a model of this list")
            continue
        for marker, value in marks.items():
            c = p.control(marker) if p is not None else None
            if p is not None and c is None and not changed:
                problems.append(f"it has '{marker[:80]}' on {piece[:80]}, which is not a marker it can have")
            elif c is not None and not 0 < value <= c.maximum:
                problems.append(f"{marker} on {piece} is {value}, outside 0 to {c.maximum}")
    set_aside = tuple(p for p in stored.markers if board.piece(p) is None) if changed else ()
    set_aside += tuple(
        f"{marker} on {p}"
        for p, marks in stored.markers.items()
        if changed and board.piece(p) is not None
        for marker in marks
        if board.piece(p).control(marker) is None  # type: ignore[union-attr]
    )
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


def _plain_markers(m: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    return {k: dict(v) for k, v in m.items() if v}


def _known(m: Mapping[str, Mapping[str, int]], board: Board) -> dict[str, dict[str, int]]:
    return {k: {mk: v for mk, v in marks.items() if v} for k, marks in m.items() if board.piece(k) and marks}


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
        turn=max(1, stored.turn), ended=stored.ended, markers=markers, scores=scores, log=stored.log[-200:]
    )


# --- writing ---------------------------------------------------------------------------------


# The text of each game's log lines as last written: a log only grows by a line or loses its
# last (undo), so the next write reuses every line it shares with the last one.
_LINES: dict[Path, tuple[tuple[Logged, ...], list[str]]] = {}


def _log_lines(path: Path | None, log: tuple[Logged, ...]) -> list[str]:
    import json

    held = _LINES.get(path) if path is not None else None
    texts: list[str] = []
    if held is not None:
        old, old_texts = held
        shared = min(len(old), len(log))
        while shared and log[shared - 1] is not old[shared - 1]:
            shared -= 1
        if shared and all(log[i] is old[i] for i in (0, shared // 2)):
            texts = old_texts[:shared]
    texts += [f"  - {json.dumps(line.as_json(), ensure_ascii=False)}" for line in log[len(texts) :]]
    if path is not None:
        if len(_LINES) >= _CACHE_SIZE and path not in _LINES:
            _LINES.pop(next(iter(_LINES)))
        _LINES[path] = (log, texts)
    return texts


def game_text(gf: GameFile, path: Path | None = None) -> str:
    """A game file's text: a comment, then the game in plain YAML, one log line per tap."""
    import json

    def flow(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)  # JSON is YAML: one line, quoted safely

    s = gf.state
    out = [
        f"# A game of {gf.name.replace(chr(10), ' ')[:200]} ({gf.list}), kept by listbuilder's play page.",
        "# Playing never changes the list file. Edited by hand, this game is shown but no longer played on.",
        f"format: {FORMAT}",
        f"list: {flow(gf.list)}",
        f"name: {flow(gf.name)}",
        f"system: {flow(gf.system)}",
        f"version: {flow(gf.version)}",
        f"revision: {flow(gf.revision)}",
        f"roster: {flow([list(r) for r in gf.roster])}",
        f"started: {flow(gf.started)}",
        f"turn: {s.turn}",
        f"ended: {flow(s.ended)}",
        f"scores: {flow(dict(s.scores))}",
        "markers:" + ("" if s.markers else " {}"),
        *(f"  {flow(k)}: {flow(dict(v))}" for k, v in s.markers.items()),
        "log:" + ("" if s.log else " []"),
        *_log_lines(path, s.log),
    ]
    return "\n".join(out) + "\n"


def _write(path: Path, gf: GameFile) -> None:
    """Write a game whole: a temporary file, then a rename. Not flushed to the disk (``fsync``):
    a power cut may lose the last tap, never the game, and the wait would double a tap's time."""
    data = game_text(gf, path).encode("utf-8")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _CACHE[path] = (_stamp(os.lstat(path)), gf)


def now_text() -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.gmtime())


def start(folder: Path, board: Board) -> Game:
    """Start a new game of ``board``'s list (the list's earlier games are kept)."""
    with _LOCK:
        where = games_dir(folder, board.file, create=True)
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
        _write(path, gf)
        for old in ids[: max(0, len(ids) + 1 - MAX_GAMES)]:
            (where / f"{int(old):04d}.yaml").unlink(missing_ok=True)
        return judge(str(number), gf, board)


# The last judgement of each game file: a tap reads the file (from _CACHE) and needs its verdict,
# which is a replay of its whole log; kept while neither the file nor the list has changed.
_JUDGED: dict[Path, tuple[Any, Game]] = {}


def _judged(path: Path, game_id: str, gf: GameFile, board: Board) -> Game:
    key = (_CACHE.get(path, (None,))[0], board.version, board.system, id(board.aids))
    held = _JUDGED.get(path)
    if held is not None and held[0] == key:
        return held[1]
    game = judge(game_id, gf, board)
    if len(_JUDGED) >= _CACHE_SIZE:
        _JUDGED.pop(next(iter(_JUDGED)))
    _JUDGED[path] = (key, game)
    return game


def load(folder: Path, board: Board, game_id: str) -> Game:
    """One game of ``board``'s list, judged against the list as it is now."""
    path = game_path(folder, board.file, game_id)
    return _judged(path, str(int(game_id)), read_game_file(path), board)


def act(folder: Path, board: Board, game_id: str, tap: Tap, dice: Dice = fair_dice) -> tuple[Game, Logged | None]:
    """Apply ``tap`` to a game and write it; the game after it, and the line it logged (or undid).

    Refused, with nothing written, for a game that is not trusted and for a tap the game cannot take."""
    if isinstance(tap, Start):
        return start(folder, board), None
    with _LOCK:
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
        if isinstance(tap, Undo):
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
            revision=gf.revision,
            roster=roster,
            started=gf.started,
            state=state,
        )
        _write(path, new)
        # the tap was checked against the trusted game: the verdict carries over without a replay
        after = dataclasses.replace(game, state=state)
        _JUDGED[path] = ((_CACHE[path][0], board.version, board.system, id(board.aids)), after)
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
