"""Speed of `listbuilder validate` and of start-up (issues: core, 10).

Budgets (issue 30, "Start-up budgets, re-set"):
  * a whole-process `listbuilder validate` of a 16-fighter list (warm rule-set cache) takes at
    most 2.5x the time of `python -c "import yaml, pydantic"`, measured interleaved in the same run;
  * `listbuilder --version` takes at most 1.5x `python -c "import typer"`, likewise;
  * validating 1,000 lists in one process takes under 1 s.

Run: python benchmarks/bench_validate.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, as_a_listbuilder_process, interleaved, listbuilder_command, median_ms, precompile, report_line

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
VALIDATE_BUDGET = 2.5
VERSION_BUDGET = 1.5


def whole_process(runs: int) -> tuple[float, float]:
    cpu: dict[str, list[float]] = {}
    times = interleaved(
        {
            'python -c "import yaml, pydantic"': [sys.executable, "-c", "import yaml, pydantic"],
            "listbuilder validate (16 fighters)": [*listbuilder_command(), "validate", str(SIXTEEN)],
            'python -c "import typer"': [sys.executable, "-c", "import typer"],
            "listbuilder --version": [*listbuilder_command(), "--version"],
            "  validate, no catalog cache": [
                "env",
                "LISTBUILDER_NO_CACHE=1",
                *listbuilder_command(),
                "validate",
                str(SIXTEEN),
            ],
        },
        runs,
        cpu=cpu,
    )
    for name, values in times.items():
        print(report_line(name, values))
        print(report_line("  CPU of the same", cpu[name]))
    base_cpu, ours_cpu, typer_cpu, version_cpu, _ = (statistics.median(v) for v in cpu.values())
    validate_cpu, start_cpu = ours_cpu / base_cpu, version_cpu / typer_cpu
    print(f"in CPU seconds: validate {validate_cpu:.2f}x, --version {start_cpu:.2f}x their baselines")
    base, ours, typer_base, version, cold = (statistics.median(v) for v in times.values())
    print(f"ratio without the catalog cache (every run re-reads and re-checks the rule set): {cold / base:.2f}x")
    ratio = ours / base
    print(f"ratio validate / import yaml, pydantic: {ratio:.2f}x (budget: at most {VALIDATE_BUDGET:.2f}x)")
    start = version / typer_base
    print(f"ratio --version / import typer: {start:.2f}x (budget: at most {VERSION_BUDGET:.2f}x)")
    return ratio, start


def many_lists(count: int = 1000, repeats: int = 5) -> float:
    from listbuilder.api.lists import check_list
    from listbuilder.rules.catalog import Catalogs

    as_a_listbuilder_process()
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
    parser.add_argument("--quick", action="store_true", help="11 runs and fewer repeats, for a first look")
    args = parser.parse_args()
    precompile()
    ratio, start = whole_process(11 if args.quick else args.runs)
    seconds = many_lists(repeats=3 if args.quick else 5)
    ok = ratio <= VALIDATE_BUDGET and start <= VERSION_BUDGET and seconds < 1.0
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
