"""Big lists and big catalogs cost what they hold, not its square (issues 9 and 10).

Targets, each a median measured in this run:
  * linear: each of these at most 12x its 1/10-size counterpart: validate, points and HTML
    render of lists of 200, 2,000 and 20,000 entries; PDF render of 20 and 200 entries; a
    cold load (no cache) of a faction of 1,000 and 10,000 units; "did you mean" for 10 and
    100 typos against 10,000 units;
  * HTML for 20,000 entries in under 10 s; a 10,000-unit faction loads cold in under 1 s;
  * a whole-process `listbuilder render` of 1,000 entries to PDF in under 10 s.
In-process figures are CPU seconds of the benchmark's process (the machine is shared: wall
time mostly measures the other users); the whole-process render gives wall and CPU seconds.
Grids of odds are in bench_odds.py, whole-process start-up in bench_validate.py and
bench_render.py.

Run: python benchmarks/bench_scale.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

from common import (
    check,
    linear,
    listbuilder_command,
    precompile,
    report_line,
    time_once,
    timed,
    write_big_faction,
    write_big_list,
)


def lists(folder: Path, runs: int) -> bool:
    from listbuilder.api import lists, printing
    from listbuilder.cli import views
    from listbuilder.rules.catalog import Catalogs

    catalogs = Catalogs()
    paths = {n: write_big_list(folder / f"big{n}.yaml", n) for n in (20, 200, 2_000, 20_000)}
    lists.check_list(paths[20], catalogs)  # load the rule set once, as any process does
    ok = True
    figures: dict[tuple[str, int], list[float]] = {}
    for n in (200, 2_000, 20_000):
        count = runs if n < 20_000 else max(1, runs // 2)
        figures["validate", n] = timed(lambda n=n: views.validation(lists.check_list(paths[n], catalogs)), count)
        figures["points", n] = timed(lambda n=n: views.points(lists.check_list(paths[n], catalogs)), count)
        html = folder / f"big{n}.html"
        figures["html", n] = timed(
            lambda n=n, html=html: printing.render_files([paths[n]], catalogs, output=html), count
        )
    for kind, label in (("validate", "validate"), ("points", "points"), ("html", "render to HTML")):
        for small, big in ((200, 2_000), (2_000, 20_000)):
            ok &= linear(f"{label}, {big:,} entries", figures[kind, small], figures[kind, big])
    ok &= check("HTML of 20,000 entries", statistics.median(figures["html", 20_000]), 10.0, "s")
    out = folder / "big.pdf"
    pdf = {n: timed(lambda n=n: printing.render_files([paths[n]], catalogs, output=out), runs) for n in (20, 200)}
    ok &= linear("render to PDF, 200 entries", pdf[20], pdf[200])
    return ok


def catalogs(folder: Path, runs: int) -> bool:
    from listbuilder.rules.catalog import Catalogs
    from listbuilder.words import did_you_mean

    os.environ["LISTBUILDER_NO_CACHE"] = "1"  # cold: read and check every file
    try:
        roots = {n: write_big_faction(folder / f"units{n}", n) for n in (1_000, 10_000)}
        load = {n: timed(lambda n=n: Catalogs([roots[n]]).get("might-skirmish"), runs) for n in roots}
        names = [u.name for u in Catalogs([roots[10_000]]).get("might-skirmish").units.values()]
    finally:
        del os.environ["LISTBUILDER_NO_CACHE"]
    ok = linear("cold load of a 10,000-unit faction", load[1_000], load[10_000])
    ok &= check("cold load of a 10,000-unit faction", statistics.median(load[10_000]), 1.0, "s")
    rng = random.Random(10)
    typos = [n[:k] + n[k + 1 :] for n in rng.sample(names, 100) for k in [rng.randrange(len(n))]]
    hints = {
        count: timed(lambda count=count: [did_you_mean(t, names) for t in typos[:count]], runs) for count in (10, 100)
    }
    ok &= linear("did you mean: 100 typos against 10,000 units", hints[10], hints[100])
    return ok


def whole_process_thousand(folder: Path, runs: int) -> bool:
    path = write_big_list(folder / "big1000.yaml", 1_000)
    command = [*listbuilder_command(), "render", str(path), "-o", str(folder / "big1000.pdf")]
    cpu: list[float] = []
    times = [time_once(command, ok_codes=(0, 1), cpu=cpu) for _ in range(runs)]
    print(report_line("listbuilder render, 1,000 entries to PDF", times))
    print(report_line("  CPU of the same", cpu))
    check("render of 1,000 entries, whole process, wall time", statistics.median(times), 10.0, "s")
    return check("render of 1,000 entries, whole process, CPU time", statistics.median(cpu), 10.0, "s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, for a first look (a few minutes)")
    args = parser.parse_args()
    runs = 3 if args.quick else 7
    precompile()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ok = lists(folder, runs)
        ok &= catalogs(folder, runs)
        ok &= whole_process_thousand(folder, 1 if args.quick else 3)
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
