"""``serve``'s command line, as typer reads it: its options reach the server as given, and its
start-up stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from listbuilder.cli import app
from listbuilder.cli import serve as serve_command

DEFAULTS = {
    "folder": Path("."),
    "port": 8000,
    "host": "127.0.0.1",
    "read_only": False,
    "no_open": False,
    "templates": None,
    "catalogs": None,
}


def typer_reading(monkeypatch: pytest.MonkeyPatch, args: list[str], env: dict[str, str]) -> tuple[int, Any]:
    """The exit code and the arguments that typer hands the server, for ``serve ARGS``."""
    seen: list[dict[str, Any]] = []

    def record(folder, port, host, read_only, no_open, templates, catalogs, **https):  # type: ignore[no-untyped-def]
        seen.append(dict(folder=folder, port=port, host=host, read_only=read_only, no_open=no_open,
                         templates=templates, catalogs=catalogs))  # fmt: skip
        if https != {"tls": None, "proxy_headers": False}:
            seen[-1].update(https)

    with monkeypatch.context() as patch:
        patch.setattr(serve_command, "serve_folder", record)
        result = CliRunner().invoke(app, ["serve", *args], env={"LISTBUILDER_TEMPLATES": None, **env})
    return result.exit_code, (seen[0] if seen else None)


@pytest.mark.parametrize(
    "args, expected",
    [
        ([], {}),
        (["examples"], {"folder": Path("examples")}),
        (["examples", "--port", "0", "--no-open"], {"folder": Path("examples"), "port": 0, "no_open": True}),
        (["--port=8080", "--host", "0.0.0.0", "--read-only", "lists"],
         {"port": 8080, "host": "0.0.0.0", "read_only": True, "folder": Path("lists")}),
        (["--catalogs", "a", "--catalogs=b", "--templates", "t"],
         {"catalogs": [Path("a"), Path("b")], "templates": Path("t")}),
        (["--port", "65535"], {"port": 65535}),
        (["--port", "99999"], {"port": 99999}),  # read as given; the server then refuses it
    ],
)  # fmt: skip
def test_the_options_reach_the_server_as_given(monkeypatch, args, expected):
    assert typer_reading(monkeypatch, args, {}) == (0, {**DEFAULTS, **expected})


def test_the_templates_variable_counts_unless_the_option_is_given(monkeypatch):
    env = {"LISTBUILDER_TEMPLATES": "mine"}
    assert typer_reading(monkeypatch, [], env) == (0, {**DEFAULTS, "templates": Path("mine")})
    assert typer_reading(monkeypatch, ["--templates", "other"], env) == (0, {**DEFAULTS, "templates": Path("other")})


@pytest.mark.parametrize(
    "args", [["a", "b"], ["--port", "x"], ["--port"], ["--bogus"], ["-p", "1"], ["--port", "1" * 5000]]
)
def test_a_command_line_serve_cannot_read_is_refused_before_it_starts(monkeypatch, args):
    code, seen = typer_reading(monkeypatch, args, {})
    assert code == 2 and seen is None


def test_a_port_out_of_range_is_refused_with_a_hint(capsys, tmp_path):
    with pytest.raises(SystemExit) as stop:
        serve_command.serve_folder(tmp_path, 99999, "127.0.0.1", False, True, None, None)
    assert stop.value.code == 2
    assert "--port 99999 is not a port" in capsys.readouterr().err


def test_serve_help_comes_from_typer():
    shown = subprocess.run(
        [sys.executable, "-m", "listbuilder", "serve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0 and "listbuilder serve [OPTIONS] [folder]" in shown.stdout.splitlines()[0]


def test_ctrl_c_while_it_starts_stops_it_as_once_serving(monkeypatch, capsys, tmp_path):
    def interrupted(*args):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt  # pressed while the folder's lists were being read

    monkeypatch.setattr(serve_command, "_ready", interrupted)
    serve_command.serve_folder(tmp_path, 0, "127.0.0.1", False, True, None, None)  # returns: no exception, exit 0
    assert capsys.readouterr().out == "listbuilder: stopped\n"


def test_an_ascii_terminal_gets_escapes_not_a_crash(tmp_path):
    shown = subprocess.run(
        [sys.executable, "-m", "listbuilder", "systems"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert shown.returncode == 0, shown.stderr
    assert "\\u2013" in shown.stdout  # the table's dash for "extends nothing", written as its escape


def test_https_and_proxy_options_reach_the_server(monkeypatch, tmp_path):
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    code, seen = typer_reading(monkeypatch, ["--certfile", str(cert), "--keyfile", str(key), "--proxy-headers"], {})
    assert code == 0 and seen["tls"] == (cert, key) and seen["proxy_headers"] is True
    alone = CliRunner().invoke(app, ["serve", "--certfile", str(cert)])
    assert alone.exit_code == 2 and "--certfile and --keyfile go together" in alone.stderr
