"""Size and speed of a pocket copy, `listbuilder render LIST --pocket` (issue 34).

Target: at most 300 KB for a 16-fighter list (the might-skirmish Windblade Elves) with two
`--vs` lists. Also printed, for information: the size of a large list's pocket copy (a
100-entry list against the elves), and the whole-process time of a pocket copy against the
same list rendered to HTML (`render -o OUT.html --vs ONE`), medians interleaved in one run.

Run: python benchmarks/bench_pocket.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, check, interleaved, listbuilder_command, precompile, report_line, write_big_list

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
OPPONENTS = (
    ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml",
    ROOT / "examples" / "might-skirmish-monster-mash.illegal.yaml",
)
BUDGET = 300_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    precompile()
    lb = listbuilder_command()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        pocket = folder / "pocket.html"
        vs = [a for o in OPPONENTS for a in ("--vs", str(o))]
        commands = {
            "render --pocket, two --vs": [*lb, "render", str(SIXTEEN), "--pocket", "-o", str(pocket), *vs],
            "render -o OUT.html --vs (baseline)": [
                *lb,
                "render",
                str(SIXTEEN),
                "-o",
                str(folder / "plain.html"),
                "--vs",
                str(OPPONENTS[0]),
            ],
        }
        times = interleaved(commands, args.runs)
        for name, values in times.items():
            print(report_line(name, values))
        ratio = statistics.median(times["render --pocket, two --vs"]) / statistics.median(
            times["render -o OUT.html --vs (baseline)"]
        )
        print(f"  pocket copy / HTML render: {ratio:.2f}x")
        size = pocket.stat().st_size
        print(f"pocket copy of 16 fighters with two --vs: {size:,} bytes")
        ok &= check("pocket copy, 16 fighters, two --vs", size / 1000, BUDGET / 1000, "KB")

        big = write_big_list(folder / "big.yaml", 100)
        out = folder / "big.html"
        listed = [*lb, "render", str(big), "--pocket", "-o", str(out), "--vs", str(SIXTEEN)]

        done = subprocess.run(listed, capture_output=True, text=True)
        if done.returncode == 0:
            print(f"pocket copy of a 100-entry list (200 fighters) with one --vs: {out.stat().st_size:,} bytes")
        else:
            print(f"pocket copy of a 100-entry list: refused: {done.stderr.strip()[:200]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
