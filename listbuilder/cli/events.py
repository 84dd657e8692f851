"""The event commands: event new, set, late, show, export and pack (docs/events.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.commands import app, reflow
from listbuilder.cli.options import CatalogsOption, JsonOption, OutputOption, PaperOption
from listbuilder.cli.output import fail, say, to_json
from listbuilder.errors import InputError, ListbuilderError

event_app = typer.Typer(
    name="event",
    help=reflow(
        """A club's events: players submit lists, the server checks them, locks them at the deadline
        and reveals them together.

        Example: listbuilder event new tuesday-club "Winter League" --system might-skirmish --points 100
        --deadline 2026-12-20T18:00
        """
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(event_app)

ClubArgument = Annotated[Path, typer.Argument(help="The club's folder.", show_default=False)]
EventArgument = Annotated[str, typer.Argument(help="The event's id (event new prints it).", show_default=False)]
TimeHelp = "an ISO 8601 time, e.g. 2026-12-20T18:00 (in the club's time zone) or 2026-12-20T18:00+00:00"


@event_app.command(
    "new",
    help=reflow(
        """Make an event of the club; its id is the last line printed.

    Example: listbuilder event new tuesday-club "Winter League" --system might-skirmish --points 100
    --deadline 2026-12-20T18:00 --timezone Europe/London
    """
    ),
)
def new(
    club: ClubArgument,
    name: Annotated[str, typer.Argument(help="The event's name.", show_default=False)],
    system: Annotated[str, typer.Option("--system", help="The rule set the event is played with.", show_default=False)],
    deadline: Annotated[str, typer.Option("--deadline", help=f"When lists close: {TimeHelp}.", show_default=False)],
    points: Annotated[int | None, typer.Option("--points", help="The size in points.", show_default=False)] = None,
    figures: Annotated[
        int | None, typer.Option("--figures", help="The size in figures, for rule sets counted so.", show_default=False)
    ] = None,
    reveal: Annotated[
        str | None,
        typer.Option("--reveal", help="When lists are revealed (default: the deadline).", show_default=False),
    ] = None,
    timezone: Annotated[
        str | None,
        typer.Option("--timezone", help="The club's time zone, e.g. Europe/London (default: UTC).", show_default=False),
    ] = None,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    from listbuilder.api import events, rulesets

    try:
        if (points is None) == (figures is None):
            raise InputError.detailed(
                "give the event's size in points or in figures"
                if points is None
                else "give points or figures, not both",
                "--points N, or --figures N for a rule set counted in figures",
            )
        made = events.make_event(
            club,
            rulesets.open_catalogs(catalogs),
            name=name,
            system=system,
            size=points if points is not None else figures or 0,
            unit="points" if points is not None else "figures",
            deadline=deadline,
            reveal=reveal,
            zone=timezone,
        )
    except ListbuilderError as exc:
        fail(exc)
    if as_json:
        say(to_json(made.as_json()))
        return
    say(f"{made.name}: {made.system}, {made.size:,} {made.unit}")
    say(f"lists close {made.shown(made.deadline)}; revealed {made.shown(made.reveal)}")
    say(made.id)


@event_app.command(
    "set",
    help=reflow(
        """Move an event's deadline or reveal.

    Example: listbuilder event set tuesday-club winter-league --deadline 2026-12-21T18:00
    """
    ),
)
def move(
    club: ClubArgument,
    event: EventArgument,
    deadline: Annotated[str | None, typer.Option("--deadline", help=f"The new deadline: {TimeHelp}.")] = None,
    reveal: Annotated[str | None, typer.Option("--reveal", help="The new reveal.")] = None,
) -> None:
    from listbuilder.api import events

    try:
        moved = events.move_event(club, event, deadline=deadline, reveal=reveal)
    except ListbuilderError as exc:
        fail(exc)
    say(f"{moved.name}: lists close {moved.shown(moved.deadline)}; revealed {moved.shown(moved.reveal)}")


@event_app.command(
    "late",
    help=reflow(
        """Accept a late list: let MEMBER submit after the deadline (the list is marked late).

    Example: listbuilder event late tuesday-club winter-league "Ana"
    """
    ),
)
def late(
    club: ClubArgument,
    event: EventArgument,
    member: Annotated[str, typer.Argument(help="The member's name.", show_default=False)],
) -> None:
    from listbuilder.api import events

    try:
        chosen = events.accept_late(club, event, member)
    except ListbuilderError as exc:
        fail(exc)
    say(f"{member} may submit a late list to {chosen.name}; it will be marked late")


@event_app.command(
    "show",
    help=reflow(
        """Show an event: every member, whether they submitted, when, late or not, legal or not, and
    what changed since their previous submission.

    Example: listbuilder event show tuesday-club winter-league --json
    """
    ),
)
def show(club: ClubArgument, event: EventArgument, as_json: JsonOption = False) -> None:
    from listbuilder.api import events

    try:
        view = events.event_view(club, event, None)
    except ListbuilderError as exc:
        fail(exc)
    if as_json:
        say(to_json(view.as_json()))
        return
    e = view.event
    say(f"{e.name} ({e.id}): {e.system}, {e.size:,} {e.unit}")
    say(f"lists close {view.deadline}{' (closed)' if view.closed else ''}; revealed {view.reveal}")
    for s in view.standings:
        if s.latest is None:
            say(f"  {s.member.name}: no list")
            continue
        got = s.latest
        again = f", resubmitted {s.resubmitted}x" if s.resubmitted else ""
        say(
            f"  {s.member.name}: {got.name}, {got.total:,}/{e.size:,} {e.unit}, {got.verdict.upper()}"
            f"{' (late)' if got.late else ''}, {e.shown(got.at)}{again}"
        )
        for p in got.problems:
            say(f"      {p}")
        if got.number > 1:
            say("      changed since the previous list: " + "; ".join(got.changes))


@event_app.command(
    "export",
    help=reflow(
        """The submitted lists as CSV or JSON for pairing tools: player, list, total, legal, problems,
    submitted at.

    Example: listbuilder event export tuesday-club winter-league --format csv -o winter.csv
    """
    ),
)
def export(
    club: ClubArgument,
    event: EventArgument,
    format: Annotated[str, typer.Option("--format", help="csv or json.")] = "csv",
    output: OutputOption = None,
) -> None:
    from listbuilder.api import events, files

    try:
        text = events.export_event(club, event, format, None, newline="\r\n" if output else "\n")
        if output is not None:
            files.write_file(output, text.encode("utf-8"), inputs=[club])
    except ListbuilderError as exc:
        fail(exc)
    if output is None:
        say(text, nl=False)
    else:
        say(f"wrote {output}")


@event_app.command(
    "pack",
    help=reflow(
        """Print an event's pack: a cover with the table of players, totals and verdicts, each
    submitted list's roster, then one reference sheet.

    Example: listbuilder event pack tuesday-club winter-league -o pack.pdf
    """
    ),
)
def pack(
    club: ClubArgument,
    event: EventArgument,
    output: OutputOption = None,
    paper: PaperOption = "a4",
    catalogs: CatalogsOption = None,
) -> None:
    from listbuilder.api import events, rulesets

    target = output or Path(f"{event}-pack.pdf")
    bar = _Progress() if sys.stderr.isatty() else None
    try:
        events.pack_file(
            club, rulesets.open_catalogs(catalogs), event, target, paper=paper, done=None if bar is None else bar.step
        )
    except ListbuilderError as exc:
        fail(exc)
    finally:
        if bar is not None:
            bar.close()
    say(f"wrote {target}")


class _Progress:
    """A progress bar on the terminal while a pack is laid out, part by part."""

    def __init__(self) -> None:
        self.bar: typer.progressbar | None = None  # type: ignore[valid-type]

    def step(self, done: int, parts: int) -> None:
        if self.bar is None:
            self.bar = typer.progressbar(length=parts, label="laying out the pack", file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
