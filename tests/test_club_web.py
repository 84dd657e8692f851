"""Club mode through real HTTP, a cookie per member (issue 32's Proof): the gate, the roles,
nobody else's lists, links used or expired, revocation, sign-out, passphrases and their limits,
upload and download, sharing and comparing, and a server killed mid-change.
"""

from __future__ import annotations

import io
import re
import signal
import sqlite3
import threading
import time
import zipfile
from pathlib import Path

import pytest
from clubhelp import Member, make_club, signed_in
from webserver import start

from listbuilder.api import club
from listbuilder.club.tokens import hashed
from listbuilder.web import create_app

MEMBERS = {"Ana": "player", "Ben": "player", "Vic": "viewer"}
LISTS = {
    "Ana": ["might-skirmish-zombie-family.legal", "deathzap-frontier-rangers.legal"],
    "Ben": ["might-skirmish-windblade-elves.legal"],
}
ANA_LIST = "might-skirmish-zombie-family.yaml"
BEN_LIST = "might-skirmish-windblade-elves.yaml"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = make_club(tmp_path_factory.mktemp("club"), MEMBERS, LISTS)
    server = start(folder)
    yield server, folder
    server.stop()


def _paths_with_file(file: str) -> tuple[list[str], list[str]]:
    """Every route of the app that names a list, GETs and POSTs, with ``file`` in it."""
    app = create_app(Path("."))
    gets, posts = [], []
    for route in app.routes:
        path = getattr(route, "path", "")
        if "{file}" not in path:
            continue
        url = path.replace("{file}", file).replace("{format}", "text")
        (posts if "POST" in (route.methods or ()) and "GET" not in (route.methods or ()) else gets).append(url)
    return gets, posts


def _same_404(a, b, name_a: str, name_b: str) -> None:
    assert a.status == b.status == 404, (a.status, b.status)
    assert a.text.replace(name_a, "X") == b.text.replace(name_b, "X")


def test_signed_out_a_page_goes_to_sign_in_and_every_post_is_refused(served):
    server, _ = served
    nobody = Member(server)
    home = nobody.get("/")
    assert home.status == 303 and home.headers["location"] == "/sign-in"
    assert nobody.get(f"/list/{ANA_LIST}").headers["location"] == f"/sign-in?next=/list/{ANA_LIST}"
    assert nobody.get("/sign-in").status == 200
    assert nobody.get("/static/web.css").status == 200
    gets, posts = _paths_with_file(ANA_LIST)
    for path in [*posts, "/new", "/import", "/restore", "/sign-out", "/upload", "/club/invite", "/club/revoke"]:
        answer = nobody.post(path, {"token": "x"})
        assert answer.status == 403 and "Sign in first" in answer.text, path
    for path in gets:
        assert nobody.get(path).status == 303, path
    assert "listbuilder_session" not in server.get("/").headers.get("set-cookie", "")


def test_a_link_signs_in_once_with_a_fresh_session_and_safe_cookie(served):
    server, folder = served
    link = club.invite(folder, "Ana").link
    first = Member(server)
    answer = first.join(link)
    assert answer.status == 303 and answer.headers["location"] == "/"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP: a Secure cookie would never come back
    assert first.get("/").status == 200
    again = Member(server)
    used = again.join(link)
    assert used.status == 403 and "does not work" in used.text and not again.cookie
    assert again.get("/").status == 303
    second = signed_in(server, folder, "Ana")
    assert second.cookie != first.cookie  # a fresh session id at each sign-in


def test_an_expired_link_signs_nobody_in(served):
    server, folder = served
    link = club.invite(folder, "Ben").link
    db = sqlite3.connect(folder / ".listbuilder" / "club.sqlite")
    with db:
        db.execute("UPDATE links SET expires = ? WHERE hash = ?", (time.time() - 1, hashed(link.rsplit("/", 1)[1])))
    db.close()
    late = Member(server)
    assert late.join(link).status == 403 and not late.cookie


def test_a_players_every_route_with_another_members_list_answers_404(served):
    # Every route that names a list, asked by Ana with Ben's list's name, answers exactly as it
    # does when Ben has no such list: nothing tells her it is there.
    server, folder = served
    ana = signed_in(server, folder, "Ana")
    token = ana.token()
    gets, posts = _paths_with_file(BEN_LIST)
    fields = {"token": token, "change": "add", "unit": "Hunter", "shared": "1", "version": "0" * 16}
    bens = folder / "members" / "ben" / BEN_LIST
    kept = bens.read_bytes()

    def answers() -> list[tuple[int, str]]:
        said = [ana.get(p, {"Sec-Fetch-Site": "same-origin"}) for p in gets]
        said += [ana.post(p, fields, {"Sec-Fetch-Site": "same-origin"}) for p in posts]
        return [(a.status, a.text) for a in said]

    there = answers()
    bens.unlink()
    try:
        gone = answers()
    finally:
        bens.write_bytes(kept)
    assert there == gone
    assert there[gets.index(f"/list/{BEN_LIST}")][0] == 404
    assert bens.read_bytes() == kept
    # by the club's address of Ben's lists: not shared, so the same 404 as a member who is not there
    for sub in ("", "/share", "/print", "/export/text", "/compare"):
        _same_404(ana.get(f"/m/ben/list/{BEN_LIST}{sub}"), ana.get(f"/m/zed/list/x.yaml{sub}"), BEN_LIST, "x.yaml")
    _same_404(ana.get("/m/ben/list/nothing.yaml"), ana.get("/m/zed/list/nothing.yaml"), "", "")
    # and nothing changed
    assert (folder / "members" / "ben" / BEN_LIST).read_text() == (
        Path(__file__).parent.parent / "examples" / "might-skirmish-windblade-elves.legal.yaml"
    ).read_text()
    assert "Ben" not in ana.get("/club").text.replace("Bench", "")  # only organisers see the members


def test_a_shared_list_is_read_printed_and_compared_against(served):
    server, folder = served
    ana, ben = signed_in(server, folder, "Ana"), signed_in(server, folder, "Ben")
    shared = ben.post(f"/list/{BEN_LIST}/club-share", {"token": ben.token(), "shared": "1"})
    assert shared.status == 303
    page = ana.get(f"/m/ben/list/{BEN_LIST}")
    assert page.status == 200 and "Windblade Elves" in page.text
    assert f'href="/m/ben/list/{BEN_LIST}/share"' in page.text  # its links stay on Ben's list
    assert '<form method="post"' not in page.text.split("<main", 1)[1] or "/change" not in page.text
    assert ana.get(f"/m/ben/list/{BEN_LIST}/export/text").text.startswith("Windblade Elves")
    assert (
        ana.post(f"/m/ben/list/{BEN_LIST}/change", {"token": ana.token(), "change": "add", "unit": "Elf Archer"}).status
        == 404
    )
    assert f"/m/ben/list/{BEN_LIST}" in ana.get("/club").text
    compare = ana.get(f"/list/{ANA_LIST}/compare?with=@ben/{BEN_LIST}", {"Sec-Fetch-Site": "same-origin"})
    assert compare.status == 200 and "Windblade Elves" in compare.text
    assert f"@ben/{BEN_LIST}" in ana.get(f"/list/{ANA_LIST}/compare", {"Sec-Fetch-Site": "same-origin"}).text
    # no longer shared: the same 404 as any list that is not there
    ben.post(f"/list/{BEN_LIST}/club-share", {"token": ben.token(), "shared": "0"})
    _same_404(ana.get(f"/m/ben/list/{BEN_LIST}"), ana.get("/m/zed/list/x.yaml"), BEN_LIST, "x.yaml")
    unshared = ana.get(f"/list/{ANA_LIST}/compare?with=@ben/{BEN_LIST}", {"Sec-Fetch-Site": "same-origin"})
    missing = ana.get(f"/list/{ANA_LIST}/compare?with=@zed/{BEN_LIST}", {"Sec-Fetch-Site": "same-origin"})
    assert unshared.status == missing.status == 404 and unshared.text == missing.text.replace("@zed", "@ben")


def test_an_organiser_reads_every_list_and_changes_none(served):
    server, folder = served
    olga = signed_in(server, folder, "Olga")
    page = olga.get(f"/m/ana/list/{ANA_LIST}")
    assert page.status == 200 and "Zombie Family" in page.text and "read-only" in page.text
    assert (
        olga.post(f"/m/ana/list/{ANA_LIST}/change", {"token": olga.token(), "change": "add", "unit": "Hunter"}).status
        == 404
    )
    club_page = olga.get("/club").text
    assert "Ana" in club_page and "Activity" in club_page and f"/m/ana/list/{ANA_LIST}" in club_page
    invited = olga.post("/club/invite", {"token": olga.token(), "name": "Cyd", "role": "player"})
    assert invited.status == 200 and "/join/" in invited.text


def test_a_viewers_every_post_is_refused(served):
    server, folder = served
    vic = signed_in(server, folder, "Vic")
    token = vic.token()
    assert vic.get("/").status == 200
    _, posts = _paths_with_file(ANA_LIST)
    for path in [*posts, "/new", "/import", "/restore", "/club/invite", "/club/revoke"]:
        answer = vic.post(
            path, {"token": token, "change": "add", "unit": "Hunter", "name": "Ana", "system": "deathzap"}
        )
        assert answer.status in (403, 404), (path, answer.status)
    assert vic.post("/new", {"token": token, "system": "deathzap", "name": "X"}).status == 403
    assert list((folder / "members" / "vic").glob("*.yaml")) == []


def test_a_revoked_members_next_request_is_refused(served):
    server, folder = served
    cyd = signed_in(server, folder, "Dee")
    assert cyd.get("/").status == 200
    club.revoke(folder, "Dee")
    answer = cyd.get("/")
    assert answer.status == 303 and answer.headers["location"] == "/sign-in"
    assert "Max-Age=0" in answer.headers["set-cookie"]
    assert cyd.post("/new", {"token": "x", "system": "deathzap"}).status == 403


def test_sign_out_one_device_or_every_one(served):
    server, folder = served
    phone, laptop, tablet = (signed_in(server, folder, "Eve") for _ in range(3))
    out = phone.post("/sign-out", {"token": phone.token(), "which": "this"})
    assert out.status == 303 and "Max-Age=0" in out.headers["set-cookie"]
    assert phone.get("/").status == 303 and laptop.get("/").status == 200
    laptop.post("/sign-out", {"token": laptop.token(), "which": "all"})
    assert laptop.get("/").status == 303 and tablet.get("/").status == 303


def test_a_passphrase_signs_in_and_wrong_ones_are_limited(served):
    server, folder = served
    fay = signed_in(server, folder, "Fay")
    short = fay.post("/me/passphrase", {"token": fay.token(), "passphrase": "123456789", "again": "123456789"})
    assert short.status == 400 and "too short" in short.text  # 9 characters: one under the 10
    ok = fay.post("/me/passphrase", {"token": fay.token(), "passphrase": "correct horse", "again": "correct horse"})
    assert ok.status == 303
    digest = (
        sqlite3.connect(folder / ".listbuilder" / "club.sqlite")
        .execute("SELECT passphrase FROM members WHERE name = 'Fay'")
        .fetchone()[0]
    )
    assert digest.startswith("$argon2id$")
    other = Member(server)
    answer = server.post("/sign-in", {"name": "fay", "passphrase": "correct horse"})
    assert answer.status == 303 and "listbuilder_session=" in answer.headers["set-cookie"]
    for _ in range(4):  # 4 wrong: still allowed to try
        assert server.post("/sign-in", {"name": "Fay", "passphrase": "wrong one!!"}).status == 401
    assert server.post("/sign-in", {"name": "Fay", "passphrase": "correct horse"}).status == 303
    assert server.post("/sign-in", {"name": "Fay", "passphrase": "wrong one!!"}).status == 401  # the 5th
    locked = server.post("/sign-in", {"name": "Fay", "passphrase": "correct horse"})
    assert locked.status == 429 and "Try again at" in locked.text
    assert 14 * 60 < int(locked.headers["retry-after"]) <= 15 * 60
    assert other.get("/").status == 303


def test_upload_and_download_lists(served):
    server, folder = served
    gus = signed_in(server, folder, "Gus")
    token = gus.token()
    yaml_text = (Path(__file__).parent.parent / "examples" / "deathzap-frontier-rangers.legal.yaml").read_bytes()
    body, boundary = _multipart(token, [("rangers.yaml", yaml_text), ("notes.yaml", b"just: words\n")])
    answer = gus.server.request(
        "POST", "/upload", body, gus.headers({"Content-Type": f"multipart/form-data; boundary={boundary}"})
    )
    assert answer.status == 400 and "Uploaded rangers.yaml" in answer.text and "notes.yaml" in answer.text
    assert (folder / "members" / "gus" / "rangers.yaml").read_bytes() == yaml_text
    assert not (folder / "members" / "gus" / "notes.yaml").exists()
    text = gus.get("/list/rangers.yaml/export/text").text
    body, boundary = _multipart(token, [("rangers.txt", text.encode())])
    answer = gus.server.request(
        "POST", "/upload", body, gus.headers({"Content-Type": f"multipart/form-data; boundary={boundary}"})
    )
    assert answer.status == 303
    zipped = gus.get("/me/lists.zip")
    assert zipped.headers["content-type"] == "application/zip"
    names = zipfile.ZipFile(io.BytesIO(zipped.body)).namelist()
    assert "gus/rangers.yaml" in names and len(names) == 2


def _multipart(token: str, files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = "----listbuildertest"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="token"\r\n\r\n{token}\r\n'.encode()]
    for name, data in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
        parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), boundary


def test_a_killed_server_restarts_with_every_acknowledged_change(tmp_path):
    folder = make_club(tmp_path, {"Ana": "player"}, {"Ana": ["might-skirmish-zombie-family.legal"]})
    server = start(folder)
    ana = signed_in(server, folder, "Ana")
    token = ana.token()
    acknowledged: list[int] = []
    stop = threading.Event()

    def change(n: int) -> None:
        while not stop.is_set():
            try:
                answer = ana.post(
                    f"/list/{ANA_LIST}/change", {"token": token, "change": "set", "key": "name", "value": f"Run {n}"}
                )
            except OSError:
                return
            if answer.status == 303:
                acknowledged.append(n)
                n += 10

    threads = [threading.Thread(target=change, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    time.sleep(1.5)
    server.proc.send_signal(signal.SIGKILL)  # mid-change: no chance to tidy or flush
    server.proc.wait()
    stop.set()
    for t in threads:
        t.join()
    assert acknowledged
    again = start(folder)
    try:
        back = Member(again, ana.cookie)
        assert back.get("/").status == 200  # the session survived
        text = (folder / "members" / "ana" / ANA_LIST).read_text()
        name = re.search(r"^name: (.*)$", text, re.M).group(1)
        # the list holds the last acknowledged change, or one that was being made when killed
        assert name.startswith("Run ")
        assert int(name.split()[1]) >= max(acknowledged) - 20
        db = sqlite3.connect(folder / ".listbuilder" / "club.sqlite")
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        again.stop()


def test_serving_a_club_warns_of_plain_http_not_of_open_editing(tmp_path):
    folder = make_club(tmp_path, {})
    loopback = start(folder)
    try:
        said = "".join(loopback.output)
        assert "warning" not in said and "at http://127.0.0.1:" in said
    finally:
        loopback.stop()
    wide = start(folder, "--host", "0.0.0.0")
    try:
        said = "".join(wide.output)
        assert "over plain HTTP: each member's session cookie crosses the network in clear text" in said
        assert "can read and edit" not in said
        assert Member(wide).get("/").headers["location"] == "/sign-in"
    finally:
        wide.stop()


def test_over_https_the_cookie_is_secure_and_host_only(tmp_path):
    folder = make_club(tmp_path, {"Ana": "player"})
    app = create_app(folder)
    from asgiclient import Client

    client = Client(app)
    link = club.invite(folder, "Ana").link
    path = "/join/" + link.rsplit("/join/", 1)[1]
    status, headers = _https(client, "POST", path)
    cookie = headers["set-cookie"]
    assert status == 303
    assert cookie.startswith("__Host-listbuilder_session=") and "; Secure" in cookie and "HttpOnly" in cookie


def _https(client, method: str, path: str) -> tuple[int, dict[str, str]]:
    """A request as uvicorn hands it on over HTTPS (scheme 'https')."""
    import asyncio

    started: dict = {}
    body = []
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "https",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-length", b"0"), (b"origin", b"https://127.0.0.1:8000")],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
    }  # fmt: skip

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            started.update(message)
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    asyncio.run(client.app(scope, receive, send))

    return started["status"], {k.decode().lower(): v.decode() for k, v in started["headers"]}
