"""A club's own pages: signing in (by link or passphrase) and out, a member's page (devices,
passphrase, upload, download), sharing a list with the club, and the club's page (shared lists;
for an organiser, the members, invitations, revocations and the activity log).

Every page asks ``club.allowed`` what the member may do; the gate (``web/gate.py``) has already
made the request a member's visit, or let it through signed out to the sign-in pages only.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from listbuilder.api import club, folders
from listbuilder.errors import InputError, ListbuilderError
from listbuilder.web.gate import Club, session_cookie
from listbuilder.web.security import MAX_BODY, token_matches
from listbuilder.web.site import (
    Endpoint,
    Refused,
    Site,
    attachment,
    blocking,
    error_message,
    form_of,
    one,
    redirect,
    unreadable,
)

MAX_UPLOADS = 20  # list files one upload form may carry


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _retry(gate: Club, keys: list[tuple[str, int]]) -> float | None:
    """When the first of ``keys`` that is locked out may try again, or ``None``."""
    found = [at for key, limit in keys if (at := gate.attempts.retry_at(key, limit)) is not None]
    return max(found) if found else None


def _locked(site: Site, request: Request, at: float, template: str, **context: Any) -> Response:
    wait = max(1, int(at - time.time()))
    when = time.strftime("%H:%M:%S UTC", time.gmtime(at))
    message = f"Too many attempts to sign in. Try again at {when} (in {(wait + 59) // 60} min)."
    page = site.page(template, request, 429, title="Sign in", error=message, **context)
    page.headers["retry-after"] = str(wait)
    return page


def _local(page: str) -> bool:
    """Whether ``page`` is an address on this server (``/...``, never ``//host`` or ``/\\host``,
    which a browser takes to another site)."""
    return page.startswith("/") and not page.startswith(("//", "/\\")) and "\\" not in page


def _signed_in(request: Request, session: str, member: club.Member, next_page: str = "/") -> Response:
    target = next_page if _local(next_page) else "/"
    if member.role == "viewer" and target == "/":
        target = "/club"
    answer = RedirectResponse(target, status_code=303)
    answer.headers.append("set-cookie", session_cookie(request.scope, session))
    return answer


async def _plain_form(request: Request) -> Mapping[str, str]:
    form = await request.form(max_files=0, max_fields=20, max_part_size=MAX_BODY)
    return {k: v for k, v in form.items() if isinstance(v, str)}


def _device(request: Request) -> str:
    """What to call a browser on the member's page: its browser and system, from its User-Agent."""
    agent = request.headers.get("user-agent", "")
    browser = next((b for b in ("Firefox", "Edg", "Chrome", "Safari") if b in agent), "a browser")
    system = next(
        (s for s in ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux") if s in agent), "an unknown system"
    )
    return f"{'Edge' if browser == 'Edg' else browser} on {'macOS' if system == 'Mac OS' else system}"


def sign_in_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        context: dict[str, Any] = {"next": request.query_params.get("next", "/"), "who": ""}
        if request.method == "GET":
            return site.page("sign_in.html", request, title="Sign in", **context)
        form = await _plain_form(request)
        name = form.get("name", "")[:200]
        context = {"next": form.get("next", "/"), "who": name}
        address, who = f"address:{_address(request)}", f"member:{' '.join(name.split()).lower()}"
        locked = _retry(gate, [(address, club.PER_ADDRESS), (who, club.PER_MEMBER)])
        if locked is not None:
            return _locked(site, request, locked, "sign_in.html", **context)
        member = await blocking(club.check_passphrase, gate.store, name, form.get("passphrase", ""))
        if member is None:
            gate.attempts.failed(address)
            gate.attempts.failed(who)
            message = "That name and passphrase do not match a member. A sign-in link from the organiser always works."
            return site.page("sign_in.html", request, 401, title="Sign in", error=message, **context)
        session = await blocking(gate.store.sign_in, member, _device(request), "a passphrase")
        return _signed_in(request, session, member, context["next"])

    return handler


def join(site: Site, gate: Club) -> Endpoint:
    """A sign-in link: its page asks for a click (a chat app that fetches a link to preview it
    must not use it up), and the click signs the browser in."""

    async def handler(request: Request) -> Response:
        secret = request.path_params["secret"]
        if request.method == "GET":
            return site.page("join.html", request, title="Sign in", secret=secret, used=False)
        address = f"address:{_address(request)}"
        locked = _retry(gate, [(address, club.PER_ADDRESS)])
        if locked is not None:
            return _locked(site, request, locked, "join.html", secret=secret, used=False)
        used = await blocking(gate.store.use_link, secret, _device(request))
        if used is None:
            gate.attempts.failed(address)
            message = (
                "This sign-in link does not work: it was used already, it expired, or it was ended. "
                "Ask the club's organiser for a new one."
            )
            return site.page("join.html", request, 403, title="Sign in", secret=secret, error=message, used=True)
        member, session = used
        return _signed_in(request, session, member)

    return handler


def member_of(site: Site) -> club.Member:
    """The signed-in member of this request (every club page but sign-in has one)."""
    member = site.visit.member
    if member is None:  # the gate lets no signed-out request here
        raise Refused(403, "Sign in first.")
    assert isinstance(member, club.Member)
    return member


def sign_out(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await _token_form(request, site)
        member = member_of(site)
        which = one(fields, "which", "this") or "this"
        this = str(site.visit.club.get("session", ""))
        if which == "all":
            await blocking(gate.store.sign_out, member, None)
        else:
            await blocking(gate.store.sign_out, member, this if which == "this" else which)
            if which != "this" and which != this:
                return redirect("/me", "Signed that device out")
        answer = RedirectResponse("/sign-in", status_code=303)
        answer.headers.append("set-cookie", session_cookie(request.scope, None))
        return answer

    return handler


async def _token_form(request: Request, site: Site) -> Mapping[str, list[str]]:
    """A posted form with this visit's token, allowed for a viewer too (signing out, a
    passphrase, an organiser's invitation: the member's own, not the lists')."""
    return await form_of(request, site, lists=False)


def _me_context(site: Site, gate: Club) -> dict[str, Any]:
    member = member_of(site)
    devices = gate.store.sessions_of(member)
    found = folders.folder_lists(site.folder, site.catalogs) if member.role != "viewer" else []
    shared = {f for m, f in gate.store.shared() if m.id == member.id}
    return {
        "title": member.name,
        "devices": devices,
        "this_device": site.visit.club.get("session", ""),
        "lists": found,
        "shared": shared,
        "min_passphrase": club.MIN_PASSPHRASE,
        "when": _when,
    }


def _when(at: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


def me_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        return site.page("me.html", request, **await blocking(_me_context, site, gate))

    return handler


def set_passphrase(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await _token_form(request, site)
        member = member_of(site)
        given = one(fields, "passphrase", "") or ""
        if given != (one(fields, "again", "") or ""):
            context = await blocking(_me_context, site, gate)
            return site.page(
                "me.html", request, 400, error="The two passphrases differ: type it twice alike.", **context
            )
        try:
            await blocking(club.set_passphrase, gate.store, member, given)
        except ListbuilderError as exc:
            context = await blocking(_me_context, site, gate)
            return site.page("me.html", request, 400, error=error_message(exc), **context)
        return redirect("/me", "Passphrase set" if given else "Passphrase removed")

    return handler


def download(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        member = member_of(site)
        data = await blocking(club.lists_zip, site.folder, member.folder)
        return attachment(data, "application/zip", f"{member.folder}-lists.zip")

    return handler


def upload(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        form = await request.form(max_files=MAX_UPLOADS, max_fields=10, max_part_size=MAX_BODY)
        if not token_matches(form.get("token"), site.token):
            raise Refused(403, "This change did not come from a page of this server (its token is missing or old).")
        if site.read_only:
            raise Refused(403, "A viewer changes nothing.")
        member = member_of(site)
        made, errors = [], []
        for _, value in form.multi_items():
            if isinstance(value, str) or not value.filename:
                continue
            name = value.filename.replace("\\", "/").rsplit("/", 1)[-1][:150] or "upload.yaml"
            data = await value.read()
            try:
                made.append(await blocking(club.upload_list, site.folder, site.catalogs, name, data))
            except ListbuilderError as exc:
                errors.append(f"{name}: {error_message(exc)}")
        if not made and not errors:
            errors.append("Choose a list file to upload.")
        if made:
            await blocking(gate.store.note, member, f"uploaded {', '.join(made)}")
        if errors:
            context = await blocking(_me_context, site, gate)
            done = f"Uploaded {', '.join(made)}. " if made else ""
            return site.page("me.html", request, 400, error=done + " ".join(errors), **context)
        return redirect("/", f"Uploaded {', '.join(made)}")

    return handler


def share_with_club(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await form_of(request, site)  # a viewer changes nothing: refused there
        member = member_of(site)
        file = request.path_params["file"]
        shared = one(fields, "shared", "1") == "1"
        try:
            await blocking(folders.list_state, site.folder, file, site.catalogs)  # a list of theirs, or 404
        except ListbuilderError as exc:
            return unreadable(site, request, exc)
        await blocking(gate.store.share, member, file, shared)
        back = one(fields, "back", "/me") or "/me"
        back = back if _local(back) else "/me"
        return redirect(
            back,
            f"{'Shared' if shared else 'Stopped sharing'} {file}",
        )

    return handler


def _club_context(site: Site, gate: Club, invited: club.Invited | None = None) -> dict[str, Any]:
    member = member_of(site)
    organiser = club.allowed(member, "organise")
    shared = [
        {"owner": m, "file": f, "href": f"/m/{quote(m.folder)}/list/{quote(f)}", "mine": m.id == member.id}
        for m, f in gate.store.shared()
    ]
    return {
        "title": gate.name,
        "shared": shared,
        "organiser": organiser,
        "members": gate.store.members() if organiser else [],
        "their_lists": {m.id: club.member_lists(gate.folder, m) for m in gate.store.members()} if organiser else {},
        "log": gate.store.log(100) if organiser else [],
        "invited": invited,
        "roles": ("player", "organiser", "viewer"),
        "when": _when,
    }


def club_page(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        return site.page("club.html", request, **await blocking(_club_context, site, gate))

    return handler


def organiser_of(site: Site, refusal: str = "Only an organiser invites and revokes members.") -> club.Member:
    """The signed-in member of this request, if an organiser; ``refusal`` (403) otherwise."""
    member = member_of(site)
    if not club.allowed(member, "organise"):
        raise Refused(403, refusal)
    return member


def invite(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await _token_form(request, site)
        by = organiser_of(site)
        try:
            invited = await blocking(
                club.invite, gate.folder, one(fields, "name", "") or "", one(fields, "role", "player") or "", by=by
            )
        except ListbuilderError as exc:
            context = await blocking(_club_context, site, gate)
            return site.page("club.html", request, 400, error=error_message(exc), **context)
        # The link is shown on this answer once (never in a redirect's address, nor stored).
        context = await blocking(_club_context, site, gate, invited)
        return site.page("club.html", request, **context)

    return handler


def revoke(site: Site, gate: Club) -> Endpoint:
    async def handler(request: Request) -> Response:
        fields = await _token_form(request, site)
        by = organiser_of(site)
        name = one(fields, "name", "") or ""
        if name.lower() == by.name.lower():
            raise Refused(400, "An organiser cannot revoke themself here: sign out instead.")
        try:
            revoked = await blocking(club.revoke, gate.folder, name, by=by)
        except InputError as exc:
            context = await blocking(_club_context, site, gate)
            return site.page("club.html", request, 400, error=error_message(exc), **context)
        return redirect("/club", f"{revoked.member.name} is signed out everywhere; their lists stay")

    return handler
