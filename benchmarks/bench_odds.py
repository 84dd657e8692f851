"""Speed of exact matchup odds (issue: odds).

Targets, each in one process with fresh caches:
  * the full speed-range-power matrix, Power 1-12 against Power 1-12, in at most 200 ms;
  * a 16 x 16 might-skirmish matrix (the 16 fighters of examples/might-skirmish-windblade-elves
    against a 16-fighter Zombie Family) in at most 200 ms.
  * odds grids cost what they hold (issue 10): a 200 x 200 grid of the copies of eight
    profiles (as fielding a long list's units gives) at most 12x a 20 x 20 one of the same
    profiles; a 200 x 200 grid of 200 distinct profiles a side (40,000 distinct matchups)
    under 3 s.
Also printed, for information: the same two from a cold start in a new process (importing
listbuilder.odds and icepool included).

Run: python benchmarks/bench_odds.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import CLASSES, ROOT, check, linear, median_ms, report_line

ELVES = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
# A legal 89-point Zombie Family of 16 fighters, 13 of them basic (the example list has 14).
ZOMBIES_16 = """\
system: might-skirmish
name: Zombie Family (16)
units:
  - unit: Hunter
    count: 2
  - unit: Shambler
    count: 4
  - unit: Rotting Hound
    count: 2
  - unit: Crow Swarm
    count: 5
  - unit: Grave Digger
  - unit: Blunderbuss Uncle
  - unit: Cousin Sniper
"""
TARGET_MS = 200.0


def power_units():
    from listbuilder.rules.formats import Unit

    return [Unit(name=f"Power {p}", stats={"speed": 6, "range": 6, "power": p, "traits": ()}) for p in range(1, 13)]


def list_units(folder: Path):
    from listbuilder.api.lists import check_list
    from listbuilder.odds import fielded
    from listbuilder.rules.catalog import Catalogs

    catalogs = Catalogs()
    zombies = folder / "zombies16.yaml"
    zombies.write_text(ZOMBIES_16)
    elves, family = (fielded(check_list(p, catalogs)) for p in (ELVES, zombies))
    assert len(elves) == len(family) == 16, (len(elves), len(family))
    return catalogs, elves, family


def timed(runs: int, work) -> list[float]:
    """CPU seconds of this process for each run of ``work``, caches cleared before each (the
    machine is shared: wall time mostly measures the other users)."""
    from listbuilder.odds import clear_caches

    times = []
    for _ in range(runs):
        clear_caches()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return times


def in_process(runs: int) -> tuple[float, float]:
    from listbuilder.odds import matrix

    with tempfile.TemporaryDirectory() as tmp:
        catalogs, elves, family = list_units(Path(tmp))
    srp, ms = catalogs.get("speed-range-power"), catalogs.get("might-skirmish")
    powers = power_units()
    srp_times = timed(runs, lambda: matrix(srp, powers, powers))
    ms_times = timed(runs, lambda: matrix(ms, elves, family))
    print(report_line("speed-range-power 12 x 12 matrix", srp_times))
    print(f"  first run (icepool's own caches cold too): {srp_times[0] * 1000:.1f} ms")
    print(report_line("might-skirmish 16 x 16 matrix", ms_times))
    print(f"  first run: {ms_times[0] * 1000:.1f} ms")
    return median_ms(srp_times), median_ms(ms_times)


COLD = """\
import json, sys, tempfile, time
from pathlib import Path
start = time.perf_counter()
sys.path.insert(0, {bench!r})
import bench_odds
from listbuilder.odds import matrix
imported = time.perf_counter()
with tempfile.TemporaryDirectory() as tmp:
    catalogs, elves, family = bench_odds.list_units(Path(tmp))
t0 = time.perf_counter()
powers = bench_odds.power_units()
matrix(catalogs.get("speed-range-power"), powers, powers)
t1 = time.perf_counter()
matrix(catalogs.get("might-skirmish"), elves, family)
t2 = time.perf_counter()
print(json.dumps({{"import": imported - start, "srp": t1 - t0, "ms": t2 - t1}}))
"""


def cold(runs: int) -> None:
    figures: dict[str, list[float]] = {"import": [], "srp": [], "ms": []}
    code = COLD.format(bench=str(Path(__file__).resolve().parent))
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
        for key, value in json.loads(out.stdout).items():
            figures[key].append(value)
    print(report_line("cold: import odds and icepool", figures["import"]))
    print(report_line("cold: speed-range-power 12 x 12", figures["srp"]))
    print(report_line("cold: might-skirmish 16 x 16", figures["ms"]))


def profiles(count: int, distinct: bool):
    """``count`` might-skirmish units: ``count`` distinct profiles each named apart, or the
    copies of eight named units (as ``fielded`` gives a long list's entries, one per model)."""
    from listbuilder.rules.formats import Unit

    if distinct:
        return [Unit(name=f"Fighter {i}", stats={"class": CLASSES[i % 10], "might": 1 + i // 10}) for i in range(count)]
    eight = [Unit(name=f"{c} {m}", stats={"class": c, "might": m}) for c in CLASSES[:4] for m in (3, 7)]
    return [eight[i % 8] for i in range(count)]


def grids(runs: int) -> bool:
    from listbuilder.odds import matrix
    from listbuilder.rules.catalog import Catalogs

    ms = Catalogs().get("might-skirmish")
    figures = {}
    for distinct in (False, True):
        for n in (20, 200):
            units = profiles(n, distinct)
            figures[distinct, n] = timed(runs, lambda units=units: matrix(ms, units, units))
    ok = linear("200 x 200 grid of the copies of 8 units", figures[False, 20], figures[False, 200])
    print(report_line("20 x 20 grid, distinct profiles", figures[True, 20]))
    print(report_line("200 x 200 grid, distinct profiles", figures[True, 200]))
    ok &= check("200 x 200 grid, 40,000 distinct matchups", statistics.median(figures[True, 200]), 3.0, "s")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each matrix (default 21)")
    parser.add_argument("--quick", action="store_true", help="7 runs of each, for a first look")
    args = parser.parse_args()
    runs = 7 if args.quick else args.runs
    srp, ms = in_process(runs)
    cold(max(3, runs // 4))
    grids_ok = grids(max(3, runs // 3))
    ok = srp <= TARGET_MS and ms <= TARGET_MS and grids_ok
    print(f"targets: each matrix at most {TARGET_MS:.0f} ms with fresh caches; medians {srp:.1f} ms and {ms:.1f} ms")
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
