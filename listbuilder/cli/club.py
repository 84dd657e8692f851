"""The club commands: club new, club invite, club members, club revoke (club mode: docs/club.md)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from listbuilder.cli.commands import app, reflow
from listbuilder.cli.options import JsonOption
from listbuilder.cli.output import fail, say, to_json
from listbuilder.errors import ListbuilderError

if TYPE_CHECKING:
    from listbuilder.api.club import Invited

club_app = typer.Typer(
    name="club",
    help=reflow(
        """Club mode: one server for a whole club, each member with their own lists.

        Make a club folder, invite members (each gets a sign-in link), then serve the folder.

        Example: listbuilder club new tuesday-club --name "Tuesday Night Club"
        """
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
app.add_typer(club_app)

FolderArgument = Annotated[Path, typer.Argument(help="The club's folder.", show_default=False)]
QrOption = Annotated[bool, typer.Option("--qr", help="Show the sign-in link as a QR code too, for a phone.")]
ExpiresOption = Annotated[
    float, typer.Option("--expires", help="Days until the sign-in link expires (it works once).", min=0)
]


def _said(invited: Invited, qr: bool, as_json: bool) -> None:
    """Say who was invited; the sign-in link is the last line (a script takes it with tail -n 1)."""
    from listbuilder.api import club

    if as_json:
        say(to_json(invited.as_json()))
        return
    m = invited.member
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(invited.expires))
    if invited.new:
        say(f"{invited.club}: {m.name} joins as {m.role}; their lists go in members/{m.folder}/")
    else:
        say(f"{invited.club}: a new sign-in link for {m.name} ({m.role})")
    say(f"the link below signs one browser in, once, until {when}; send it to {m.name} only")
    if qr:
        say(club.qr_text(invited.link), nl=False)
    say(invited.link)


@club_app.command(
    "new",
    help=reflow(
        """Make FOLDER a club: its database, its first organiser and their sign-in link (the last line).

    A folder that already holds list files is refused unless --owner names the member they belong to.

    Example: listbuilder club new tuesday-club --name "Tuesday Night Club" --url http://192.168.1.20:8000
    """
    ),
)
def new(
    folder: FolderArgument,
    name: Annotated[str, typer.Option("--name", help="The club's name, as its pages show it.")] = "",
    url: Annotated[
        str, typer.Option("--url", help="The address members open (sign-in links start with it).")
    ] = "http://127.0.0.1:8000",
    organiser: Annotated[str, typer.Option("--organiser", help="The first organiser's name.")] = "Organiser",
    owner: Annotated[
        str | None,
        typer.Option("--owner", help="The member whose lists the folder's list files become.", show_default=False),
    ] = None,
    expires: ExpiresOption = 7,
    qr: QrOption = False,
    as_json: JsonOption = False,
) -> None:
    from listbuilder.api import club

    try:
        invited = club.new_club(folder, name, organiser, url=url, owner=owner, days=expires)
    except ListbuilderError as exc:
        fail(exc)
    _said(invited, qr, as_json)


@club_app.command(
    "invite",
    help=reflow(
        """Invite NAME to the club, or make a new sign-in link for a member (another device, or back after
    revoke); the link is the last line.

    Example: listbuilder club invite tuesday-club "Ben" --role organiser
    """
    ),
)
def invite(
    folder: FolderArgument,
    name: Annotated[str, typer.Argument(help="The member's name.", show_default=False)],
    role: Annotated[str, typer.Option("--role", help="player, organiser or viewer.")] = "player",
    expires: ExpiresOption = 7,
    qr: QrOption = False,
    as_json: JsonOption = False,
) -> None:
    from listbuilder.api import club

    try:
        invited = club.invite(folder, name, role, days=expires)
    except ListbuilderError as exc:
        fail(exc)
    _said(invited, qr, as_json)


@club_app.command(
    "members",
    help=reflow(
        """List the club's members: name, role, folder, devices signed in.

    Example: listbuilder club members tuesday-club --json
    """
    ),
)
def members(folder: FolderArgument, as_json: JsonOption = False) -> None:
    from listbuilder.api import club

    try:
        found = club.club_members(folder)
    except ListbuilderError as exc:
        fail(exc)
    if as_json:
        say(to_json([m.as_json() for m in found]))
        return
    for m in found:
        state = "revoked" if m.revoked is not None else f"{m.sessions} device{'s' if m.sessions != 1 else ''}"
        say(f"{m.name}\t{m.role}\tmembers/{m.folder}/\t{state}")


@club_app.command(
    "revoke",
    help=reflow(
        """Sign NAME out on every device and end their unused links; their lists stay.

    Example: listbuilder club revoke tuesday-club "Ana"
    """
    ),
)
def revoke(
    folder: FolderArgument,
    name: Annotated[str, typer.Argument(help="The member's name.", show_default=False)],
    as_json: JsonOption = False,
) -> None:
    from listbuilder.api import club

    try:
        revoked = club.revoke(folder, name)
    except ListbuilderError as exc:
        fail(exc)
    if as_json:
        say(to_json(revoked.as_json()))
        return
    n = revoked.devices
    say(f"{revoked.member.name} is signed out on {n} device{'s' if n != 1 else ''}; their lists stay")
