"""Helpers for the benchmarks: run whole commands repeatedly and report medians against a baseline.

The machine is shared and noisy, so each figure is a median, and each command is timed
interleaved with its baseline in the same run: compare the ratio, not the raw seconds.
"""

from __future__ import annotations

import gc
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def precompile() -> None:
    """Write listbuilder's bytecode, as ``pip install`` does, before timing whole processes.

    Without it, an editable install in an environment with PYTHONDONTWRITEBYTECODE set (as some
    sandboxes and CI images have) compiles every module from source on every run, and the
    figures measure the compiler rather than listbuilder."""
    import compileall

    import listbuilder

    compileall.compile_dir(str(Path(listbuilder.__file__).parent), quiet=1)


def as_a_listbuilder_process() -> None:
    """Run this process at the garbage collector's pace of a listbuilder server, which does the
    same work again and again as this process does (``listbuilder.cli.serve`` sets it once it has
    started), so work timed in process is timed as ``serve`` does it. A checkout from before that
    pace was set there sets nothing."""
    from listbuilder.cli import serve

    thresholds = getattr(serve, "COLLECTOR_THRESHOLDS", None)
    if thresholds is not None:
        gc.set_threshold(*thresholds)


def listbuilder_command() -> list[str]:
    """The installed console script beside this Python, or ``python -m listbuilder``."""
    script = Path(sys.executable).parent / "listbuilder"
    return [str(script)] if script.exists() else [sys.executable, "-m", "listbuilder"]


def time_once(cmd: Sequence[str], ok_codes: Sequence[int] = (0,), cpu: list[float] | None = None) -> float:
    """Wall-clock seconds of one run of ``cmd``; its CPU seconds (with its own children's, such
    as the processes a library starts) are appended to ``cpu`` if given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok_codes:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[:500]}")
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return elapsed


def interleaved(
    commands: dict[str, Sequence[str]],
    runs: int,
    warmup: int = 2,
    ok_codes: Sequence[int] = (0,),
    cpu: dict[str, list[float]] | None = None,
) -> dict[str, list[float]]:
    """Time each command ``runs`` times, taking turns, after ``warmup`` untimed rounds (their
    CPU seconds into ``cpu`` if given: on a shared machine, the work a run did, without the
    waits for other users' processes)."""
    for _ in range(warmup):
        for cmd in commands.values():
            time_once(cmd, ok_codes)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            times[name].append(time_once(cmd, ok_codes, cpu=None if cpu is None else cpu.setdefault(name, [])))
    return times


def median_ms(values: Sequence[float]) -> float:
    return statistics.median(values) * 1000


def report_line(name: str, values: Sequence[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) >= 4 else [min(values), 0, max(values)]
    spread = f"quartiles {q[0] * 1000:.1f}-{q[2] * 1000:.1f} ms, n={len(values)}"
    return f"{name:<34} median {median_ms(values):8.1f} ms   ({spread})"


# --- big inputs, for the linearity targets (issue 10) ------------------------------------------

BIG_LIST_UNITS = ("Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist")
CLASSES = ("Soldier", "Warrior", "Beast", "Drone", "Gunner", "Berserker", "Sniper", "Gunslinger", "Monster", "Mech")


def write_big_list(path: Path, entries: int) -> Path:
    """A might-skirmish list of ``entries`` catalog entries (over its limit: printed as not legal)."""
    lines = [f"  - unit: {BIG_LIST_UNITS[i % 7]}\n    count: {1 + i % 3}\n" for i in range(entries)]
    path.write_text(f"system: might-skirmish\nname: Big {entries}\nunits:\n" + "".join(lines), encoding="utf-8")
    return path


def write_big_faction(root: Path, units: int) -> Path:
    """A user catalog root adding a might-skirmish faction of ``units`` distinctly named units."""
    folder = root / "might-skirmish" / "factions"
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        f"  - name: Horde Fighter {i}\n    class: {CLASSES[i % 10]}\n    might: {1 + i % 20}\n" for i in range(units)
    ]
    (folder / "horde.yaml").write_text("faction: Horde\nunits:\n" + "".join(lines), encoding="utf-8")
    return root


def timed(work: Callable[[], object], runs: int) -> list[float]:
    """CPU seconds of this process that each of ``runs`` calls of ``work`` took: on a machine
    shared by several users, wall time mostly measures how long the others kept the cores."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return times


def check(name: str, value: float, limit: float, unit: str = "x") -> bool:
    """Print one target's figure against its limit; True when it is met."""
    ok = value <= limit
    suffix = unit if unit == "x" else f" {unit}"
    print(f"  {'ok  ' if ok else 'MISS'} {name}: {value:.2f}{suffix} (target: at most {limit:g}{suffix})")
    return ok


def linear(name: str, small: Sequence[float], big: Sequence[float], limit: float = 12.0) -> bool:
    """The ratio of the medians of a size and its tenth (each at most ``limit``)."""
    print(report_line(f"{name}, 1/10 size", small))
    print(report_line(f"{name}", big))
    return check(f"{name} / its 1/10 size", statistics.median(big) / statistics.median(small), limit)
