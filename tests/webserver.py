"""Run ``listbuilder serve`` for real, on a free loopback port, and talk HTTP to it with exact headers."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


@dataclass
class Server:
    """A running ``listbuilder serve FOLDER --port 0`` and the address it printed."""

    proc: subprocess.Popen[str]
    folder: Path
    host: str
    port: int
    output: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> Answer:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
            conn.request(method, path, body=body, headers={k: v for k, v in sent.items() if v is not None})
            res = conn.getresponse()
            return Answer(res.status, {k.lower(): v for k, v in res.getheaders()}, res.read())
        finally:
            conn.close()

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(
        self, path: str, fields: dict[str, str] | list[tuple[str, str]], headers: dict[str, str] | None = None
    ) -> Answer:
        body = urlencode(fields).encode()
        sent = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return self.request("POST", path, body, sent)

    def token(self) -> str:
        found = re.search(r'name="token" value="([^"]+)"', self.get("/").text)
        assert found, "the lists page holds no token"
        return found.group(1)

    def version(self, file: str) -> str:
        found = re.search(r'name="version" value="([0-9a-f]{16})"', self.get(f"/list/{file}").text)
        assert found, f"the page of {file} holds no version"
        return found.group(1)

    def stop(self) -> int:
        """Ctrl-C, as a user stops it; returns the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rest = self.proc.stdout.read() if self.proc.stdout else ""
        self.output.append(rest)
        return self.proc.returncode


def start(folder: Path, *args: str, open_browser: bool = False, env_extra: dict[str, str] | None = None) -> Server:
    """Start ``listbuilder serve FOLDER --port 0 --no-open ARGS`` and wait until it answers
    (with ``open_browser``, without ``--no-open``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LISTBUILDER_") or k == "LISTBUILDER_SIMULATE"}
    env.update(env_extra or {})
    env["LISTBUILDER_CATALOGS"] = ""
    if "LISTBUILDER_CACHE_DIR" in os.environ:  # the tests' private cache (conftest)
        env["LISTBUILDER_CACHE_DIR"] = os.environ["LISTBUILDER_CACHE_DIR"]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "listbuilder",
            "serve",
            str(folder),
            "--port",
            "0",
            *([] if open_browser else ["--no-open"]),
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert proc.stdout is not None
    lines = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        found = re.search(r"at https?://([0-9.]+):(\d+)/", line)
        if found:
            server = Server(proc, folder, found.group(1), int(found.group(2)), lines)
            return server
    proc.kill()
    raise AssertionError("listbuilder serve did not start:\n" + "".join(lines))
