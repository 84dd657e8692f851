"""A user's templates within a budget: a hostile or broken template is exit 2 naming its file and
line, never a hang, a flood of memory or an internal error (exit 4). The built-in templates are
listbuilder's own code and render with no budget at all.

Each test writes a real template folder, renders a list through it as a user would, and checks
the message and that no output was written. The budget's clock is checked by the template's own
code, on the thread that renders: no render starts a thread.
"""

from __future__ import annotations

import os
import threading
import time

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


@pytest.fixture
def no_thread(monkeypatch):
    """Any thread started from here on fails the test (and the render, as an internal error)."""
    before = threading.active_count()

    def refuse(self):
        raise AssertionError(f"a render started a thread: {self!r}")

    monkeypatch.setattr(threading.Thread, "start", refuse)
    yield
    assert threading.active_count() == before


def test_the_built_in_templates_render_with_no_budget_and_no_thread(cli, tmp_path, monkeypatch, no_thread):
    # With no time at all, any budget would end the render at its first step: the built-in
    # templates have none, and no watchdog, so the roster is written as ever.
    monkeypatch.setattr(budget, "MAX_SECONDS", 0.0)
    out = tmp_path / "roster.html"
    result = cli("render", ZOMBIES, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "Hunter" in out.read_text()


def test_a_users_template_past_its_deadline_ends_there_and_leaves_nothing_behind(cli, tmp_path, monkeypatch, no_thread):
    """No thread is started for the budget, and nothing is pending to interrupt later code."""
    monkeypatch.setattr(budget, "MAX_SECONDS", 0.0)
    result, _templates, out = render(cli, tmp_path, {"_unit.html": "<p>{{ entry.name }}</p>"})
    # the stylesheet renders first, within the user's folder's budget as every template there
    assert result.exit_code == 2
    assert result.stderr.startswith("error: print.css: a template cannot be used\n")
    assert "the render takes more than 0 seconds" in result.stderr
    assert list(out.parent.iterdir()) == []
    time.sleep(0.2)  # past the render's deadline: a stray interruption would land here
    later = cli("render", ZOMBIES, "-o", tmp_path / "later.html")
    assert later.exit_code == 0, later.stderr


# Templates that would take hours or a flood of memory, each with the bound that ends it. They
# repeat work in every way a template can: loops, nested, filtered, recursive; macros calling
# themselves, twice, through caller(); and filters or tests applied to each item by name.
ENDLESS = {
    "nested-loops": '{% set s = "ab" * 400000 %}{% for c in s %}{% for d in s %}{% endfor %}{% endfor %}',
    "loop-filter": "{% set l = [1] * 10**6 %}{% for i in l if -1 in l %}{% endfor %}",
    "recursive-loop": (
        "{% set l = [1] * 10**6 %}{% for x in [1] recursive %}{% if loop.depth < 3 %}{{ loop(l) }}{% endif %}"
        "{% endfor %}"
    ),
    "macro-doubling": "{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(60) }}",
    "caller-doubling": (
        "{% macro twice() %}{{ caller() }}{{ caller() }}{% endmacro %}{% macro m(n) %}{% if n %}{% call twice() %}"
        "{{ m(n - 1) }}{% endcall %}{% endif %}{% endmacro %}{{ m(30) }}"
    ),
    "map-by-name": "{{ ([[1] * 10**6] * 10**6)|map('sum')|list|length }}",
    "select-by-name": "{{ ([[1] * 10**6] * 10**6)|map('list')|select('sameas', 0)|list|length }}",
}


@pytest.mark.parametrize("case", sorted(ENDLESS))
def test_work_without_end_stops_at_the_time_bound(cli, tmp_path, monkeypatch, no_thread, case):
    monkeypatch.setattr(budget, "MAX_SECONDS", 0.5)
    result, templates, out = render(cli, tmp_path, {"_unit.html": ENDLESS[case]})
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: a template cannot be used" in result.stderr
    assert "line 1: the render takes more than 0.5 seconds (a template may do at most" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_folder_named_by_the_environment_keeps_the_budget(cli, tmp_path, monkeypatch, no_thread):
    monkeypatch.setattr(budget, "MAX_SECONDS", 0.5)
    templates = tmp_path / "t"
    templates.mkdir()
    (templates / "_unit.html").write_text(ENDLESS["nested-loops"], encoding="utf-8")
    out = tmp_path / "out" / "roster.html"
    out.parent.mkdir()
    result = cli(
        "render", ZOMBIES, "-o", out, env={"LISTBUILDER_CATALOGS": "", "LISTBUILDER_TEMPLATES": str(templates)}
    )
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: a template cannot be used" in result.stderr
    assert "line 1: the render takes more than 0.5 seconds" in result.stderr
    assert list(out.parent.iterdir()) == []


@pytest.mark.parametrize(
    "text",
    [
        "{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}",
        "{% for x in [1] recursive %}{{ loop([1, 2]) }}{% endfor %}",
        "{% macro twice() %}{{ caller() }}{% endmacro %}{% macro m() %}{% call twice() %}{{ m() }}{% endcall %}"
        "{% endmacro %}{{ m() }}",
    ],
)
def test_recursion_without_end_is_too_deep(cli, tmp_path, no_thread, text):
    result, templates, out = render(cli, tmp_path, {"_unit.html": text})
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: a template cannot be used" in result.stderr
    assert "templates include each other too deeply" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_macro_that_doubles_its_output_stops_at_the_output_bound(cli, tmp_path, monkeypatch, no_thread):
    # 100,000 letters doubled 40 times: the macro's own value goes past the bound (1,600,000
    # letters after four doublings) long before the time bound or the memory
    monkeypatch.setattr(budget, "MAX_OUTPUT_CHARS", 1_000_000)
    text = '{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% else %}{{ "x" * 100000 }}{% endif %}{% endmacro %}'
    result, templates, out = render(cli, tmp_path, {"_unit.html": text + "{{ m(40) }}"})
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: a template cannot be used" in result.stderr
    assert "line 1: the document grows past 1,000,000 characters" in result.stderr
    assert list(out.parent.iterdir()) == []


def test_a_macro_within_the_output_bound_renders(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "MAX_OUTPUT_CHARS", 1_000_000)
    text = '{% macro m(n) %}{% if n %}{{ m(n - 1) }}{{ m(n - 1) }}{% else %}{{ "x" * 40000 }}{% endif %}{% endmacro %}'
    # 40,000 letters doubled 4 times is 640,000, once in a document of about 330,000 more
    once = "{% if entry.name == 'Hunter' %}{{ m(4) }}{% endif %}"
    result, _templates, out = render(cli, tmp_path, {"_unit.html": text + once})
    assert result.exit_code == 0, result.stderr
    written = out.read_text()
    assert "x" * 640_000 in written and "x" * 640_001 not in written


DOUBLING = '{% set ns = namespace(s="x") %}{% for i in range(N) %}{% set ns.s = ns.s OP ns.s %}{% endfor %}'


@pytest.mark.parametrize("op", ["~", "+"])
def test_a_text_doubled_in_a_loop_stops_at_the_output_bound(cli, tmp_path, monkeypatch, no_thread, op):
    # doubled 64 times it would be 18 billion billion letters: the 20th doubling (1,048,576) is
    # the first past the bound, and the 19th (524,288) is within it
    monkeypatch.setattr(budget, "MAX_OUTPUT_CHARS", 1_000_000)
    text = DOUBLING.replace("OP", op).replace("N", "64")
    result, templates, out = render(cli, tmp_path, {"_unit.html": "\n" + text})
    assert result.exit_code == 2, result.stderr
    assert f"{templates / '_unit.html'}: a template cannot be used" in result.stderr
    assert f"line 2: '{op}' makes a value of 1,048,576 letters or items; the bound is 1,000,000" in result.stderr
    assert list(out.parent.iterdir()) == []
    within = DOUBLING.replace("OP", op).replace("N", "19") + "{{ ns.s|length }}"
    (tmp_path / "within").mkdir()
    result, _templates, out = render(cli, tmp_path / "within", {"_unit.html": within})
    assert result.exit_code == 0, result.stderr
    assert "524288" in out.read_text()


def test_ordinary_formatting_within_the_bounds_renders(cli, tmp_path):
    mine = (
        '<p class="mine">{{ "[{:>8}]".format(entry.name) }} {{ "%05.1f" % 2.5 }} {{ "%s-%s"|format("a", "b") }}'
        ' {{ 7 % 3 }} {{ "{n:,}".format_map({"n": 1234567}) }} {{ "%(x)s!" % {"x": entry.name} }}</p>'
    )
    result, _templates, out = render(cli, tmp_path, {"_unit.html": mine})
    assert result.exit_code == 0, result.stderr
    assert '<p class="mine">[  Hunter] 002.5 a-b 1 1,234,567 Hunter!</p>' in out.read_text()
