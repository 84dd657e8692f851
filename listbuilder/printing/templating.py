"""Templates as listbuilder reads and renders them: a user's template files checked as text,
and every failure inside a template worded as the user meets it.

Two environments render templates (``html.py``): the built-in templates alone are listbuilder's
own code, rendered by ``render_trusted`` without a budget; a user's folder (``--templates``) is
rendered within the budget of ``budget.py``. Both word a failure the same way: an ``InputError``
(exit code 2) naming the template file and line.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from listbuilder.errors import InputError
from listbuilder.files.reading import TooLarge, read_file

MAX_TEMPLATE_BYTES = 1_000_000
TOO_DEEP = "templates include each other too deeply (does one include itself?)"


class OverBudget(Exception):
    """A template went past one of the bounds of its budget (``budget.py``)."""


class TextLoader(jinja2.FileSystemLoader):
    """Templates from folders, each a UTF-8 text file of at most ``MAX_TEMPLATE_BYTES``."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        for folder in self.searchpath:
            path = Path(folder) / template
            if path.is_file():
                break
        else:
            return super().get_source(environment, template)  # raises TemplateNotFound
        try:
            raw = read_file(path, MAX_TEMPLATE_BYTES)
        except TooLarge as exc:
            raise InputError(
                f"the template is {exc.size:,} bytes; a template is at most {MAX_TEMPLATE_BYTES:,}",
                file=path,
            ) from None
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError.detailed(
                "the template is not UTF-8 text",
                f"byte {exc.start} cannot be decoded",
                file=path,
                line=raw[: exc.start].count(b"\n") + 1,
                hint="a template folder holds only .html and .css text files",
            ) from None
        return super().get_source(environment, template)


def render_trusted(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    """Render template ``name`` of the built-in templates; a failure is worded as a user's is."""
    return rendered(name, lambda: env.get_template(name).render(context))


def rendered(name: str, render: Callable[[], str]) -> str:
    """What ``render`` returns; any failure inside it an ``InputError`` naming the template's place."""
    try:
        return render()
    except InputError:
        raise
    except RecursionError as exc:
        raise _located(exc, name, TOO_DEEP) from None
    except Exception as exc:
        raise _located(exc, name) from None


def _located(exc: BaseException, name: str, message: str | None = None) -> InputError:
    """The error as the user meets it: the template file and line, and what went wrong there."""
    where: str | None = getattr(exc, "filename", None)
    line: int | None = getattr(exc, "lineno", None)
    if where is None:
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            # Jinja gives a template's frames its file's name; every other frame is Python's
            if not frame.filename.endswith(".py") and not frame.filename.startswith("<"):
                where, line = frame.filename, frame.lineno
                break
    text = message or str(getattr(exc, "message", None) or exc)
    if not isinstance(exc, (OverBudget, jinja2.TemplateError)) and message is None:
        text = f"{type(exc).__name__}: {text}"
    hint = "a template may do at most a bounded amount of work" if isinstance(exc, OverBudget) else None
    return InputError.detailed("a template cannot be used", text, file=Path(where or name), line=line, hint=hint)
