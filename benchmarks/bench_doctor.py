"""Speed of `listbuilder fix` and `listbuilder fill` (issue 12).

Targets, each in process and as a whole process:
  * fix of a 16-fighter might-skirmish list whose faction has 20 catalog units;
  * fill of a 1,000-point speed-range-power list of 100 models, with 20 candidate units;
each at most 200 ms in process (median of repeated calls, rule sets loaded, solver imported) and
at most 1 s as a whole process, timed interleaved with `listbuilder validate` of the same list.

The factions are written to a temporary catalog folder, so the figures do not depend on how
many units the shipped catalogs happen to have.

Run: python benchmarks/bench_doctor.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from common import interleaved, listbuilder_command, median_ms, precompile, report_line

CLASSES = ["Soldier", "Warrior", "Beast", "Drone", "Gunner", "Berserker", "Sniper", "Gunslinger", "Monster", "Mech"]


def write_catalogs(root: Path) -> tuple[Path, Path]:
    """A 20-unit faction for each rule set, and the two lists; returns the list paths."""
    might = root / "might-skirmish" / "factions"
    might.mkdir(parents=True)
    units = [f"  - {{name: Bench {i:02d}, class: {CLASSES[i % 10]}, might: {3 + i % 9}}}" for i in range(20)]
    (might / "bench.yaml").write_text("faction: Bench Warband\nunits:\n" + "\n".join(units) + "\n")
    srp = root / "speed-range-power" / "factions"
    srp.mkdir(parents=True)
    units = [
        f"  - {{name: Bench {i:02d}, speed: {3 * (i % 3)}, range: {3 * (i % 4)}, power: {1 + i % 3}}}"
        for i in range(20)
    ]
    (srp / "bench.yaml").write_text("faction: Bench Company\nunits:\n" + "\n".join(units) + "\n")
    # 16 fighters: 3 Monsters and a Mech (at most 2 rare), few basic, over 100 points.
    fix_list = root / "fix.yaml"
    picks = [(8, 2), (9, 1), (18, 1), (4, 3), (6, 2), (0, 2), (5, 2), (1, 3)]
    fix_list.write_text(
        "system: might-skirmish\nname: Bench warband\npoints: 100\nunits:\n"
        + "".join(f"  - unit: Bench {i:02d}\n    count: {n}\n" for i, n in picks)
    )
    # 100 models of the cheapest units (4 to 9 points), well under 1,000 points, 5 leaders.
    fill_list = root / "fill.yaml"
    picks = [(0, 30), (3, 25), (6, 20), (9, 20), (1, 5)]
    fill_list.write_text(
        "system: speed-range-power\nname: Bench company\npoints: 1000\nunits:\n"
        + "".join(f"  - unit: Bench {i:02d}\n    count: {n}\n" for i, n in picks[:-1])
        + f"  - unit: Bench {picks[-1][0]:02d}\n    count: {picks[-1][1]}\n    leader: true\n"
    )
    return fix_list, fill_list


def in_process(root: Path, fix_list: Path, fill_list: Path, repeats: int) -> tuple[float, float]:
    from listbuilder.api import doctor, lists, rulesets

    books = rulesets.open_catalogs([root])
    report = lists.check_list(fix_list, books)
    assert not report.legal() and report.models == 16, report.as_json()
    filled = lists.check_list(fill_list, books)
    assert filled.legal() and filled.models == 100 and filled.total < 1000, filled.as_json()
    doctor.fix_list(fix_list, books)  # the solver's import is paid once per process
    out = []
    for name, call in (
        ("fix, 16 fighters, 20 units", lambda: doctor.fix_list(fix_list, books)),
        ("fill, 100 models, 20 units", lambda: doctor.fill_list(fill_list, books)),
    ):
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            answer = call()
            times.append(time.perf_counter() - start)
        assert answer.suggestions, answer.as_json()
        print(report_line(f"in process: {name}", times), "|", answer.suggestions[0].text())
        out.append(statistics.median(times))
    return out[0], out[1]


def whole_process(root: Path, fix_list: Path, fill_list: Path, runs: int) -> tuple[float, float]:
    commands = {
        "listbuilder validate fix.yaml": [*listbuilder_command(), "validate", "--catalogs", str(root), str(fix_list)],
        "listbuilder fix fix.yaml": [*listbuilder_command(), "fix", "--catalogs", str(root), str(fix_list)],
        "listbuilder validate fill.yaml": [*listbuilder_command(), "validate", "--catalogs", str(root), str(fill_list)],
        "listbuilder fill fill.yaml": [*listbuilder_command(), "fill", "--catalogs", str(root), str(fill_list)],
    }
    times = interleaved(commands, runs, ok_codes=(0, 1))  # validate of the illegal list exits 1
    for name, values in times.items():
        print(report_line(name, values))
    v_fix, fix, v_fill, fill = (statistics.median(v) for v in times.values())
    print(f"fix: {fix * 1000:.0f} ms, {fix / v_fix:.2f}x validate of the same list")
    print(f"fill: {fill * 1000:.0f} ms, {fill / v_fill:.2f}x validate of the same list")
    return fix, fill


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each command (default 11)")
    args = parser.parse_args()
    precompile()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fix_list, fill_list = write_catalogs(root)
        fix_ms, fill_ms = in_process(root, fix_list, fill_list, repeats=args.runs * 2)
        fix_s, fill_s = whole_process(root, fix_list, fill_list, args.runs)
    ok = fix_ms <= 0.2 and fill_ms <= 0.2 and fix_s <= 1.0 and fill_s <= 1.0
    print(f"in process: fix {median_ms([fix_ms]):.0f} ms, fill {median_ms([fill_ms]):.0f} ms (target: 200 ms each);")
    print(f"whole process: fix {fix_s * 1000:.0f} ms, fill {fill_s * 1000:.0f} ms (target: 1,000 ms each)")
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
