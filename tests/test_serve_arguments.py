"""``serve`` reads a plain command line without typer (start-up), and agrees with typer on it.

``serving.quick_arguments`` answers for the common forms and hands everything else to typer;
these tests prove that on every command line it answers for, typer (reading the ``serve``
command as ``cli/serve.py`` declares it) would have called the server with the same arguments.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from listbuilder.cli import serve as serve_command
from listbuilder.cli import serving
from listbuilder.cli.commands import app, command

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

    def record(folder, port, host, read_only, no_open, templates, catalogs):  # type: ignore[no-untyped-def]
        seen.append(dict(folder=folder, port=port, host=host, read_only=read_only, no_open=no_open,
                         templates=templates, catalogs=catalogs))  # fmt: skip

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
        (["--port", "99999"], {"port": 99999}),  # read as typer reads it; the server then refuses it
    ],
)  # fmt: skip
def test_the_plain_forms_are_read_quickly_as_typer_reads_them(monkeypatch, args, expected):
    quick = serving.quick_arguments(args, {})
    assert quick == {**DEFAULTS, **expected}
    assert typer_reading(monkeypatch, args, {}) == (0, quick)


def test_the_templates_variable_counts_unless_the_option_is_given(monkeypatch):
    env = {"LISTBUILDER_TEMPLATES": "mine"}
    assert serving.quick_arguments([], env) == {**DEFAULTS, "templates": Path("mine")}
    assert serving.quick_arguments(["--templates", "other"], env) == {**DEFAULTS, "templates": Path("other")}
    assert serving.quick_arguments([], {"LISTBUILDER_TEMPLATES": ""}) == DEFAULTS
    for args in ([], ["--templates", "other"]):
        assert typer_reading(monkeypatch, args, env) == (0, serving.quick_arguments(args, env))


@pytest.mark.parametrize(
    "args",
    [
        ["--help"], ["-h"], ["examples", "--help"],  # typer's help
        ["a", "b"], ["--port", "x"], ["--port"], ["--port="], ["--port", "-1"], ["--port", "８０"],
        ["--port", "1", "--port", "2"], ["--host", "a", "--host=b"], ["--bogus"], ["-p", "1"],
        ["--", "examples"], ["--read-only=1"], ["-"], ["--host", "--no-open"], ["--port", "1" * 5000],
    ],
)  # fmt: skip
def test_anything_else_is_left_to_typer(args):
    assert serving.quick_arguments(args, {}) is None


def test_the_quick_reading_knows_every_option_that_serve_declares():
    params = {p.name: p for p in command("serve").params}
    options = {opt: p.name for p in params.values() for opt in p.opts if opt.startswith("--")}
    flags = {opt for p in params.values() if getattr(p, "is_flag", False) for opt in p.opts}
    assert options == {**serving.VALUED, **serving.FLAGS}
    assert flags == set(serving.FLAGS)
    assert params["templates"].envvar == serving.TEMPLATES_VARIABLE
    assert set(params) == set(DEFAULTS)
    assert {name: params[name].default for name in ("port", "host", "read_only", "no_open")} == {
        name: DEFAULTS[name] for name in ("port", "host", "read_only", "no_open")
    }


WORDS = st.sampled_from(
    ["examples", "lists", "a b", "é", "--port", "--port=0", "--port=80", "0", "8080", "x", "-1", "--host",
     "--host=::1", "0.0.0.0", "--read-only", "--no-open", "--templates", "--templates=t", "--catalogs",
     "--catalogs=c", "c", "--help", "-h", "--", "--bogus", "=", "--no-open=1", ""]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(args=st.lists(WORDS, max_size=6), templates=st.sampled_from([None, "", "envtemplates"]))
def test_whenever_the_quick_reading_answers_typer_answers_the_same(args, templates):
    env = {} if templates is None else {"LISTBUILDER_TEMPLATES": templates}
    quick = serving.quick_arguments(args, env)
    if quick is None:
        return
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert typer_reading(monkeypatch, args, env) == (0, quick)


def test_a_plain_serve_never_loads_typer_and_help_still_comes_from_it(tmp_path):
    code = (
        "import sys\n"
        "from listbuilder.cli import main, serving\n"
        "serving.serve_folder = lambda **given: print('SERVE', sorted(given), 'typer' in sys.modules)\n"
        f"sys.argv = ['listbuilder', 'serve', {str(tmp_path)!r}, '--port', '0', '--no-open']\n"
        "main()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == f"SERVE {sorted(DEFAULTS)} False\n", out.stderr
    shown = subprocess.run(
        [sys.executable, "-m", "listbuilder", "serve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0 and "listbuilder serve [OPTIONS] [folder]" in shown.stdout.splitlines()[0]


def test_ctrl_c_while_it_starts_stops_it_as_once_serving(monkeypatch, capsys, tmp_path):
    def interrupted(*args):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt  # pressed while the folder's lists were being read

    monkeypatch.setattr(serving, "_ready", interrupted)
    serving.serve_folder(tmp_path, 0, "127.0.0.1", False, True, None, None)  # returns: no exception, exit 0
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
