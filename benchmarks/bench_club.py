"""Club mode under load (issue 32), through a real `listbuilder serve` of a club folder.

Figures, on this machine, each from one run:
  * 50 members signed in, each adding a fighter to a list of their own at once, CHANGES times,
    pausing about a second after each answer as a person does (--think): every acknowledged change
    is in the lists afterwards (none lost), and the p95 of a change's answer time is at most
    100 ms. The same back to back, no pause, is reported too (the server saturated: each change
    then waits for the others', about 3 ms of work each, so no target);
  * a member's lists page with 200 lists: median at most 150 ms;
  * the server's memory (peak resident set, VmHWM) once 200 members of 20 lists each have each
    opened their lists page: at most 300 MB.

Run: python benchmarks/bench_club.py [--changes N] [--quick]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from common import ROOT, check, precompile, report_line

sys.path.insert(0, str(ROOT / "tests"))

LIST = ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml"


def make(folder: Path, members: int, lists: int, big: int) -> list[str]:
    """A club of ``members`` members with ``lists`` lists each (``big`` lists for the first)."""
    from listbuilder.api import club

    club.new_club(folder, "Bench Club", "Olga")
    names = [f"Member {i:03}" for i in range(members)]
    text = LIST.read_bytes()
    for n, name in enumerate(names):
        invited = club.invite(folder, name)
        target = folder / "members" / invited.member.folder
        for i in range(big if n == 0 else lists):
            (target / f"list-{i:03}.yaml").write_bytes(text)
    return names


def sign_in(server, folder: Path, name: str) -> tuple[str, str]:
    """A member's cookie and form token, signed in with a new link."""
    from listbuilder.api import club

    secret = club.invite(folder, name).link.rsplit("/join/", 1)[1]
    answer = server.post(f"/join/{secret}", {})
    cookie = answer.headers["set-cookie"].split(";", 1)[0]
    page = server.get("/me", {"Cookie": cookie}).text
    token = re.search(r'name="token" value="([^"]+)"', page)
    assert token, page[:300]
    return cookie, token.group(1)


def hunters(path: Path) -> int:
    from listbuilder.api import lists, rulesets

    report = lists.check_list(path, rulesets.open_catalogs(None))
    return sum(e.count for e in report.army.entries if e.unit.name == "Hunter")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def changes(server, folder: Path, sessions, writers: int, each: int, think: float) -> list[float]:
    """Members 1..``writers`` each add a Hunter to their list-001.yaml ``each`` times, all at
    once: each starts within ``think`` seconds of the others and pauses ``think`` seconds on
    average (0.5x to 1.5x, at random) after each answer (0: all on one tick, back to back); every
    acknowledged change must be in the files afterwards. Returns each change's answer time."""
    import random

    members = range(1, writers + 1)
    path = {n: folder / "members" / f"member-{n:03}" / "list-001.yaml" for n in members}
    before = {n: hunters(path[n]) for n in members}
    took: list[float] = []
    acked = dict.fromkeys(members, 0)
    barrier = threading.Barrier(writers)
    lock = threading.Lock()

    def run(n: int) -> None:
        cookie, token = sessions[n]
        pause = random.Random(n)
        barrier.wait()
        time.sleep(think * pause.random())  # people start within a moment of each other, not on one tick
        for _ in range(each):
            start_at = time.perf_counter()
            answer = server.post(
                "/list/list-001.yaml/change", {"token": token, "change": "add", "unit": "Hunter"}, {"Cookie": cookie}
            )
            spent = time.perf_counter() - start_at
            with lock:
                took.append(spent)
                acked[n] += answer.status == 303
            time.sleep(think * pause.uniform(0.5, 1.5))

    threads = [threading.Thread(target=run, args=(n,)) for n in members]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lost = sum(before[n] + acked[n] - hunters(path[n]) for n in members)
    label = f"a change, {writers} at once" + (f", ~{think:g} s apart" if think else ", back to back")
    print(report_line(label, took))
    print(f"  acknowledged {sum(acked.values())} of {len(took)} changes; lost: {lost}")
    assert lost == 0 and sum(acked.values()) == len(took), "an acknowledged change is missing"
    return took


def rss_peak(pid: int) -> float:
    """The peak resident set of process ``pid``, in MB (Linux's VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--changes", type=int, default=10, help="changes each of the 50 members makes")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a member pauses between changes")
    parser.add_argument("--quick", action="store_true", help="a smaller club (20 x 5 lists), for a try")
    args = parser.parse_args()
    precompile()
    from webserver import start

    members, lists, writers = (20, 5, 10) if args.quick else (200, 20, 50)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "club"
        began = time.perf_counter()
        names = make(folder, members, lists, big=200)
        print(f"club of {members} members x {lists} lists made in {time.perf_counter() - began:.1f} s")
        server = start(folder)
        try:
            sessions = [sign_in(server, folder, name) for name in names]
            # a member's lists page with 200 lists
            cookie = {"Cookie": sessions[0][0]}
            first = time.perf_counter()
            assert server.get("/", cookie).status == 200
            print(f"lists page, 200 lists, first load (every file read): {(time.perf_counter() - first) * 1000:.1f} ms")
            for _ in range(3):
                assert server.get("/", cookie).status == 200
            pages = []
            for _ in range(15):
                start_at = time.perf_counter()
                answer = server.get("/", cookie)
                pages.append(time.perf_counter() - start_at)
                assert answer.status == 200 and answer.text.count('class="list-name"') == 200
            print(report_line("lists page, 200 lists", pages))
            ok &= check("lists page, 200 lists (median, ms)", statistics.median(pages) * 1000, 150, "ms")

            # 50 members changing their own lists at once: as people do (a change, then a moment to
            # look at it), and back to back (the server saturated: reported, no target)
            paced = changes(server, folder, sessions, writers, args.changes, think=args.think)
            ok &= check(f"a change, p95 of {len(paced)}, {writers} members at once (ms)", p95(paced) * 1000, 100, "ms")
            flat = changes(server, folder, sessions, writers, args.changes, think=0.0)
            print(f"  (back to back, no pause: p95 {p95(flat) * 1000:.1f} ms: the server saturated; no target)")

            # every member opens their lists page once: the server's memory
            for cookie, _ in sessions[1:]:
                assert server.get("/", {"Cookie": cookie}).status == 200
            peak = rss_peak(server.proc.pid)
            ok &= check(f"server memory, {members} x {lists} lists (peak RSS, MB)", peak, 300, "MB")
        finally:
            server.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
