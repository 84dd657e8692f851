"""The list doctor on long lists, and the web builder while other sites try to start it (issue 19).

Figures, each a median measured in this run:
  * `fix` in process of might-skirmish lists of 10,000, 100,000 and 200,000 entries (seven
    catalog units, one model an entry, short enough that 200,000 fit the list file limit), CPU
    seconds, against `validate` (check_list) of the same list timed interleaved: the whole
    question must stay linear, a few validates, and its
    CPU time inside the doctor's 20-second bound (wall time is given too; past the bound on a
    busy machine, the answer is a refusal, exit 2);
  * a running `listbuilder serve` whose folder holds a 60,000-entry list: the answer time of an
    ordinary page (a 16-fighter list's builder page) alone, while eight cross-site doctor
    requests are sent, and while four same-origin ones run (two at once, two waiting; each
    takes seconds of CPU, and the page shares the interpreter's lock with the two running).
    Target: under 100 ms while the cross-site ones are sent;
  * `fill` in process of a legal 5,000-entry speed-range-power list with room to fill, against
    `validate` of it. Target for fix and fill: at most 8x validate (once tests/test_doctor_bounds.py).

Run: python benchmarks/bench_doctor_bounds.py [--runs N] [--quick]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import statistics
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, check, precompile, report_line, timed

UNITS = ["Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist"]
SIXTEEN = ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml"


def long_list(path: Path, entries: int) -> Path:
    """``entries`` one-model entries (18 bytes or so each: 200,000 fit the 4 MB list limit)."""
    lines = "".join(f"- unit: {UNITS[i % 7]}\n" for i in range(entries))
    path.write_text(f"system: might-skirmish\nname: Big {entries}\npoints: 100\nunits:\n{lines}", encoding="utf-8")
    return path


def doctor(folder: Path, sizes: list[int], runs: int) -> bool:
    from listbuilder.api import doctor, lists
    from listbuilder.doctor import program
    from listbuilder.rules.catalog import Catalogs

    bound = program.MAX_SECONDS
    program.MAX_SECONDS = 1000.0  # measured whole, then held to the real bound below
    books = Catalogs()
    doctor.fix_list(long_list(folder / "small.yaml", 10), books)  # rule set and solver loaded once
    ok = True
    for n in sizes:
        path = long_list(folder / f"big{n}.yaml", n)
        fixes, validates, walls = [], [], []
        for _ in range(runs if n <= 10_000 else max(1, runs // 3)):
            start = time.process_time()
            lists.check_list(path, books)
            validates.append(time.process_time() - start)
            start, wall = time.process_time(), time.monotonic()
            answer = doctor.fix_list(path, books)
            fixes.append(time.process_time() - start)
            walls.append(time.monotonic() - wall)
        assert answer.status == "fixed" and answer.suggestions[0].report.legal(), answer.as_json()
        fix, validate, wall = statistics.median(fixes), statistics.median(validates), statistics.median(walls)
        print(report_line(f"validate, {n:,} entries (CPU)", validates))
        print(report_line(f"fix, {n:,} entries (CPU)", fixes), f"| {fix / validate:.1f}x validate, wall {wall:.2f} s")
        ok &= fix < bound  # on a machine of its own wall time is CPU time; a shared one is slower
        ok &= check(f"fix / validate, {n:,} entries", fix / validate, 8.0)
    ok &= fill(folder, books, runs)
    program.MAX_SECONDS = bound
    return ok


def fill(folder: Path, books: object, runs: int, entries: int = 5_000) -> bool:
    """``fill`` of a legal speed-range-power list of ``entries`` one-model Cameleer entries (32
    points each) with 100 points to spare, against validate of it (much longer, and the question's
    numbers pass what the solver holds exactly, which is refused)."""
    from listbuilder.api import doctor, lists

    path = folder / "fill.yaml"
    lines = "  - unit: Cameleer\n" * entries
    path.write_text(f"system: speed-range-power\nname: Host\npoints: {32 * entries + 100}\nunits:\n{lines}")
    small = folder / "small-fill.yaml"
    small.write_text("system: speed-range-power\nname: Host\npoints: 100\nunits:\n  - unit: Cameleer\n")
    doctor.fill_list(small, books)  # the rule set loaded once
    fills, validates = [], []
    for _ in range(runs):
        validates += timed(lambda: lists.check_list(path, books), 1)
        fills += timed(lambda: doctor.fill_list(path, books), 1)
    print(report_line(f"validate, {entries:,} entries (CPU)", validates))
    print(report_line(f"fill, {entries:,} entries (CPU)", fills))
    return check(f"fill / validate, {entries:,} entries", statistics.median(fills) / statistics.median(validates), 8.0)


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        res = conn.getresponse()
        res.read()
        return res.status, time.perf_counter() - start
    finally:
        conn.close()


def serve(folder: Path, pages: int) -> bool:
    sys.path.insert(0, str(ROOT / "tests"))
    from webserver import start

    (folder / "elves.yaml").write_bytes(SIXTEEN.read_bytes())
    long_list(folder / "big.yaml", 60_000)
    server = start(folder)
    try:
        page = "/list/elves.yaml"
        doctor = "/list/big.yaml/doctor?doctor=fix"
        for _ in range(3):
            _get(server.port, page)

        def ordinary() -> list[float]:
            out = []
            for _ in range(pages):
                status, took = _get(server.port, page)
                assert status == 200, status
                out.append(took)
            return out

        alone = ordinary()
        print(report_line("ordinary page, alone", alone))
        figures = {}
        for name, many, headers in (
            ("eight cross-site doctor requests", 8, {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"}),
            ("four same-origin doctor requests", 4, {"Sec-Fetch-Site": "same-origin"}),
        ):
            with concurrent.futures.ThreadPoolExecutor(max_workers=many) as pool:
                sent = [pool.submit(_get, server.port, doctor, headers) for _ in range(many)]
                time.sleep(0.2)  # all eight are in flight
                during = ordinary()
                answers = [s.result() for s in sent]
            statuses = sorted({a[0] for a in answers})
            slowest = max(a[1] for a in answers)
            print(report_line(f"ordinary page, {name}", during), f"| they answered {statuses} in up to {slowest:.1f} s")
            figures[name] = statistics.median(during)
    finally:
        server.stop()
    cross, same = figures["eight cross-site doctor requests"], figures["four same-origin doctor requests"]
    print(f"ordinary page while cross-site doctors are sent: {cross * 1000:.0f} ms (target: 100 ms)")
    print(f"ordinary page while same-origin doctors run: {same * 1000:.0f} ms")
    ok = cross < 0.1
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of the 10,000-entry fix (default 5)")
    parser.add_argument("--quick", action="store_true", help="10,000 and 100,000 entries only")
    args = parser.parse_args()
    precompile()
    sizes = [10_000, 100_000] if args.quick else [10_000, 100_000, 200_000]
    with tempfile.TemporaryDirectory() as tmp:
        ok = doctor(Path(tmp), sizes, args.runs)
        served = Path(tmp) / "served"
        served.mkdir()
        ok &= serve(served, pages=20)
    print("PASS" if ok else "MISS", "(figures above are medians on this machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
