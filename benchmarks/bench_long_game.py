"""A long game (issue 36): the play page of a game of 20,000 taps, and the file of a game of 6,000.

Targets:
  * the play page of a 20,000-tap game, loaded first in a server that has not read it yet, within
    3x of a new game's first load (median; the baseline, timed in the same run, each in a server of
    its own, taking turns): a long game costs what a short one does, plus a little (it was 18x).
    The same is printed for 20,000 taps that are each a line of their own (a score going up one
    by one), where reading each distinct line once saves nothing;
  * a 6,000-tap game of a unit with a 250-character name is at most 700,000 bytes: its log names
    the piece by its number; the same game naming the piece in full on every line, as format 1
    did, is printed beside it.

Run: python benchmarks/bench_long_game.py [--runs N]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_serve import Running
from common import ROOT, check, listbuilder_command, precompile, report_line

from listbuilder.api import play, rulesets
from listbuilder.play import gamefile
from listbuilder.play.taps import Logged

MARINES = ROOT / "examples" / "deathmelt-colonial-marines.legal.yaml"
ZOMBIES = ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml"
LONG_NAME = "Sergeant " + "X" * 241  # 250 characters


def played(folder: Path, file: str, taps: int, piece: str, marker: str = "Danger") -> Path:
    """Game 1 of ``file`` with ``taps`` taps (``marker`` on and off ``piece``), written by
    listbuilder's own writer; its path."""
    catalogs = rulesets.open_catalogs()
    game = play.start_game(folder, file, catalogs)
    lines = tuple(
        Logged(tap="mark" if i % 2 == 0 else "unmark", turn=1, piece=piece, marker=marker, was=i % 2, now=1 - i % 2)
        for i in range(taps)
    )
    state = dataclasses.replace(game.state, log=lines, markers={piece: {marker: 1}} if taps % 2 else {})
    path = folder / ".listbuilder" / "games" / file / "0001.yaml"
    gamefile.write_game(path, dataclasses.replace(gamefile.read_game_file(path), state=state))
    return path


def scored(folder: Path, file: str, taps: int, track: str) -> Path:
    """Game 1 of ``file`` with ``track`` scored up by one ``taps`` times: every line differs."""
    catalogs = rulesets.open_catalogs()
    game = play.start_game(folder, file, catalogs)
    start = game.state.scores[track]
    lines = tuple(Logged(tap="score", turn=1, track=track, was=start + i, now=start + i + 1) for i in range(taps))
    state = dataclasses.replace(game.state, log=lines, scores={**game.state.scores, track: start + taps})
    path = folder / ".listbuilder" / "games" / file / "0001.yaml"
    gamefile.write_game(path, dataclasses.replace(gamefile.read_game_file(path), state=state))
    return path


def in_full(path: Path) -> int:
    """The bytes of the game at ``path`` with its log naming each piece in full, as format 1 wrote it."""
    text = path.read_text(encoding="utf-8")
    head = text[: text.index("\npieces: ")]
    log = gamefile.read_game_file(path).state.log
    lines = [f"  - {json.dumps(line.line(), ensure_ascii=False)}" for line in log]
    return len((head + "\nlog:\n" + "\n".join(lines) + "\n").encode("utf-8"))


def first_loads(folder: Path, files: list[str], runs: int) -> dict[str, list[float]]:
    """Seconds of each file's play page, loaded first in a new server (after its lists page),
    each file's server in turn, ``runs`` times."""
    times: dict[str, list[float]] = {f: [] for f in files}
    again: dict[str, list[float]] = {f"{f}, again": [] for f in files}
    for _ in range(runs):
        for file in files:
            server = Running([*listbuilder_command(), "serve", str(folder), "--port", "0", "--no-open"])
            try:
                server.request("GET", "/")
                start = time.perf_counter()
                server.request("GET", f"/list/{file}/play")
                times[file].append(time.perf_counter() - start)
                start = time.perf_counter()
                server.request("GET", f"/list/{file}/play")
                again[f"{file}, again"].append(time.perf_counter() - start)
            finally:
                server.stop()
    return {**times, **again}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    precompile()
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-long-game-") as scratch:
        folder = Path(scratch)
        for name in ("new-game.yaml", "long-game.yaml"):
            (folder / name).write_bytes(MARINES.read_bytes())
        (folder / "scores-game.yaml").write_bytes(ZOMBIES.read_bytes())
        play.start_game(folder, "new-game.yaml", rulesets.open_catalogs())
        long_path = played(folder, "long-game.yaml", 20_000, "Colonial Marine 3")
        scores_path = scored(folder, "scores-game.yaml", 20_000, "Fate tokens")
        sizes = long_path.stat().st_size, scores_path.stat().st_size
        print(f"a game of 20,000 taps: {sizes[0]:,} bytes; of 20,000 scores: {sizes[1]:,} bytes")
        times = first_loads(folder, ["new-game.yaml", "long-game.yaml", "scores-game.yaml"], args.runs)
        for name, values in times.items():
            print(report_line(name, values))
        base = statistics.median(times["new-game.yaml"])
        ok &= check(
            "a 20,000-tap game's first load / a new game's", statistics.median(times["long-game.yaml"]) / base, 3
        )
        print(f"  (scores one by one: {statistics.median(times['scores-game.yaml']) / base:.2f}x)")

        names = folder / "names"
        names.mkdir()
        text = MARINES.read_text(encoding="utf-8")
        (names / "long.yaml").write_text(text.replace("name: Colony Doctor ", f"name: {LONG_NAME} "), encoding="utf-8")
        path = played(names, "long.yaml", 6_000, LONG_NAME)
        size = path.stat().st_size
        print(f"a 6,000-tap game of a 250-character name: {size:,} bytes ({in_full(path):,} naming it in full)")
        ok &= check("its file, in bytes", size, 700_000, "bytes")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
