"""The schemas as an editor uses them: yaml-language-server (VS Code's YAML extension) checks and explains.

Skipped unless ``yaml-language-server`` is on the PATH (``npm install -g yaml-language-server``)
or named by ``LISTBUILDER_YAML_LANGUAGE_SERVER``. Each example is opened under its own path, so
its first line finds ``../schemas/<id>.schema.json`` as an editor would.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

SERVER = os.environ.get("LISTBUILDER_YAML_LANGUAGE_SERVER") or shutil.which("yaml-language-server")
pytestmark = pytest.mark.skipif(SERVER is None, reason="yaml-language-server is not installed")
MASH = EXAMPLES / "might-skirmish-monster-mash.illegal.yaml"
SETTINGS = {"validate": True, "hover": True, "completion": True, "schemaStore": {"enable": False}}


class Client:
    """Just enough of a language client: open a document, read its diagnostics, ask for a hover."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(
            [command, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        answer = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        assert answer is not None, "the server did not answer 'initialize'"
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": SETTINGS}})

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if line == b"" or length is None:
                return
            self.inbox.put(json.loads(out.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self._send({"id": wanted, "method": method, "params": params})
        answer = self.wait(lambda m: m.get("id") == wanted and "method" not in m)
        return answer and answer.get("result")

    def wait(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 30) -> dict[str, Any] | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                message = self.inbox.get(timeout=0.2)
            except queue.Empty:
                continue
            if message.get("method") == "workspace/configuration":  # the server asks for its settings
                self._send({"id": message["id"], "result": [SETTINGS] * len(message["params"]["items"])})
            elif "method" in message and "id" in message:  # any other request from the server
                self._send({"id": message["id"], "result": None})
            elif wanted(message):
                return message
        return None

    def open(self, path: Path, text: str) -> list[dict[str, Any]]:
        """Open ``text`` as if it were the file at ``path``; return the server's diagnostics."""
        uri = path.resolve().as_uri()
        self.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}
        )
        found = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        assert found is not None, "no diagnostics from the server"
        return found["params"]["diagnostics"]

    def hover(self, path: Path, line: int, character: int) -> str:
        position = {"line": line, "character": character}
        result = self.request(
            "textDocument/hover", {"textDocument": {"uri": path.resolve().as_uri()}, "position": position}
        )
        return result["contents"]["value"] if result else ""

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def editor() -> Iterator[Client]:
    assert SERVER is not None
    client = Client(SERVER)
    yield client
    client.close()


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_the_editor_finds_nothing_wrong_in_an_example(editor, path):
    assert editor.open(path, path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("    might: 20", "    mihgt: 20", "Property mihgt is not allowed."),
        ("class: Monster", "class: Wizard", 'Value is not accepted. Valid values: "Soldier"'),
        ("    count: 3\n", "    count: 0\n", "Value is below the minimum of 1."),
        ("points: 100", "figures: 100", "Property figures is not allowed."),
    ],
)
def test_the_editor_flags_a_mistake_on_its_line(editor, old, new, expected):
    text = MASH.read_text(encoding="utf-8")
    assert old in text
    edited = text.replace(old, new, 1)
    line = next(i for i, text in enumerate(edited.splitlines()) if new.strip() in text)
    diagnostics = editor.open(EXAMPLES / f"edited-{new.split(':')[0].strip()}.yaml", edited)
    assert any(expected in d["message"] and d["range"]["start"]["line"] == line for d in diagnostics), diagnostics


def test_the_editor_explains_a_stat_and_a_choice_on_hover(editor):
    text = MASH.read_text(encoding="utf-8")
    path = EXAMPLES / "hover.yaml"
    editor.open(path, text)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "class: Monster" in line)
    shown = editor.hover(path, at, lines[at].index("Monster") + 1)
    assert shown.startswith("#### Class") and "`Monster`: Rare. Charges, shoots and defends" in shown
    at = next(i for i, line in enumerate(lines) if "might: 20" in line)
    shown = editor.hover(path, at, lines[at].index("might") + 1)
    assert "#### Might" in shown and "Might is a whole number of at least 1." in shown


def test_the_editor_checks_a_loadout_item(editor):
    rangers = EXAMPLES / "deathzap-frontier-rangers.legal.yaml"
    text = rangers.read_text(encoding="utf-8")
    assert "{weapon: Repeater, figures: 1}" in text  # a unit armed unevenly passes as it is (test above)
    for new, expected in [
        ("{weapon: Repeater, figures: 0}", "Value is below the minimum of 1."),
        ("{weapon: Repeater, figure: 1}", "Property figure is not allowed."),
    ]:
        edited = text.replace("{weapon: Repeater, figures: 1}", new, 1)
        line = next(i for i, text in enumerate(edited.splitlines()) if new in text)
        diagnostics = editor.open(EXAMPLES / f"edited-loadout-{len(new)}.yaml", edited)
        assert any(expected in d["message"] and d["range"]["start"]["line"] == line for d in diagnostics), diagnostics
