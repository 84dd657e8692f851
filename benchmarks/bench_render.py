"""Speed and size of `listbuilder render` to PDF (issues: printable output, 10).

Targets, for the 16-fighter might-skirmish example list:
  * a whole-process `listbuilder render LIST -o OUT.pdf` at most 0.85x a plain WeasyPrint
    render of the same HTML (`weasyprint.HTML(file).write_pdf(out)` in a fresh process, the
    HTML being what `listbuilder render -o OUT.html` writes), medians interleaved in one run;
  * re-rendering in one process (read, judge, lay out, write PDF): at most 0.3 s a list;
  * the PDF at most 1.2x the size WeasyPrint's defaults give for the same HTML;
  * `render --vs OPPONENT` (the odds matrices on the reference sheet): at most 0.2 s more than
    the same render without it, whole-process (first odds, cold caches) and in process.
Also printed, for information: a plain WeasyPrint render of the HTML with the system font
instead of the shipped ones, whole-process and in-process.

Run: python benchmarks/bench_render.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import (
    ROOT,
    as_a_listbuilder_process,
    check,
    interleaved,
    listbuilder_command,
    precompile,
    report_line,
    time_once,
)

SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"
OPPONENT = ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml"

PLAIN = "import sys, weasyprint; weasyprint.HTML(sys.argv[1]).write_pdf(sys.argv[2])"
NAIVE = """
import sys, weasyprint
html = open(sys.argv[1], encoding="utf-8").read()
weasyprint.HTML(string=html).write_pdf(sys.argv[2])
"""


def naive_html(folder: Path) -> Path:
    """The same roster and reference HTML with our stylesheet, but no @font-face: system fonts."""
    from listbuilder.api.lists import check_list
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


def in_process(runs: int, html_path: Path, out: Path) -> tuple[list[float], list[float], list[float], list[float]]:
    import weasyprint

    from listbuilder.api import printing, rulesets

    as_a_listbuilder_process()
    catalogs = rulesets.open_catalogs()
    html = html_path.read_text(encoding="utf-8")
    ours, naive, vs, ours_cpu = [], [], [], []
    for i in range(runs + 2):
        start, cpu = time.perf_counter(), time.process_time()
        printing.render_files([SIXTEEN], catalogs, output=out)
        mid, cpu_done = time.perf_counter(), time.process_time()
        weasyprint.HTML(string=html).write_pdf(out.with_name("naive.pdf"))
        end = time.perf_counter()
        printing.render_files([SIXTEEN], catalogs, output=out, vs=OPPONENT)
        last = time.perf_counter()
        if i >= 2:  # the first renders load fonts, compile templates and work out the odds
            ours.append(mid - start)
            ours_cpu.append(cpu_done - cpu)
            naive.append(end - mid)
            vs.append(last - end)
    return ours, naive, vs, ours_cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each (default 11)")
    parser.add_argument("--quick", action="store_true", help="5 runs of each, for a first look")
    args = parser.parse_args()
    runs = 5 if args.quick else args.runs
    precompile()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        html = naive_html(folder)
        out = folder / "roster.pdf"
        same = folder / "roster.html"
        time_once([*listbuilder_command(), "render", str(SIXTEEN), "-o", str(same)])
        plain_pdf = folder / "plain.pdf"
        cpu: dict[str, list[float]] = {}
        whole = interleaved(
            {
                "plain WeasyPrint, same HTML, whole process": [sys.executable, "-c", PLAIN, str(same), str(plain_pdf)],
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
            runs,
            warmup=1,
            cpu=cpu,
        )
        for name, values in whole.items():
            print(report_line(name, values))
            print(report_line("  CPU of the same", cpu[name]))
        size, plain_size = out.stat().st_size, plain_pdf.stat().st_size
        ours, naive, vs, ours_cpu = in_process(runs, html, out)
        print(report_line("naive WeasyPrint, in process", naive))
        print(report_line("listbuilder re-render, in process", ours))
        print(report_line("  CPU of the same", ours_cpu))
        print(report_line("listbuilder re-render --vs, in process", vs))
    whole_median = statistics.median(whole["listbuilder render, whole process"])
    plain = statistics.median(whole["plain WeasyPrint, same HTML, whole process"])
    naive_whole = statistics.median(whole["naive WeasyPrint, whole process"])
    vs_added = statistics.median(whole["listbuilder render --vs, whole process"]) - whole_median
    again = statistics.median(ours)
    vs_again = statistics.median(vs) - again
    print(f"whole process: {whole_median:.2f} s, {whole_median / naive_whole:.2f}x the system-font baseline")
    ok = check("whole process / plain WeasyPrint of the same HTML", whole_median / plain, 0.85)
    ours_cpu_whole = statistics.median(cpu["listbuilder render, whole process"])
    plain_cpu = statistics.median(cpu["plain WeasyPrint, same HTML, whole process"])
    ratio_cpu = ours_cpu_whole / plain_cpu
    print(f"  (in CPU seconds, children included: {ours_cpu_whole:.2f} s / {plain_cpu:.2f} s = {ratio_cpu:.2f}x)")
    ok &= check("re-render in process", again, 0.3, "s")
    print(f"  (in CPU seconds of this process: {statistics.median(ours_cpu):.3f} s)")
    print(f"PDF: {size:,} bytes; WeasyPrint's defaults: {plain_size:,} bytes")
    ok &= check("PDF size / WeasyPrint's defaults", size / plain_size, 1.2)
    ok &= check("--vs adds, whole process", vs_added, 0.2, "s")
    ok &= check("--vs adds, in process", vs_again, 0.2, "s")
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
