"""Speed of a club's events (issue 33), in process (CPU seconds: the machine is shared).

Targets:
  * the organiser's view of an event with 200 submissions (every member, their latest list, its
    verdict and problems, what changed): at most 300 ms;
  * the pack grows linearly with the lists: a pack of 64 lists at most 1.2x 64 times the time of
    one list's roster printed alone (both PDF, measured in the same run).
Also printed: the time of one submission (read, judged, snapshot written, committed).

Run: python benchmarks/bench_events.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from common import ROOT, as_a_listbuilder_process, check, precompile, report_line, timed

LISTS = (
    ROOT / "examples" / "might-skirmish-zombie-family.legal.yaml",
    ROOT / "examples" / "might-skirmish-windblade-elves.legal.yaml",
    ROOT / "examples" / "might-skirmish-monster-mash.illegal.yaml",
)


def club_with_submissions(folder: Path, members: int) -> tuple[object, str]:
    """A club of ``members`` players, each of whom submitted one of the example lists (a third of
    them twice, so the view has changes to show)."""
    from listbuilder.api import club, events, rulesets

    catalogs = rulesets.open_catalogs(None)
    club.new_club(folder, "Bench", "Olga")
    store = club.open_store(folder)
    made = events.make_event(
        folder,
        catalogs,
        name="Big Event",
        system="might-skirmish",
        size=100,
        unit="points",
        deadline="2099-01-01T00:00",
    )
    for i in range(members):
        member = store.add_member(f"Player {i:03d}", f"player-{i:03d}", "player")
        home = club.member_folder(folder, member)
        (home / "mine.yaml").write_bytes(LISTS[i % 3].read_bytes())
        events.submit_list(folder, catalogs, made.id, member, "mine.yaml")
        if i % 3 == 0:
            (home / "mine.yaml").write_bytes(LISTS[(i + 1) % 3].read_bytes())
            events.submit_list(folder, catalogs, made.id, member, "mine.yaml")
    return store.member("Olga"), made.id


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    precompile()
    as_a_listbuilder_process()
    from listbuilder.api import events, lists, printing, rulesets

    catalogs = rulesets.open_catalogs(None)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "club"
        organiser, event_id = club_with_submissions(folder, 200)

        view = timed(lambda: events.event_view(folder, event_id, organiser), args.runs)  # type: ignore[arg-type]
        print(report_line("organiser's view, 200 submissions", view))
        ok &= check("organiser's view, 200 submissions", statistics.median(view) * 1000, 300, "ms")
        export = timed(lambda: events.export_event(folder, event_id, "csv", None), args.runs)
        print(report_line("CSV export, 200 submissions", export))

        small = Path(tmp) / "small"
        _, small_id = club_with_submissions(small, 64)
        report = lists.check_list(LISTS[0], catalogs)
        printing.render_reports([report], format="pdf", only="roster")  # warm: fonts, stylesheet
        one = timed(lambda: printing.render_reports([report], format="pdf", only="roster"), max(3, args.runs // 2))
        print(report_line("one roster, PDF", one))
        pack = timed(lambda: events.pack_document(small, catalogs, small_id, None), 3)
        print(report_line("pack of 64 lists, PDF", pack))
        ratio = statistics.median(pack) / (64 * statistics.median(one))
        ok &= check("pack of 64 / (64 x one roster)", ratio, 1.2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
