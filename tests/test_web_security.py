"""The web builder's guard, against a real ``listbuilder serve`` on a random loopback port.

Each test is one way a page of another site, a hostile list or a careless request could read or
change what it must not: the answer is refused and the files are as they were.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server, start

LIST = "zombies.yaml"
HOSTILE_LIST = "<script>alert('list')</script> <img src=x>"
HOSTILE_UNIT = '<b onmouseover=alert(1)>Bold</b> & "quoted"'


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("served")
    (root / LIST).write_bytes((EXAMPLES / "might-skirmish-zombie-family.legal.yaml").read_bytes())
    hostile = (
        "system: might-skirmish\n"
        f'name: "{HOSTILE_LIST.replace(chr(34), chr(92) + chr(34))}"\n'
        "points: 100\n"
        "units:\n"
        f"  - name: '{HOSTILE_UNIT.replace(chr(39), chr(39) * 2)}'\n"
        "    class: Soldier\n"
        "    might: 5\n"
    )
    (root / "hostile.yaml").write_text(hostile, encoding="utf-8")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.yaml").write_bytes((EXAMPLES / "deathzap-frontier-rangers.legal.yaml").read_bytes())
    (root / "link-out.yaml").symlink_to(outside / "secret.yaml")
    return root


@pytest.fixture
def snapshot(folder: Path) -> Iterator[None]:
    """Every file under the folder (and the one the link points to) is unchanged by the test."""
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    yield
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before


def _add(server: Server, file: str = LIST, **extra: str) -> dict[str, str]:
    fields = {"token": server.token(), "version": server.version(LIST), "change": "add", "unit": "Hunter"}
    fields.update(extra)
    return fields


def test_it_binds_loopback_and_says_where(server: Server):
    assert server.host == "127.0.0.1"
    assert "serving" in server.output[0] and str(server.port) in server.output[0]


@pytest.mark.parametrize(
    "host", ["evil.example:{port}", "evil.example", "127.0.0.1:1", "127.0.0.1.evil.example:{port}"]
)
def test_a_wrong_host_is_refused(server: Server, snapshot: None, host: str):
    host = host.format(port=server.port, p=server.port)
    page = server.get("/", headers={"Host": host})
    assert page.status == 421
    assert "zombie" not in page.text.lower()
    assert server.post(f"/list/{LIST}/change", _add(server), headers={"Host": host}).status == 421


def test_the_right_host_by_name_or_number_is_served(server: Server):
    assert server.get("/", headers={"Host": f"localhost:{server.port}"}).status == 200
    assert server.get("/").status == 200


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:1"},
    ],
)
def test_cross_site_writes_are_refused(server: Server, snapshot: None, headers: dict[str, str]):
    answer = server.post(f"/list/{LIST}/change", _add(server), headers=headers)
    assert answer.status == 403


def test_a_same_origin_write_is_made(server: Server, folder: Path):
    before = (folder / LIST).read_text()
    origin = {"Origin": server.url, "Sec-Fetch-Site": "same-origin"}
    answer = server.post(f"/list/{LIST}/change", _add(server), headers=origin)
    assert answer.status == 303
    assert "count: 3" in (folder / LIST).read_text()
    undo = server.post(f"/list/{LIST}/undo", {"token": server.token()}, headers=origin)
    assert undo.status == 303
    assert (folder / LIST).read_text() == before


@pytest.mark.parametrize("token", [None, "", "wrong", "x" * 32])
def test_a_write_without_the_token_is_refused(server: Server, snapshot: None, token: str | None):
    fields = _add(server)
    if token is None:
        del fields["token"]
    else:
        fields["token"] = token
    answer = server.post(f"/list/{LIST}/change", fields)
    assert answer.status == 403
    assert "token" in answer.text


def test_every_write_needs_the_token(server: Server, snapshot: None):
    for path, fields in [
        ("/new", {"system": "might-skirmish", "name": "Sneaky"}),
        ("/import", {"text": "Zombie Family (might-skirmish)"}),
        (f"/list/{LIST}/delete", {}),
        (f"/list/{LIST}/duplicate", {}),
        (f"/list/{LIST}/undo", {}),
        (f"/list/{LIST}/redo", {}),
        (f"/list/{LIST}/price", {"might": "5"}),
        ("/restore", {"id": "x"}),
    ]:
        assert server.post(path, fields).status == 403, path


@pytest.mark.parametrize(
    "name",
    [
        "..%2F..%2F..%2Fetc%2Fpasswd",
        "%2Fetc%2Fpasswd",
        "..%2Foutside.yaml",
        "..",
        ".listbuilder",
        "sub%2Fzombies.yaml",
        "..%5Czombies.yaml",
        "%00zombies.yaml",
        "link-out.yaml",
    ],
)
def test_no_path_outside_the_folder(server: Server, snapshot: None, name: str):
    for path in (
        f"/list/{name}",
        f"/list/{name}/export/yaml",
        f"/list/{name}/print?format=html",
        f"/list/{name}/qr.svg",
    ):
        answer = server.get(path)
        assert answer.status in (400, 404), path
        assert "frontier" not in answer.text.lower() and "root:" not in answer.text
    answer = server.post(f"/list/{name}/change", _add(server))
    assert answer.status in (400, 404)
    assert server.post(f"/list/{name}/delete", {"token": server.token()}).status in (400, 404)


def test_a_symlink_out_of_the_folder_is_not_listed(server: Server):
    page = server.get("/").text
    assert "link-out" not in page
    assert "Frontier" not in page


def test_an_oversized_body_is_refused(server: Server, snapshot: None):
    fields = _add(server)
    fields["padding"] = "x" * (1024 * 1024 + 1)
    assert server.post(f"/list/{LIST}/change", fields).status == 413


def test_an_oversized_body_without_a_length_is_refused(server: Server, snapshot: None):
    import http.client

    conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
    conn.putrequest("POST", f"/list/{LIST}/change", skip_host=True)
    conn.putheader("Host", f"{server.host}:{server.port}")
    conn.putheader("Content-Type", "application/x-www-form-urlencoded")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    chunk = b"a=" + b"x" * 65536
    try:
        for _ in range(20):  # 1.3 MB in chunks
            conn.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        conn.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert conn.getresponse().status == 413
    conn.close()


def test_hostile_names_are_text(server: Server):
    for path in ("/", "/list/hostile.yaml", "/list/hostile.yaml/share", "/list/hostile.yaml/compare?with=zombies.yaml"):
        page = server.get(path).text
        assert "<script>alert" not in page and "<img src=x>" not in page and "<b onmouseover" not in page, path
        assert "&lt;script&gt;" in page, path
    assert "&lt;b onmouseover=alert(1)&gt;Bold&lt;/b&gt;" in server.get("/list/hostile.yaml").text


def test_every_answer_has_a_strict_content_security_policy(server: Server):
    for path in ("/", f"/list/{LIST}", "/static/htmx.min.js", "/nowhere", f"/list/{LIST}/qr.svg"):
        csp = server.get(path).headers.get("content-security-policy", "")
        assert "script-src 'self'" in csp and "style-src 'self'" in csp and "default-src 'none'" in csp, path
        assert "unsafe" not in csp
    refused = server.get("/", headers={"Host": "evil.example"})
    assert "default-src 'none'" in refused.headers["content-security-policy"]


def test_pages_hold_no_inline_script_or_style(server: Server):
    for path in ("/", f"/list/{LIST}", f"/list/{LIST}/share", "/card/might-skirmish"):
        page = server.get(path).text
        assert all(re.search(r'\bsrc="/static/[a-z.]+"', tag) for tag in re.findall(r"<script[^>]*>", page)), path
        assert "<style" not in page and " style=" not in page, path
        assert not re.search(r"\son[a-z]+=", page), path  # no inline event handlers
        assert "hx-on" not in page and "js:" not in page, path


def test_htmx_is_told_not_to_eval(server: Server):
    page = server.get("/").text
    assert '"allowEval": false' in page and '"includeIndicatorStyles": false' in page


def test_read_only_refuses_every_change(folder: Path, snapshot: None):
    s = start(folder, "--read-only")
    try:
        page = s.get(f"/list/{LIST}").text
        assert "read-only" in page and 'aria-label="Add Hunter"' not in page
        token = re.search(r'name="token" value="([^"]+)"', s.get(f"/list/{LIST}/share").text)
        fields = {"token": token.group(1) if token else "", "change": "add", "unit": "Hunter"}
        assert s.post(f"/list/{LIST}/change", fields).status == 403
        assert s.get(f"/list/{LIST}/print?format=html").status == 200
    finally:
        assert s.stop() == 0


def test_ctrl_c_stops_it_cleanly(folder: Path):
    s = start(folder)
    assert s.get("/").status == 200
    assert s.stop() == 0
    assert "stopped" in "".join(s.output)
    assert "Traceback" not in "".join(s.output)


def test_another_host_warns(folder: Path):
    s = start(folder, "--host", "0.0.0.0")
    try:
        assert any("anyone who can reach" in line for line in s.output)
    finally:
        s.stop()


def test_host_names_and_ip_hosts():
    from listbuilder.web.security import host_names, is_ip_host

    assert host_names("127.0.0.1", 8000) == {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert "localhost" in host_names("127.0.0.1", None)
    assert is_ip_host("192.168.1.5:8000", 8000) and is_ip_host("[fe80::1]:8000", 8000)
    assert not is_ip_host("192.168.1.5:8001", 8000)
    assert not is_ip_host("evil.example:8000", 8000) and not is_ip_host("127.0.0.1.nip.io:8000", 8000)


def test_on_every_interface_an_ip_host_is_served_and_a_name_is_not(folder: Path):
    s = start(folder, "--host", "0.0.0.0")
    try:
        assert s.get("/", headers={"Host": f"192.0.2.7:{s.port}"}).status == 200  # the machine's address
        assert s.get("/", headers={"Host": f"rebound.example:{s.port}"}).status == 421
        assert s.get("/", headers={"Host": f"192.0.2.7:{s.port + 1}"}).status == 421
    finally:
        s.stop()


def test_changes_at_once_are_each_made_or_refused_never_lost(server: Server, folder: Path):
    """Twenty adds at once, half of them as a stale page would send them: every add that is
    answered 303 is in the file, and every other one was refused (409), never silently dropped."""
    from concurrent.futures import ThreadPoolExecutor

    (folder / "busy.yaml").write_text(
        "system: might-skirmish\nname: Busy\npoints: 1000\nunits:\n  - unit: Crow Swarm\n    count: 1\n"
    )
    token = server.token()
    version = server.version("busy.yaml")

    def add(i: int) -> int:
        fields = {"token": token, "change": "add", "unit": "Crow Swarm"}
        if i % 2:
            fields["version"] = version  # all but the first of these must be refused
        return server.post("/list/busy.yaml/change", fields).status

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(add, range(20)))
    made = statuses.count(303)
    assert made + statuses.count(409) == 20, statuses
    assert 10 <= made <= 11
    count = re.search(r"count: (\d+)", (folder / "busy.yaml").read_text())
    assert count and int(count.group(1)) == 1 + made


def test_it_opens_the_browser_at_its_address(folder: Path, tmp_path: Path):
    import sys

    opened = tmp_path / "opened.txt"
    script = tmp_path / "browser.py"
    script.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    s = start(folder, open_browser=True, env_extra={"BROWSER": f"{sys.executable} {script} %s"})
    try:
        import time

        for _ in range(100):
            if opened.exists() and opened.read_text():
                break
            time.sleep(0.05)
        assert opened.read_text() == f"{s.url}/"
    finally:
        s.stop()


def test_a_tab_and_the_command_line_editing_at_once_lose_nothing(server: Server, folder: Path):
    """Ten adds from the web and ten `listbuilder add` at the same time: all twenty land, because
    both take the list's edit lock around read, check and write."""
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor

    (folder / "shared.yaml").write_text(
        "system: might-skirmish\nname: Shared\npoints: 1000\nunits:\n  - unit: Crow Swarm\n    count: 1\n"
    )
    token = server.token()

    def web(_: int) -> int:
        return server.post("/list/shared.yaml/change", {"token": token, "change": "add", "unit": "Crow Swarm"}).status

    def cli(_: int) -> int:
        cmd = [sys.executable, "-m", "listbuilder", "add", str(folder / "shared.yaml"), "Crow Swarm"]
        return subprocess.run(
            cmd, capture_output=True, timeout=120, env={**os.environ, "LISTBUILDER_CATALOGS": ""}
        ).returncode

    with ThreadPoolExecutor(max_workers=20) as pool:
        webs = [pool.submit(web, i) for i in range(10)]
        clis = [pool.submit(cli, i) for i in range(10)]
        assert [f.result() for f in webs] == [303] * 10
        assert [f.result() for f in clis] == [0] * 10
    assert "count: 21\n" in (folder / "shared.yaml").read_text()


def test_a_port_in_use_and_a_missing_folder_are_bad_input(cli, server: Server, tmp_path: Path):
    busy = cli("serve", server.folder, "--port", str(server.port), "--no-open")
    assert busy.exit_code == 2 and f"cannot listen on 127.0.0.1:{server.port}" in busy.stderr
    assert "--port 0" in busy.stderr
    missing = cli("serve", tmp_path / "nowhere", "--port", "0", "--no-open")
    assert missing.exit_code == 2 and "no such folder" in missing.stderr
    (tmp_path / "army.yaml").write_text("system: might-skirmish\n", encoding="utf-8")
    a_file = cli("serve", tmp_path / "army.yaml", "--port", "0", "--no-open")
    assert a_file.exit_code == 2 and "no such folder" not in a_file.stderr
    assert f"{tmp_path / 'army.yaml'}: this is a file, not a folder" in a_file.stderr
    assert f"serve the folder it is in: {tmp_path}" in a_file.stderr
