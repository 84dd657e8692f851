"""Options that work in every spelling and combination, never an internal error in one of them:
export formats in any case, a QR code on a reference-only print."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES
from webserver import Server, start

ZOMBIES = "zombies.yaml"
SOURCE = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("options")
    (root / ZOMBIES).write_bytes(SOURCE.read_bytes())
    s = start(root)
    yield s
    s.stop()


@pytest.mark.parametrize("spelled", ["YAML", "Text", "JSON", "Markdown", "tExT"])
def test_an_export_format_in_any_case_is_the_format(server: Server, spelled: str):
    lower = server.get(f"/list/{ZOMBIES}/export/{spelled.lower()}")
    given = server.get(f"/list/{ZOMBIES}/export/{spelled}")
    assert lower.status == 200
    assert (given.status, given.body, given.headers["content-type"]) == (
        200,
        lower.body,
        lower.headers["content-type"],
    )
    download = server.get(f"/list/{ZOMBIES}/export/{spelled}?download=1")
    assert download.headers["content-disposition"] == lower_download(server, spelled)


def lower_download(server: Server, spelled: str) -> str:
    return server.get(f"/list/{ZOMBIES}/export/{spelled.lower()}?download=1").headers["content-disposition"]


def test_an_unknown_export_format_is_refused_naming_the_formats(server: Server):
    answer = server.get(f"/list/{ZOMBIES}/export/docx")
    assert answer.status == 400
    assert "unknown format &#39;docx&#39;" in answer.text and "markdown" in answer.text


def test_a_qr_code_on_a_reference_only_print_is_refused_naming_both(server: Server):
    for only in ("reference", "Reference"):
        answer = server.get(f"/list/{ZOMBIES}/print?format=html&only={only}&qr=1")
        assert answer.status == 400, (only, answer.status)
        assert "QR code" in answer.text and "roster" in answer.text
    # each on its own, and the QR code with the roster, print
    assert server.get(f"/list/{ZOMBIES}/print?format=html&only=reference").status == 200
    assert server.get(f"/list/{ZOMBIES}/print?format=html&only=roster&qr=1").status == 200
    assert server.get(f"/list/{ZOMBIES}/print?format=html&qr=1").status == 200


def test_render_qr_with_only_reference_exits_2_before_any_work(cli, tmp_path: Path):
    path = tmp_path / ZOMBIES
    path.write_bytes(SOURCE.read_bytes())
    out = tmp_path / "out.pdf"
    result = cli("render", path, "--only", "reference", "--qr", "-o", out)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "a QR code goes on the roster, and a reference sheet printed alone has no roster" in result.stderr
    assert "drop --qr, or print the roster too: --only roster, or no --only" in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists() and not (tmp_path / "zombies.pdf").exists()
    assert cli("render", path, "--only", "reference", "-o", tmp_path / "ref.html").exit_code == 0


def test_export_format_in_any_case_on_the_command_line(cli, tmp_path: Path):
    path = tmp_path / ZOMBIES
    path.write_bytes(SOURCE.read_bytes())
    for spelled in ("YAML", "Markdown", "JSON", "Text"):
        upper, lower = cli("export", path, "--format", spelled), cli("export", path, "--format", spelled.lower())
        assert (upper.exit_code, upper.stdout) == (0, lower.stdout), spelled
