"""Speed of `listbuilder render` to PDF (issue: printable output).

Targets, for the 16-fighter might-skirmish example list:
  * a whole-process `listbuilder render LIST -o OUT.pdf`: at most 1.5 s median;
  * re-rendering in one process (read, judge, lay out, write PDF): at most 0.3 s a list;
  * `render --vs OPPONENT` (the odds matrices on the reference sheet, both ways): at most 0.2 s
    more than the same render without it, whole-process (first odds, cold caches) and in process.
Baseline, measured in the same run: a plain WeasyPrint render of the same HTML with the
system font (no shipped fonts, WeasyPrint's default font subsetting), whole-process and
in-process.

Run: python benchmarks/bench_render.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, interleaved, listbuilder_command, precompile, report_line

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
OPPONENT = ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml"

NAIVE = """
import sys, weasyprint
html = open(sys.argv[1], encoding="utf-8").read()
weasyprint.HTML(string=html).write_pdf(sys.argv[2])
"""


def naive_html(folder: Path) -> Path:
    """The same roster and reference HTML with our stylesheet, but no @font-face: system fonts."""
    from listbuilder.api import check_list
    from listbuilder.printing import pages as sheets
    from listbuilder.printing.html import render_document, stylesheet
    from listbuilder.rules.catalog import Catalogs

    report = check_list(SIXTEEN, Catalogs())
    html = render_document(
        rosters=[sheets.roster(report)], references=sheets.reference_sheet([report]), title="x", standalone=False
    )
    path = folder / "naive.html"
    path.write_text(html.replace("</title>", f"</title><style>{stylesheet()}</style>", 1), encoding="utf-8")
    return path


def in_process(runs: int, html_path: Path, out: Path) -> tuple[list[float], list[float], list[float]]:
    import weasyprint

    from listbuilder import api

    catalogs = api.open_catalogs()
    html = html_path.read_text(encoding="utf-8")
    ours, naive, vs = [], [], []
    for i in range(runs + 2):
        start = time.perf_counter()
        api.render_files([SIXTEEN], catalogs, output=out)
        mid = time.perf_counter()
        weasyprint.HTML(string=html).write_pdf(out.with_name("naive.pdf"))
        end = time.perf_counter()
        api.render_files([SIXTEEN], catalogs, output=out, vs=OPPONENT)
        last = time.perf_counter()
        if i >= 2:  # the first renders load fonts, compile templates and work out the odds
            ours.append(mid - start)
            naive.append(end - mid)
            vs.append(last - end)
    return ours, naive, vs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each (default 11)")
    args = parser.parse_args()
    precompile()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        html = naive_html(folder)
        out = folder / "roster.pdf"
        whole = interleaved(
            {
                "naive WeasyPrint, whole process": [sys.executable, "-c", NAIVE, str(html), str(folder / "n.pdf")],
                "listbuilder render, whole process": [*listbuilder_command(), "render", str(SIXTEEN), "-o", str(out)],
                "listbuilder render --vs, whole process": [
                    *listbuilder_command(),
                    "render",
                    str(SIXTEEN),
                    "--vs",
                    str(OPPONENT),
                    "-o",
                    str(out),
                ],
            },
            args.runs,
            warmup=1,
        )
        for name, values in whole.items():
            print(report_line(name, values))
        ours, naive, vs = in_process(args.runs, html, out)
        print(report_line("naive WeasyPrint, in process", naive))
        print(report_line("listbuilder re-render, in process", ours))
        print(report_line("listbuilder re-render --vs, in process", vs))
    whole_median = statistics.median(whole["listbuilder render, whole process"])
    vs_added = statistics.median(whole["listbuilder render --vs, whole process"]) - whole_median
    again = statistics.median(ours)
    vs_again = statistics.median(vs) - again
    print(f"whole process: {whole_median:.2f} s (target: at most 1.5 s)")
    print(f"re-render in process: {again:.3f} s a list (target: at most 0.3 s)")
    print(f"--vs adds: {vs_added:.3f} s whole-process, {vs_again:.3f} s in process (target: at most 0.2 s)")
    ok = whole_median <= 1.5 and again <= 0.3 and vs_added <= 0.2 and vs_again <= 0.2
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
