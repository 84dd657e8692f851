"""The game file: its YAML, written one tap per log line, and read back with every field checked.

``FOLDER/.listbuilder/games/NAME.yaml/0001.yaml`` holds the list a game plays (file, name,
version and revision, the units and counts it had), the turn, the markers on each piece, the
scores, and the log of taps. Reading checks only its shape (``game_from_data``: pydantic reads it
as a ``SavedGame``, its log lines as the ``Logged`` records they are); whether what it says can be
believed is ``trust.judge``'s question.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat as stat_module
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from listbuilder.errors import InputError
from listbuilder.files.writing import atomic_write
from listbuilder.memory import Bounded
from listbuilder.play.game import MAX_TAPS, GameState
from listbuilder.play.taps import Logged
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.schema import adapter, json_text

FORMAT = 2  # 2: the log names a piece by its number in ``pieces``; 1 named it in full
FORMATS = (1, 2)  # what is read
# One bound for writer and reader: a tap whose file would be bigger is refused before it is
# written, and a file past it is not read. A log of MAX_TAPS taps is well under it, as the log
# names each piece once, whatever its name; only names of hundreds of thousands of characters
# reach it.
MAX_GAME_BYTES = 2 * 1024 * 1024


@record
class GameHeader(Record):
    """What a game file says of the list it was played with: its keys before the game itself."""

    list: str = ""
    name: str = ""
    system: str = ""
    version: str = ""
    played_on: str = ""  # the list's version its log was last played against ("": ``version``)
    revision: int | None = None
    roster: tuple[tuple[str, int], ...] = ()
    started: str = ""


@record
class GameFile(GameHeader):
    """A game as its file says it, before anything in it is trusted."""

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
        raise InputError.detailed(
            "this game file is a symbolic link, so it is not read",
            "a game is a plain file that listbuilder writes; start a new game",
            file=path,
        )
    if not stat_module.S_ISREG(st.st_mode):
        raise InputError("this game is not a regular file", file=path)
    if st.st_size > MAX_GAME_BYTES:
        raise InputError.detailed(
            f"this game file is {st.st_size:,} bytes; a game is at most {MAX_GAME_BYTES:,}",
            "it was not written by listbuilder; start a new game",
            file=path,
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
        data = _parse_fast(loader_class, text, path)
        if data is None:
            _check_depth(loader_class, text, path)
            data = yaml.load(text, Loader=loader_class)  # a safe loader: plain data only
    except yaml.YAMLError as exc:
        raise InputError(f"this game file is not YAML: {str(exc).splitlines()[0][:120]}", file=path) from None
    except ValueError:  # a number past Python's digit limit
        raise _bad(path, "the file", "a mapping of plain values") from None
    return game_from_data(data, path)


def _parse_fast(loader_class: Any, text: str, path: Path) -> Any:
    """The file as ``game_text`` writes it, read in proportion to its log: the keys before the log
    as YAML, each log line as the JSON it is (YAML's own reading of 20,000 lines took a second
    and a half). ``None`` for a file that is not written so (edited by hand): YAML reads it whole."""
    head, found, log = text.partition("\nlog:\n")
    if not found or "\nlog:" in head:
        return None
    texts = log.split("\n")
    if texts[-1] == "":
        texts.pop()
    if not all(t.startswith("  - {") and t.endswith("}") for t in texts):
        return None
    distinct = {t: n for n, t in enumerate(dict.fromkeys(texts))}  # a long game repeats a few lines
    try:
        lines = json.loads("[" + ",".join(t[4:] for t in distinct) + "]")  # one read of them all
    except (ValueError, RecursionError):  # not JSON (YAML may still read it), or nested past reason
        return None
    if len(lines) != len(distinct) or not all(type(line) is dict for line in lines):
        return None  # a line that is not one JSON object of its own
    _check_depth(loader_class, head, path)
    data = yaml.load(head, Loader=loader_class)
    if isinstance(data, dict):
        data["log"] = _Lines(lines, [distinct[t] for t in texts])
    return data


class _Lines(list[Any]):
    """A log's distinct lines, each read (and then checked) once, and the order they come in:
    ``order[i]`` is the place among them of the file's line ``i``."""

    def __init__(self, lines: list[Any], order: list[int]) -> None:
        super().__init__(lines)
        self.order = order

    def line_of(self, n: int) -> int:
        """The file's first line that is the distinct line ``n``."""
        return self.order.index(n)


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
    return InputError.detailed(
        f"this game file is not one listbuilder wrote: '{where}' should be {expected}",
        "start a new game; this one is shown as far as it can be read",
        file=path,
    )


@record
class SavedGame(GameHeader):
    """A game file's shape, as pydantic reads it (``rules.schema``, as every file format): the
    types of its keys; ``game_from_data`` then checks their bounds."""

    format: int
    turn: int = 1
    ended: bool = False
    scores: Mapping[str, int] = FrozenMap()
    markers: Mapping[str, Mapping[str, int]] = FrozenMap()
    leftovers: Mapping[str, Mapping[str, int]] = FrozenMap()
    log: tuple[Logged, ...] = ()


WHOLE = (-(10**9), 10**9)
_LINE_KEYS = sorted(f.name for f in dataclasses.fields(Logged))
_LINE_TEXTS = {"tap", "piece", "marker", "track", "roll"}
# What each key must be, as a broken file is told.
_SHOULD_BE = {
    "format": " or ".join(str(f) for f in FORMATS),
    "roster": "a list of [unit, count]",
    "markers": "a mapping of models to their markers",
    "leftovers": "a mapping of models to their markers",
    "scores": "a mapping of scores to numbers",
    "log": f"a list of at most {MAX_TAPS:,} taps",
    "pieces": "a list of the models its log names",
    "ended": "true or false",
}


def _whole(low: int = WHOLE[0], high: int = WHOLE[1]) -> str:
    return f"a whole number from {low} to {high}"


def _place(loc: tuple[int | str, ...], missing: bool) -> tuple[str, str]:
    """Where a game file is wrong, as its message says it, and what should be there."""
    key = str(loc[0]) if loc else "the file"
    rest = loc[1:]
    if key == "log" and rest:
        where = f"log[{rest[0]}]"
        field = rest[1] if len(rest) > 1 else None
        if field in ("faces", "cleared") and len(rest) == 2:
            return where, "a tap with its dice and cleared markers as lists"
        if field == "faces":
            return f"{where}.faces", _whole()
        if field == "cleared":
            return f"{where}.cleared", "[model, marker, value]"
        if field in _LINE_TEXTS:
            return f"{where}.{field}", "text"
        if isinstance(field, str) and field in _LINE_KEYS and not missing:
            return f"{where}.{field}", _whole(*((0, 100_000) if field == "bonus" else WHOLE))
        return where, "a tap: " + ", ".join(_LINE_KEYS)
    if key == "roster" and rest:
        if len(rest) > 1 and rest[1] == 1 and not missing:
            return f"roster[{rest[0]}]", _whole(0)
        return f"roster[{rest[0]}]", "[unit, count]"
    if key in ("markers", "leftovers", "scores") and rest:
        if key != "scores" and len(rest) == 1:
            return f"{key}.{str(rest[0])[:40]}", "a mapping of markers to numbers"
        return ".".join(str(p)[:40] for p in loc if p != "[key]"), _whole()
    if key in ("turn", "revision"):
        return key, _whole()
    return key, _SHOULD_BE.get(key, "text")


def game_from_data(data: Any, path: Path) -> GameFile:
    """A game file's plain data as a ``GameFile``, its shape checked (its sense is checked later).

    Its texts are taken whole, however long: every name a list may have is read back as it was
    written (the file's size is the bound)."""
    from pydantic import ValidationError  # start-up: a game is read only by the play page

    if not isinstance(data, dict):
        raise _bad(path, "the file", "a mapping")
    if data.get("format") not in FORMATS or isinstance(data.get("format"), bool):
        raise _bad(path, "format", _SHOULD_BE["format"])
    # a key written with nothing after it is a key left out (but a revision may be null)
    data = {k: v for k, v in data.items() if v is not None or k == "revision"}
    data["format"] = FORMAT
    given = data.get("log")
    order = given if isinstance(given, _Lines) else None
    if "pieces" in data:
        data["log"] = _named(data.pop("pieces"), given, path, order)
    try:
        saved: SavedGame = adapter(SavedGame).validate_json(json_text(data))
    except TypeError:  # a value JSON has no word for (a set, bytes, a date as a key): not a game's
        raise _bad(path, "the file", "a mapping of plain values") from None
    except ValidationError as exc:
        errors = exc.errors(include_url=False)  # a wrong value is said before a key left out
        first = min(errors, key=lambda err: err["type"] == "missing")
        loc = tuple(first["loc"])
        if order is not None and loc[:1] == ("log",) and len(loc) > 1 and isinstance(loc[1], int):
            loc = ("log", order.line_of(loc[1]), *loc[2:])
        raise _bad(path, *_place(loc, first["type"] == "missing")) from None
    return GameFile(
        list=saved.list,
        name=saved.name,
        system=saved.system,
        version=saved.version,
        played_on=saved.played_on,
        revision=None if saved.revision is None else _bounded(saved.revision, path, "revision"),
        roster=_roster(saved.roster, path),
        started=saved.started,
        state=GameState(
            turn=_bounded(saved.turn, path, "turn"),
            ended=saved.ended,
            markers=_markers(saved.markers, path, "markers"),
            scores={k: _bounded(v, path, f"scores.{k[:40]}") for k, v in saved.scores.items()},
            log=_log(saved.log, path, order),
            leftovers=_markers(saved.leftovers, path, "leftovers"),
        ),
    )


def _named(pieces: Any, log: Any, path: Path, order: _Lines | None) -> Any:
    """The log with each piece's number (its place in ``pieces``, from 0) replaced by its name."""
    if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
        raise _bad(path, "pieces", _SHOULD_BE["pieces"])
    if not isinstance(log, list):
        return log  # said by the shape's check

    def name(ref: Any, where: str) -> Any:
        if isinstance(ref, bool) or not isinstance(ref, int):
            return ref  # a name written in full (as format 1 did), or a wrong value the shape's check says
        if not 0 <= ref < len(pieces):
            raise _bad(path, where, f"a model's number in 'pieces', from 0 to {len(pieces) - 1}")
        return pieces[ref]

    out = []
    for n, line in enumerate(log):
        if isinstance(line, dict) and ("piece" in line or "cleared" in line):
            i = order.line_of(n) if order is not None and _has_ref(line, len(pieces)) else n
            line = dict(line)
            if "piece" in line:
                line["piece"] = name(line["piece"], f"log[{i}].piece")
            cleared = line.get("cleared")
            if isinstance(cleared, list):
                line["cleared"] = [
                    [name(c[0], f"log[{i}].cleared"), *c[1:]] if isinstance(c, list) and c else c for c in cleared
                ]
        out.append(line)
    return _Lines(out, order.order) if order is not None else out


def _has_ref(line: dict[str, Any], count: int) -> bool:
    """Whether a line names a piece by a number outside ``0 .. count - 1`` (then its place is said)."""
    refs = [line.get("piece"), *(c[0] for c in line.get("cleared") or () if isinstance(c, list) and c)]
    return any(isinstance(r, int) and not isinstance(r, bool) and not 0 <= r < count for r in refs)


def _bounded(value: int, path: Path, where: str, low: int = WHOLE[0], high: int = WHOLE[1]) -> int:
    if not low <= value <= high:
        raise _bad(path, where, _whole(low, high))
    return value


def _markers(markers: Mapping[str, Mapping[str, int]], path: Path, key: str) -> dict[str, dict[str, int]]:
    return {
        piece: {m: _bounded(v, path, f"{key}.{piece[:40]}.{m[:40]}") for m, v in marks.items()}
        for piece, marks in markers.items()
    }


def _roster(roster: tuple[tuple[str, int], ...], path: Path) -> tuple[tuple[str, int], ...]:
    if len(roster) > 100_000:
        raise _bad(path, "roster", _SHOULD_BE["roster"])
    return tuple((unit, _bounded(count, path, f"roster[{i}]", 0)) for i, (unit, count) in enumerate(roster))


def _log(log: tuple[Logged, ...], path: Path, order: _Lines | None) -> tuple[Logged, ...]:
    """The log's lines (its distinct ones in ``order``), each number within its bounds, or ``_bad``."""
    if len(log if order is None else order.order) > MAX_TAPS:
        raise _bad(path, "log", _SHOULD_BE["log"])
    for n, line in enumerate(log):
        wrong = _wrong_number(line)
        if wrong is not None:
            raise _bad(path, f"log[{n if order is None else order.line_of(n)}]{wrong[0]}", wrong[1])
    return log if order is None else tuple(log[n] for n in order.order)


def _wrong_number(line: Logged) -> tuple[str, str] | None:
    """Where a log line's number is out of its bounds (after the line's place), and what it should be."""
    low, high = WHOLE
    for key in ("turn", "was", "now"):
        if not low <= getattr(line, key) <= high:
            return f".{key}", _whole()
    if not 0 <= line.bonus <= 100_000:
        return ".bonus", _whole(0, 100_000)
    if len(line.faces) > 10:
        return "", "a tap with its dice and cleared markers as lists"
    if any(not low <= v <= high for v in line.faces):
        return ".faces", _whole()
    if any(not low <= v <= high for _, _, v in line.cleared):
        return ".cleared", _whole()
    return None


@dataclasses.dataclass
class _Written:
    """The text of a game's log lines as last written, and the pieces they name, in the order
    they are first named: a log only grows by a line or loses its last (undo), so the next write
    reuses every line it shares with the last one, and the numbers those lines give the pieces."""

    log: tuple[Logged, ...]
    texts: list[str]
    pieces: dict[str, int]  # name -> its number, the order of first use
    first: list[int]  # the log line that first named each piece, by number


_LINES: Bounded[Path, _Written] = Bounded(_CACHE_SIZE)


def _log_lines(path: Path | None, log: tuple[Logged, ...]) -> _Written:
    held = _LINES.get(path) if path is not None else None
    shared = 0
    if held is not None:  # the lines they share from the start (the same records: read once, never changed)
        both = min(len(log), len(held.log))
        shared = next((i for i, (a, b) in enumerate(zip(log, held.log, strict=False)) if a is not b), both)
    if held is not None and shared:
        kept = [n for n, line in zip(held.pieces, held.first, strict=True) if line < shared]
        written = _Written(log, held.texts[:shared], {n: i for i, n in enumerate(kept)}, held.first[: len(kept)])
    else:
        written = _Written(log, [], {}, [])
    pieces, first = written.pieces, written.first

    def number(name: str, at: int) -> int:
        if name not in pieces:
            pieces[name] = len(pieces)
            first.append(at)
        return pieces[name]

    for at in range(len(written.texts), len(log)):
        line = log[at].line()
        if "piece" in line:
            line["piece"] = number(line["piece"], at)
        if "cleared" in line:
            line["cleared"] = [[number(p, at), m, v] for p, m, v in line["cleared"]]
        written.texts.append(f"  - {json.dumps(line, ensure_ascii=False)}")
    if path is not None:
        _LINES.put(path, written)
    return written


# YAML reads a key written plainly ("name": ...) only within 1,024 characters; a longer one
# (a name as long as the list allows) is written as an explicit key ("? ...").
_PLAIN_KEY = 1000


def _key(key: str) -> str:
    text = json.dumps(key, ensure_ascii=False)
    return text if len(text) <= _PLAIN_KEY else f"? {text} "


def _flow_map(values: Mapping[str, int]) -> str:
    return "{" + ", ".join(f"{_key(k)}: {v}" for k, v in values.items()) + "}"


def _entry(key: str, value: str) -> str:
    text = json.dumps(key, ensure_ascii=False)
    return f"  {text}: {value}" if len(text) <= _PLAIN_KEY else f"  ? {text}\n  : {value}"


_BREAKS = re.compile("[\r\n\x85\u2028\u2029]")  # what YAML takes for the end of a comment


def game_text(gf: GameFile, path: Path | None = None) -> str:
    """A game file's text: a comment, then the game in plain YAML, one log line per tap (naming
    a piece by its number in ``pieces``: a log of thousands of taps repeats no long name)."""

    def flow(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)  # JSON is YAML: one line, quoted safely

    s = gf.state
    log = _log_lines(path, s.log)
    out = [
        f"# A game of {_BREAKS.sub(' ', gf.name[:200])} ({gf.list}), kept by listbuilder's play page.",
        "# Playing never changes the list file. Edited by hand, this game is shown but no longer played on.",
        f"format: {FORMAT}",
        f"list: {flow(gf.list)}",
        f"name: {flow(gf.name)}",
        f"system: {flow(gf.system)}",
        f"version: {flow(gf.version)}",
        *([f"played_on: {flow(gf.played_on)}"] if gf.played_on and gf.played_on != gf.version else []),
        f"revision: {flow(gf.revision)}",
        f"roster: {flow([list(r) for r in gf.roster])}",
        f"started: {flow(gf.started)}",
        f"turn: {s.turn}",
        f"ended: {flow(s.ended)}",
        f"scores: {_flow_map(s.scores)}",
        "markers:" + ("" if s.markers else " {}"),
        *(_entry(k, _flow_map(v)) for k, v in s.markers.items()),
        *(["leftovers:"] if s.leftovers else []),
        *(_entry(k, _flow_map(v)) for k, v in s.leftovers.items()),
        f"pieces: {flow(list(log.pieces))}",
        "log:" + ("" if s.log else " []"),
        *log.texts,
    ]
    return "\n".join(out) + "\n"


def write_game(path: Path, gf: GameFile) -> None:
    """Write a game whole (the one atomic write), without waiting for the disk: a power cut may
    lose the last tap, never the game, and the wait would double a tap's time.

    A game whose file would be past ``MAX_GAME_BYTES`` is refused, with nothing written: the
    reader would refuse it."""
    data = game_text(gf, path).encode("utf-8")
    if len(data) > MAX_GAME_BYTES:
        raise InputError.detailed(
            f"this game is full: this tap would make its file {len(data):,} bytes, and a game file is at "
            f"most {MAX_GAME_BYTES:,} bytes; every earlier tap is kept",
            "start a new game to play on",
            file=path,
        )
    atomic_write(path, data, durable=False)
    _CACHE.put(path, (_stamp(os.lstat(path)), gf))
