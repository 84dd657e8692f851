"""Edits of a long list cost what reading it costs (issue 19, finding 8).

Target: each whole-process edit of a list of 200,000 entries (`add`, `remove`, `set`) costs at
most 2x `listbuilder validate` of the same file, and so does a change posted to `listbuilder serve`
(the server's own CPU seconds for the request, against validate's whole process); and, in one
process on a list of 10,000 entries, each kind of change (`apply_change`: one more of an entry, a
unit of another faction, one model removed, every entry of a unit removed, a key set) and a
builder's change with its undo step (`change_list`) costs at most 2x reading and judging the list
(`check_list`). Figures are
medians of CPU seconds (the machine is shared: wall time mostly measures the other users), every
command timed interleaved with validate in the same run. Before this work `add` took 23 s there,
about ten times validate.

Run: python benchmarks/bench_edit.py [--runs N] [--entries N] [--in-process-entries N]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from common import check, interleaved, listbuilder_command, precompile, report_line, timed

NAMES = ("Windblade", "Elf Archer", "Wind Hawk", "Forest Cat", "Gale Sniper", "Bladedancer", "Duelist")


def write_list(path: Path, entries: int) -> Path:
    """A might-skirmish list of ``entries`` one-line entries (200,000 of them are 3.6 MB, under the limit)."""
    lines = "".join(f"  - unit: {NAMES[i % 7]}\n" for i in range(entries))
    path.write_text(f"system: might-skirmish\nname: Big\npoints: 100\nunits:\n{lines}", encoding="utf-8")
    return path


def commands(path: Path) -> dict[str, list[str]]:
    lb = listbuilder_command()
    return {
        "validate": [*lb, "validate", str(path)],
        "add (one more of an entry)": [*lb, "add", str(path), "Duelist"],
        "remove --count 1": [*lb, "remove", str(path), "Wind Hawk", "--count", "1"],
        "set points": [*lb, "set", str(path), "points", "150"],
    }


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux: /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def web_changes(folder: Path, runs: int) -> list[float]:
    """The server's CPU seconds for each of ``runs`` posted changes (add one Duelist)."""
    import http.client

    proc = subprocess.Popen(
        [*listbuilder_command(), "serve", str(folder), "--port", "0", "--no-open"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        found = None
        while found is None:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("listbuilder serve did not start")
            found = re.search(r"at http://([0-9.]+):(\d+)/", line)
        host, port = found.group(1), int(found.group(2))

        def request(method: str, path: str, body: bytes | None = None) -> tuple[int, str]:
            conn = http.client.HTTPConnection(host, port, timeout=600)
            headers = {"Host": f"{host}:{port}"}
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=headers)
            res = conn.getresponse()
            text = res.read().decode()
            conn.close()
            return res.status, text

        token = re.search(r'name="token" value="([^"]+)"', request("GET", "/")[1])
        assert token is not None
        body = urlencode({"token": token.group(1), "change": "add", "unit": "Duelist"}).encode()
        request("POST", "/list/big.yaml/change", body)  # warm: the rule set loaded, as in any server
        times = []
        for _ in range(runs):
            before = server_cpu(proc.pid)
            status, _ = request("POST", "/list/big.yaml/change", body)
            assert status == 303, status
            time.sleep(0.2)  # let the worker thread finish its bookkeeping before reading the clock
            times.append(server_cpu(proc.pid) - before)
        return times
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def in_process(folder: Path, entries: int, runs: int) -> bool:
    """Each change in this process against ``check_list`` of the same list, in CPU seconds."""
    import shutil

    from listbuilder.api import editing, folders, lists, rulesets

    big = write_list(folder / "source.yaml", entries)
    path = folder / "big.yaml"
    catalogs = rulesets.open_catalogs(None)
    lists.check_list(big, catalogs)  # the rule set loaded, as in any process
    changes = {
        "add (one more of an entry)": editing.AddUnit(unit="Duelist"),
        "add (a unit of another faction)": editing.AddUnit(unit="Hunter"),
        "remove one model": editing.RemoveUnit(unit="Wind Hawk", count=1),
        "remove every entry of a unit": editing.RemoveUnit(unit="Forest Cat"),
        "set points": editing.SetField(key="points", value=150),
    }
    print(f"in one process, a list of {entries:,} entries")
    ok = True
    for name, change in changes.items():
        reads, edits = [], []
        for _ in range(runs):
            shutil.copy(big, path)
            reads += timed(lambda: lists.check_list(path, catalogs), 1)
            edits += timed(lambda c=change: editing.apply_change(path, catalogs, c), 1)
        ok &= check(f"{name} / check_list", statistics.median(edits) / statistics.median(reads), 2.0)
    shutil.copy(big, path)
    reads, edits = [], []
    for _ in range(runs):
        reads += timed(lambda: lists.check_list(path, catalogs), 1)
        edits += timed(lambda: folders.change_list(folder, "big.yaml", catalogs, editing.AddUnit(unit="Duelist")), 1)
    ok &= check("builder change / check_list", statistics.median(edits) / statistics.median(reads), 2.0)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command (default 5)")
    parser.add_argument("--entries", type=int, default=200_000, help="entries of the list (default 200,000)")
    parser.add_argument("--in-process-entries", type=int, default=10_000, help="entries of the in-process list")
    args = parser.parse_args()
    precompile()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        path = write_list(Path(tmp) / "big.yaml", args.entries)
        print(f"a list of {args.entries:,} entries, {path.stat().st_size / 1e6:.1f} MB")
        cpu: dict[str, list[float]] = {}
        interleaved(commands(path), args.runs, warmup=1, ok_codes=(0, 1), cpu=cpu)  # the list is over its limit
        base = statistics.median(cpu["validate"])
        for name, values in cpu.items():
            print(report_line(f"{name} (CPU)", values))
        for name, values in cpu.items():
            if name != "validate":
                ok &= check(f"{name} / validate", statistics.median(values) / base, 2.0)
        web = web_changes(Path(tmp), args.runs)
        print(report_line("web change (server CPU)", web))
        ok &= check("web change / validate", statistics.median(web) / base, 2.0)
    with tempfile.TemporaryDirectory() as tmp:
        ok &= in_process(Path(tmp), args.in_process_entries, args.runs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
