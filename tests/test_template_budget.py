"""User templates within a budget (issue 9, class 4): a hostile or broken template is exit 2
naming its file and line, never a hang, a flood of memory or an internal error (exit 4).

Each test writes a real template folder, renders a list through it as a user would, and checks
the message and that no output was written.
"""

from __future__ import annotations

import os

import pytest
from conftest import EXAMPLES

from listbuilder.printing import budget

ZOMBIES = EXAMPLES / "might-skirmish-zombie-family.legal.yaml"

HOSTILE = {
    "nested-range": (
        "<p>{{ entry.name }}</p>\n{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}",
        2,
        "counts past 1,000,000 with range()",
    ),
    "huge-range": ("{{ range(10**9)|length }}", 1, "counts past 1,000,000 with range()"),
    "repeat": ('<p>\n\n{{ "x" * 10**7 }}</p>', 3, "a value of 10,000,000 letters or items; the bound is 1,000,000"),
    "repeat-list": ("{{ ([1] * 10**7)|length }}", 1, "a value of 10,000,000 letters or items"),
    "power": ("{{ 10 ** 100000000 }}", 1, "a number of about 400,000,000 bits"),
    "zero": ("<p>\n{{ 1/0 }}</p>", 2, "ZeroDivisionError: division by zero"),
    "self-include": ('<p>{% include "_unit.html" %}</p>', 1, "include each other too deeply"),
    "center": ('{{ "x"|center(10**9) }}', 1, "'center' would make a value of 1,000,000,000 letters"),
    "center-method": ('{{ "x".center(10**9) }}', 1, "'center' would make a value of 1,000,000,000 letters"),
    "replace": ('{{ ("x" * 999999)|replace("x", "y" * 999999) }}', 1, "'replace' would make a value"),
    "join": ('{{ (["x" * 999999] * 999999)|join }}', 1, "'join' would make a value"),
    "join-method": ('{{ ("x" * 999999).join(["a"] * 999999) }}', 1, "'join' would make a value"),
    "indent": ('{{ ("\\n" * 999999)|indent(999999) }}', 1, "'indent' would make a value"),
    "syntax": ("<p>\n{% for %}", 2, "Expected an expression"),
    "undefined": ("{{ nothing.here }}", 1, "'nothing' is undefined"),
    "unsafe": ("{{ entry.__class__.__mro__ }}", 1, "is unsafe"),
    "lipsum": ("{{ lipsum(10**6) }}", 1, "'lipsum' is undefined"),
    # widths and repeats in format strings (review: each made a value of 100 million letters or
    # more; "{:>2000000000}" took 3.9 GB)
    "format-width": ('{{ "{:>999999999}".format(1) }}', 1, "a field 999,999,999 wide"),
    "format-nested-width": ('{{ "{:>{}}".format(1, 10**9) }}', 1, "a field 1,000,000,000 wide"),
    "format-precision": ('{{ "{:.999999999f}".format(1.5) }}', 1, "a field 999,999,999 wide"),
    "format-map": ('{{ "{x:0999999999d}".format_map({"x": 1}) }}', 1, "a field 999,999,999 wide"),
    "format-repeat": ('{{ ("{0}" * 999).format("x" * 999999) }}', 1, "'format' would make a value"),
    "percent-width": ('{{ "%999999999d" % 1 }}', 1, "'%' would make a value"),
    "percent-star": ('{{ "%*d" % (10**9, 1) }}', 1, "'%' would make a value"),
    "percent-precision": ('{{ "%.999999999f" % 1.5 }}', 1, "'%' would make a value"),
    "percent-repeat": ('{{ ("%(a)s" * 999) % {"a": "x" * 999999} }}', 1, "'%' would make a value"),
    "format-filter": ('{{ "%999999999d"|format(1) }}', 1, "'%' would make a value"),
}


def render(cli, tmp_path, files: dict[str, bytes | str]):
    templates = tmp_path / "t"
    templates.mkdir()
    for name, content in files.items():
        path = templates / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = tmp_path / "out" / "roster.html"
    out.parent.mkdir()
    return cli("render", ZOMBIES, "--templates", templates, "-o", out), templates, out


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_template_is_exit_2_at_its_file_and_line(cli, tmp_path, case):
    text, line, message = HOSTILE[case]
    result, templates, out = render(cli, tmp_path, {"_unit.html": text})
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: " in result.stderr
    assert f"line {line}: " in result.stderr and message in result.stderr
    assert list(out.parent.iterdir()) == []  # nothing written, not even half


def test_a_binary_template_is_named_with_its_first_bad_byte(cli, tmp_path):
    blob = b"<p>ok</p>\n\xff\xfe" + os.urandom(64)
    result, templates, out = render(cli, tmp_path, {"_unit.html": blob})
    assert result.exit_code == 2
    assert f"{templates / '_unit.html'}: the template is not UTF-8 text" in result.stderr
    assert "line 2: byte 10 cannot be decoded" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_binary_file_included_by_a_template_is_named(cli, tmp_path):
    result, templates, _out = render(
        cli, tmp_path, {"_unit.html": '{% include "picture.html" %}', "picture.html": b"\x89PNG\r\n\x1a\n\x00\xff"}
    )
    assert result.exit_code == 2
    assert f"{templates / 'picture.html'}: the template is not UTF-8 text" in result.stderr


def test_a_huge_template_file_is_refused(cli, tmp_path):
    result, _templates, _out = render(cli, tmp_path, {"_unit.html": "<p>x</p>\n" * 200_000})
    assert result.exit_code == 2 and "a template is at most 1,000,000" in result.stderr


def test_a_loop_that_writes_nothing_is_stopped_at_the_time_bound(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_SECONDS", 1.0)
    loop = '{% set s = "ab" * 400000 %}{% for c in s %}{% for d in s %}{% endfor %}{% endfor %}'
    result, _templates, out = render(cli, tmp_path, {"_unit.html": loop})
    assert result.exit_code == 2
    assert "the render takes more than 1 seconds" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_document_past_the_output_bound_is_refused(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_OUTPUT_CHARS", 50_000)
    result, _templates, _out = render(cli, tmp_path, {"_unit.html": '{{ "y" * 999999 }}'})
    assert result.exit_code == 2 and "grows past 50,000 characters" in result.stderr


def test_a_template_within_the_bounds_renders(cli, tmp_path):
    mine = '<p class="mine">{{ entry.name|center(30) }} {{ "ab"|replace("a", "c") }} {{ ["a", "b"]|join(", ") }}</p>'
    result, _templates, out = render(cli, tmp_path, {"_unit.html": mine + "{% for i in range(1000) %}{% endfor %}"})
    assert result.exit_code == 0, result.stderr
    assert '<p class="mine">            Hunter             cb a, b</p>' in out.read_text()


def test_the_watchdog_never_fires_after_a_render(cli, tmp_path, monkeypatch):
    """A render that ends just before its deadline leaves nothing pending to interrupt later code."""
    import time

    monkeypatch.setattr(budget, "MAX_SECONDS", 0.3)
    for _ in range(3):
        result = cli("render", ZOMBIES, "-o", tmp_path / "r.html")
        assert result.exit_code in (0, 2)
        time.sleep(0.4)  # past the deadline: a stray interruption would land here


def test_ordinary_formatting_within_the_bounds_renders(cli, tmp_path):
    mine = (
        '<p class="mine">{{ "[{:>8}]".format(entry.name) }} {{ "%05.1f" % 2.5 }} {{ "%s-%s"|format("a", "b") }}'
        ' {{ 7 % 3 }} {{ "{n:,}".format_map({"n": 1234567}) }} {{ "%(x)s!" % {"x": entry.name} }}</p>'
    )
    result, _templates, out = render(cli, tmp_path, {"_unit.html": mine})
    assert result.exit_code == 0, result.stderr
    assert '<p class="mine">[  Hunter] 002.5 a-b 1 1,234,567 Hunter!</p>' in out.read_text()
