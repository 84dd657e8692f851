"""Speed of `listbuilder validate` (issue: core).

Targets:
  * a whole-process `listbuilder validate` of a 16-fighter list takes at most 2x the time of
    `python -c "import yaml, pydantic"`, measured interleaved in the same run;
  * validating 1,000 lists in one process takes under 1 s.

Run: python benchmarks/bench_validate.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, interleaved, listbuilder_command, median_ms, precompile, report_line

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"


def whole_process(runs: int) -> float:
    times = interleaved(
        {
            'python -c "import yaml, pydantic"': [sys.executable, "-c", "import yaml, pydantic"],
            "listbuilder validate (16 fighters)": [*listbuilder_command(), "validate", str(SIXTEEN)],
            "  the same, no catalog cache": [
                "env",
                "LISTBUILDER_NO_CACHE=1",
                *listbuilder_command(),
                "validate",
                str(SIXTEEN),
            ],
        },
        runs,
    )
    for name, values in times.items():
        print(report_line(name, values))
    base, ours, cold = (statistics.median(v) for v in times.values())
    print(f"ratio without the catalog cache (every run re-reads and re-checks the rule set): {cold / base:.2f}x")
    ratio = ours / base
    print(f"ratio validate / baseline: {ratio:.2f}x (target: at most 2.00x)")
    return ratio


def many_lists(count: int = 1000, repeats: int = 5) -> float:
    from listbuilder.api import check_list
    from listbuilder.rules.catalog import Catalogs

    examples = sorted((ROOT / "examples").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(count):
            source = examples[i % len(examples)]
            path = Path(tmp) / f"list{i:04d}.yaml"
            # Vary each file so no layer can cache one parse for all.
            path.write_text(source.read_text().replace("name: ", f"name: No. {i} ", 1))
            paths.append(path)
        times = []
        for _ in range(repeats):
            catalogs = Catalogs()  # a fresh process would load the rule sets once, too
            start = time.perf_counter()
            for path in paths:
                check_list(path, catalogs)
            times.append(time.perf_counter() - start)
    print(report_line(f"validate {count:,} lists in one process", times))
    print(f"per list: {median_ms(times) / count * 1000:.0f} us (target: 1,000 lists under 1,000 ms)")
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each command (default 21)")
    args = parser.parse_args()
    precompile()
    ratio = whole_process(args.runs)
    seconds = many_lists()
    ok = ratio <= 2.0 and seconds < 1.0
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
