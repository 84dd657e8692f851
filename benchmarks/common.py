"""Helpers for the benchmarks: run whole commands repeatedly and report medians against a baseline.

The machine is shared and noisy, so each figure is a median, and each command is timed
interleaved with its baseline in the same run: compare the ratio, not the raw seconds.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
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


def listbuilder_command() -> list[str]:
    """The installed console script beside this Python, or ``python -m listbuilder``."""
    script = Path(sys.executable).parent / "listbuilder"
    return [str(script)] if script.exists() else [sys.executable, "-m", "listbuilder"]


def time_once(cmd: Sequence[str], ok_codes: Sequence[int] = (0,)) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok_codes:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[:500]}")
    return elapsed


def interleaved(
    commands: dict[str, Sequence[str]], runs: int, warmup: int = 2, ok_codes: Sequence[int] = (0,)
) -> dict[str, list[float]]:
    """Time each command ``runs`` times, taking turns, after ``warmup`` untimed rounds."""
    for _ in range(warmup):
        for cmd in commands.values():
            time_once(cmd, ok_codes)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            times[name].append(time_once(cmd, ok_codes))
    return times


def median_ms(values: Sequence[float]) -> float:
    return statistics.median(values) * 1000


def report_line(name: str, values: Sequence[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) >= 4 else [min(values), 0, max(values)]
    spread = f"quartiles {q[0] * 1000:.1f}-{q[2] * 1000:.1f} ms, n={len(values)}"
    return f"{name:<34} median {median_ms(values):8.1f} ms   ({spread})"
