"""The game file: its YAML, written one tap per log line, and read back with every field checked.

``FOLDER/.listbuilder/games/NAME.yaml/0001.yaml`` holds the list a game plays (file, name,
version and revision, the units and counts it had), the turn, the markers on each piece, the
scores, and the log of taps. Reading checks only its shape (``game_from_data``); whether what it
says can be believed is ``trust.judge``'s question.
"""

from __future__ import annotations

import json
import os
import stat as stat_module
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from listbuilder.errors import ErrorDetail, InputError
from listbuilder.files.pyyaml import yaml
from listbuilder.files.writing import atomic_write
from listbuilder.memory import Bounded
from listbuilder.play.game import MAX_TAPS, GameState
from listbuilder.play.taps import Logged
from listbuilder.record import Record, record

FORMAT = 1
MAX_GAME_BYTES = 2 * 1024 * 1024  # a log of MAX_TAPS taps is well under this


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


_CACHE_SIZE = 256
_CACHE: Bounded[Path, tuple[tuple[int, int, int], GameFile | InputError]] = Bounded(_CACHE_SIZE)


def cached_stamp(path: Path) -> tuple[int, int, int] | None:
    """The (mtime, size, inode) of ``path`` when it was last read or written here, if it was."""
    held = _CACHE.get(path)
    return held[0] if held is not None else None


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
    _CACHE.put(path, (_stamp(st), parsed))
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


MAX_DEPTH = 6  # a game file nests a mapping, its log, a line, its dice: four levels; more is not one


def _parse(path: Path, text: str) -> GameFile:
    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _check_depth(loader_class, text, path)
        data = yaml.load(text, Loader=loader_class)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        raise InputError(f"this game file is not YAML: {str(exc).splitlines()[0][:120]}", file=path) from None
    return game_from_data(data, path)


def _check_depth(loader_class: Any, text: str, path: Path) -> None:
    """Refuse a text that nests deeper than a game file does, before it is composed: libyaml's
    composer recurses in C once per level, so 100,000 '[' would overflow the stack and end the
    process, where its parser, walked here event by event, does not recurse."""
    loader = loader_class(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _bad(path, "the file", f"a game file, nested at most {MAX_DEPTH} deep")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:  # newer libyaml stops a deep text itself, "while increasing flow level"
        if "flow level" in str(exc):
            raise _bad(path, "the file", f"a game file, nested at most {MAX_DEPTH} deep") from None
        raise
    finally:
        loader.dispose()


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


# The text of each game's log lines as last written: a log only grows by a line or loses its
# last (undo), so the next write reuses every line it shares with the last one.
_LINES: Bounded[Path, tuple[tuple[Logged, ...], list[str]]] = Bounded(_CACHE_SIZE)


def _log_lines(path: Path | None, log: tuple[Logged, ...]) -> list[str]:
    held = _LINES.get(path) if path is not None else None
    texts: list[str] = []
    if held is not None:
        old, old_texts = held
        shared = min(len(old), len(log))
        while shared and log[shared - 1] is not old[shared - 1]:
            shared -= 1
        if shared and all(log[i] is old[i] for i in (0, shared // 2)):
            texts = old_texts[:shared]
    texts += [f"  - {json.dumps(line.line(), ensure_ascii=False)}" for line in log[len(texts) :]]
    if path is not None:
        _LINES.put(path, (log, texts))
    return texts


def game_text(gf: GameFile, path: Path | None = None) -> str:
    """A game file's text: a comment, then the game in plain YAML, one log line per tap."""

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


def write_game(path: Path, gf: GameFile) -> None:
    """Write a game whole (the one atomic write), without waiting for the disk: a power cut may
    lose the last tap, never the game, and the wait would double a tap's time."""
    atomic_write(path, game_text(gf, path).encode("utf-8"), durable=False)
    _CACHE.put(path, (_stamp(os.lstat(path)), gf))
