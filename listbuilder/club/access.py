"""Who may do what in a club: the one function every page asks (``allowed``), as datasette's
``permission_allowed``; no template and no route decides on its own.

- a **player** builds, prints, shares and plays their own lists, and reads the lists shared
  with the club;
- an **organiser** does what a player does, reads every member's lists (never changes them),
  invites and revokes members and reads the activity log;
- a **viewer** reads the lists shared with the club, and changes nothing.
"""

from __future__ import annotations

from listbuilder.club.store import Member

# What a member may ask to do: change their own lists; read a list (their own, another's);
# see the members, invite and revoke them, read the log.
CHANGE = "change"
READ = "read"
ORGANISE = "organise"
VERBS = (CHANGE, READ, ORGANISE)


def allowed(actor: Member, verb: str, owner: Member | None = None, *, shared: bool = False) -> bool:
    """Whether ``actor`` may ``verb`` the lists of ``owner`` (``shared``: the list in question is
    shared with the club). A revoked member may do nothing."""
    if actor.revoked is not None:
        return False
    mine = owner is not None and owner.id == actor.id
    if verb == CHANGE:
        return mine and actor.role != "viewer"
    if verb == READ:
        if owner is None or owner.revoked is not None:
            return False
        return mine or shared or actor.role == "organiser"
    if verb == ORGANISE:
        return actor.role == "organiser"
    return False
