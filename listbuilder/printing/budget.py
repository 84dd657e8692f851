"""A budget for rendering a user's templates, so that none hangs a render, fills the memory or
ends in an internal error.

Jinja's sandbox already keeps a template from reaching Python's internals; it does not bound
the work. A nested ``range`` loop, ``"x" * 10**7`` (a ten-million-letter word that the PDF
writer then tries to lay out), ``{{ 1/0 }}``, a template that includes itself or a binary file
in the template folder used to hang or end with exit code 4. Under this budget each render:

- creates at most ``MAX_RANGE_STEPS`` numbers with ``range`` in all, makes no single value (by
  ``*`` or ``**``) of more than ``MAX_VALUE_SIZE`` letters or items (or ``MAX_INT_BITS`` bits),
  and writes at most ``MAX_OUTPUT_CHARS`` characters of HTML (nor makes a longer value by ``+``
  or ``~``, nor returns one from a macro: a value doubled at each step outgrows any memory);
- ends within ``MAX_SECONDS`` of wall time. The template's own code checks the clock, on the
  thread that renders: every item a ``for`` loop (or a recursive ``loop()``) takes, every call it
  makes (a macro, ``caller()``, a method) and every filter or test that ``map``, ``select`` and
  their kin apply by name. Those are the only ways a template repeats work: each other step
  (a filter, an operator) works once on a value the bounds above keep small. So no thread is
  started and nothing is ever interrupted from outside (``_parse`` puts the checks of each loop
  and each ``~`` into the template's code);
- reads templates that are UTF-8 text files of at most ``MAX_TEMPLATE_BYTES`` (``templating.py``).

Every failure inside a template (a budget, a Python error such as a division by zero, a
template including itself without end) becomes an ``InputError`` (exit code 2) naming the
template file and line (``templating.py``). The bounds are far above what the built-in templates
need for a list of 20,000 entries. The built-in templates alone are listbuilder's own code:
they render in a plain environment, with the same errors and no budget (``html.py`` chooses).
"""

from __future__ import annotations

import contextvars
import operator
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from listbuilder.printing.templating import OverBudget, rendered

MAX_RANGE_STEPS = 1_000_000
MAX_VALUE_SIZE = 1_000_000
MAX_INT_BITS = 100_000
MAX_OUTPUT_CHARS = 100_000_000
MAX_SECONDS = 30.0


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds
        self.steps = 0
        self.chars = 0

    def spend(self, steps: int) -> None:
        self.steps += steps
        if self.steps > MAX_RANGE_STEPS:
            raise OverBudget(f"the template counts past {MAX_RANGE_STEPS:,} with range()")

    def tick(self) -> None:
        """One step of repeated work: past the deadline, the render ends here."""
        if time.monotonic() > self.deadline:
            raise OverBudget(f"the render takes more than {self.seconds:g} seconds")

    def counted(self, items: Iterable[Any]) -> Iterator[Any]:
        for item in items:
            self.tick()
            yield item


_CURRENT: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("template_budget", default=None)


def _range(*args: int) -> range:
    numbers = range(*args)
    budget = _CURRENT.get()
    if budget is not None:
        budget.spend(len(numbers))
    return numbers


# The filter that counts a loop's items; a space keeps any template from naming it.
_COUNTED = "budget counted"


@jinja2.pass_context  # takes the context, so Jinja never runs it while compiling (constant folding)
def _counted(context: jinja2.runtime.Context, items: Iterable[Any]) -> Iterable[Any]:
    budget = _CURRENT.get()
    return items if budget is None else budget.counted(items)


# The filter that checks what a '~' joined (a text doubled in a loop grows past any memory).
_CONCAT = "budget concat"


@jinja2.pass_context  # as _counted: never run while compiling
def _concat(context: jinja2.runtime.Context, text: Any) -> Any:
    return _joined_within("~", text)


def _joined_within(operator_name: str, value: Any) -> Any:
    """``value``, made by joining two values, unless it is longer than a whole document may be."""
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_OUTPUT_CHARS:
        raise OverBudget(
            f"'{operator_name}' makes a value of {len(value):,} letters or items; the bound is {MAX_OUTPUT_CHARS:,}"
        )
    return value


class _Rewrite(NodeTransformer):
    """Puts the budget's checks into a template's syntax tree (``BudgetedEnvironment._parse``)."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, _COUNTED, [], [], None, None, lineno=node.iter.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return nodes.Filter(node, _CONCAT, [], [], None, None, lineno=node.lineno)


def _sized(value: Any) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > MAX_INT_BITS:
        raise OverBudget(f"a number of more than {MAX_INT_BITS:,} bits")


class BudgetedEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox, with ``*``, ``**`` and ``%`` checked for size before they run and ``+`` and ``~``
    after, a counted ``range``, and the clock checked at each loop's item, each call and each
    filter or test applied by name."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals["range"] = _range
        self.globals.pop("lipsum", None)  # lipsum(n) writes n paragraphs: nothing a roster needs
        for name, method in _GROWING.items():
            if name in self.filters:
                self.filters[name] = _checked(self.filters[name], method)
        self.filters["format"] = _checked_percent(self.filters["format"])
        self.filters[_COUNTED] = _counted
        self.filters[_CONCAT] = _concat

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """The template's syntax tree, each ``for`` loop taking its items through ``_counted``
        and each ``~`` handing what it joined to ``_concat``."""
        tree = _Rewrite().visit(super()._parse(source, name, filename))
        assert isinstance(tree, nodes.Template)
        tree.set_environment(self)
        return tree

    def call_filter(self, name: str, value: Any, *args: Any, **kwargs: Any) -> Any:
        """A filter applied by name (``map("upper")``): once for each item of a value."""
        budget = _CURRENT.get()
        if budget is not None:
            budget.tick()
        return super().call_filter(name, value, *args, **kwargs)

    def call_test(self, name: str, value: Any, *args: Any, **kwargs: Any) -> Any:
        """A test applied by name (``select("odd")``): once for each item of a value."""
        budget = _CURRENT.get()
        if budget is not None:
            budget.tick()
        return super().call_test(name, value, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``str.format_map`` as the sandbox runs them, each field checked."""
        if super().wrap_str_format(value) is None:
            return None
        text: str = value.__self__
        formatter: SandboxedFormatter = (
            _BudgetedEscapeFormatter(self, escape=text.escape) if isinstance(text, Markup) else _BudgetedFormatter(self)
        )

        def wrapper(*args: Any, **kwargs: Any) -> str:
            if value.__name__ == "format_map":
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                return type(text)(formatter.vformat(text, (), args[0]))
            return type(text)(formatter.vformat(text, args, kwargs))

        return wrapper

    def call(self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        """Every call a template makes: a macro, ``caller()``, ``loop()``, a method."""
        budget = _CURRENT.get()
        if budget is not None:
            budget.tick()
            if isinstance(__obj, LoopContext) and args:  # a recursive loop's next level: counted too
                args = (budget.counted(args[0]), *args[1:])
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, str) and name in _GROWING:
            _check_growth(name, owner, args, kwargs)
        made = super().call(__context, __obj, *args, **kwargs)
        if isinstance(made, str) and len(made) > MAX_OUTPUT_CHARS:  # a macro that doubles its output
            raise OverBudget(f"the document grows past {MAX_OUTPUT_CHARS:,} characters")
        return made

    def call_binop(self, context: jinja2.runtime.Context, operator_name: str, left: Any, right: Any) -> Any:
        if operator_name == "*":
            for seq, times in ((left, right), (right, left)):
                size = len(seq) * times if isinstance(seq, (str, list, tuple)) and isinstance(times, int) else 0
                if size > MAX_VALUE_SIZE:
                    raise OverBudget(f"a value of {size:,} letters or items; the bound is {MAX_VALUE_SIZE:,}")
            result = operator.mul(left, right)
        elif operator_name == "%":
            if isinstance(left, str):
                _check_percent(left, right)
            result = operator.mod(left, right)
        elif operator_name == "+":
            result = _joined_within("+", operator.add(left, right))
        else:
            bits = max(left.bit_length(), 1) * right if isinstance(left, int) and isinstance(right, int) else 0
            if bits > MAX_INT_BITS:
                raise OverBudget(f"a number of about {bits:,} bits; the bound is {MAX_INT_BITS:,}")
            result = operator.pow(left, right)
        _sized(result)
        return result


def _width(value: str, args: tuple[Any, ...], kwargs: dict[str, Any], key: str = "width") -> int:
    width = args[0] if args else kwargs.get(key, 0)
    return width if isinstance(width, int) else 0


def _replaced(value: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    old, new = [*args, None, None][:2]
    if not isinstance(old, str) or not isinstance(new, str):
        return 0
    return len(value) + (value.count(old) if old else len(value) + 1) * max(len(new) - len(old), 0)


def _joined(value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    glue, items = (value, args[0] if args else ()) if isinstance(value, str) else (args[0] if args else "", value)
    if not isinstance(items, (list, tuple)):
        return 0
    return sum(len(i) if isinstance(i, str) else 20 for i in items) + len(items) * len(str(glue))


def _indented(value: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    width = args[0] if args else kwargs.get("width", 4)
    step = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
    return len(value) + (value.count("\n") + 1) * step


# Filters and text methods whose result can be far larger than their input, and its size.
_GROWING: dict[str, Callable[[Any, tuple[Any, ...], dict[str, Any]], int]] = {
    "center": _width,
    "ljust": _width,
    "rjust": _width,
    "zfill": _width,
    "replace": _replaced,
    "join": _joined,
    "indent": _indented,
    "expandtabs": lambda v, a, k: len(v) * max(_width(v, a, k, "tabsize"), 1),
}


def _check_growth(name: str, value: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    size = _GROWING[name](value, args, kwargs) if isinstance(value, (str, list, tuple)) else 0
    if size > MAX_VALUE_SIZE:
        raise OverBudget(f"'{name}' would make a value of {size:,} letters; the bound is {MAX_VALUE_SIZE:,}")


def _checked(fn: Callable[..., Any], size: Any) -> Callable[..., Any]:
    """``fn`` (a Jinja filter) refusing to make a value past ``MAX_VALUE_SIZE``."""
    name = next(n for n, m in _GROWING.items() if m is size)
    passes = getattr(fn, "jinja_pass_arg", None)  # then Jinja gives a context before the value

    def guarded(*args: Any, **kwargs: Any) -> Any:
        value, rest = (args[1], args[2:]) if passes is not None else (args[0], args[1:])
        _check_growth(name, value, rest, kwargs)
        return fn(*args, **kwargs)

    if passes is not None:
        guarded.jinja_pass_arg = passes  # type: ignore[attr-defined]  # the mark Jinja reads off a function
    return guarded


# A printf-style conversion: its mapping key, width and precision ('*' takes them from the values).
_CONVERSION = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.S)
_NUMBER_LETTERS = 400  # the most letters a number takes in a conversion, beside its width (a float's %f)


def _check_percent(fmt: str, values: Any) -> None:
    """Refuse ``fmt % values`` when it could make a value past ``MAX_VALUE_SIZE``: each conversion
    takes at most its width and precision and the longest of the values as text."""
    items = tuple(values.values()) if isinstance(values, dict) else values if isinstance(values, tuple) else (values,)
    widest = max((v for v in items if isinstance(v, int) and not isinstance(v, bool)), default=0)
    longest = max((len(v) for v in items if isinstance(v, str)), default=0) + _NUMBER_LETTERS
    size = len(fmt)
    for width, precision, kind in _CONVERSION.findall(fmt):
        if kind == "%":
            continue
        size += sum(widest if n == "*" else int(n or 0) for n in (width, precision)) + longest
    if size > MAX_VALUE_SIZE:
        raise OverBudget(f"'%' would make a value of about {size:,} letters; the bound is {MAX_VALUE_SIZE:,}")


def _checked_percent(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The ``format`` filter (``fmt % values``) checked as the ``%`` operator is."""

    def guarded(value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            _check_percent(value, kwargs or args)
        return fn(value, *args, **kwargs)

    return guarded


# A format spec's width and precision: [[fill]align][sign][z][#][0][width][grouping][.precision]
_SPEC = re.compile(r"(?:.?[<>=^])?[-+ ]?z?#?0?(\d*)[,_]?(?:\.(\d+))?", re.S)


class _BudgetedFormatter(SandboxedFormatter):
    """``str.format`` in the sandbox, refusing a field wider than ``MAX_VALUE_SIZE`` before it is
    made, and a result longer than that as it grows (a field repeated many times)."""

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        self._made = len(format_string)
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> Any:
        match = _SPEC.match(format_spec)
        wide = max((int(n) for n in match.groups() if n), default=0) if match else 0
        if wide > MAX_VALUE_SIZE:
            raise OverBudget(f"a field {wide:,} wide; the bound is {MAX_VALUE_SIZE:,}")
        made = super().format_field(value, format_spec)
        self._made += len(made)
        if self._made > MAX_VALUE_SIZE:
            raise OverBudget(f"'format' would make a value of more than {MAX_VALUE_SIZE:,} letters")
        return made


class _BudgetedEscapeFormatter(_BudgetedFormatter, SandboxedEscapeFormatter):
    """The same, for a ``Markup`` format string (its values escaped)."""


def render(env: jinja2.Environment, name: str, context: dict[str, Any], seconds: float | None = None) -> str:
    """Render template ``name`` within the budget; any failure is an ``InputError`` naming the place."""
    budget = _Budget(MAX_SECONDS if seconds is None else seconds)
    token = _CURRENT.set(budget)
    try:
        return rendered(name, lambda: _within(budget, env.get_template(name).generate(context)))
    finally:
        _CURRENT.reset(token)


def _within(budget: _Budget, pieces: Iterable[str]) -> str:
    parts = []
    for piece in pieces:
        budget.chars += len(piece)
        if budget.chars > MAX_OUTPUT_CHARS:
            raise OverBudget(f"the document grows past {MAX_OUTPUT_CHARS:,} characters")
        budget.tick()
        parts.append(piece)
    return "".join(parts)
