"""The values a change is given, checked before anything is planned: counts, names, limits."""

from __future__ import annotations

from listbuilder.editing.yamltext import is_printable_line
from listbuilder.errors import Action, InputError
from listbuilder.rules.listformat import MAX_LIMIT


def check_count(count: object, verb: str) -> None:
    """A count of models to add or remove: a whole number of at least 1."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InputError.detailed(
            f"the number of models to {verb} must be a whole number of at least 1, found {count!r}",
            "give a count of 1 or more",
        )


def check_name(name: str) -> str:
    """A list's name: one line of text, stripped."""
    name = name.strip()
    if not name or not is_printable_line(name):
        raise InputError.detailed(
            "a list's name must be one line of text", f"found {name!r}", hint="give a name such as 'Zombie Family'"
        )
    return name


def parse_limit(key: str, value: object) -> int:
    """A limit given as a number or as text: a whole number from 1 to ``MAX_LIMIT``."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value)
    check_limit(key, value)
    assert isinstance(value, int)  # checked: a whole number
    return value


def check_limit(key: str, value: object) -> None:
    """Refuse a limit that is not a whole number from 1 to ``MAX_LIMIT``, as the list reader does."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad_limit(key, f"the limit must be a whole number of at least 1, found {value!r}")
    if value > MAX_LIMIT:
        raise _bad_limit(key, f"the limit must be at most {MAX_LIMIT:,}, found {value:,}")


def _bad_limit(key: str, summary: str) -> InputError:
    # the size of a game, and how to give it: each face words the step (a command, a form's field)
    return InputError.detailed(
        summary,
        f"'{key}' counts the size of a game",
        action=Action(kind="limit", example=(("key", key), ("most", str(MAX_LIMIT)))),
    )
