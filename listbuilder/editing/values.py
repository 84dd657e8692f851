"""The values a change is given, checked before anything is planned: counts, names, limits."""

from __future__ import annotations

from listbuilder.editing.yamltext import is_printable_line
from listbuilder.errors import InputError


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
    """A limit given as a number or as text: a whole number of at least 1."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise bad_limit(key, value)
    return value


def bad_limit(key: str, value: object) -> InputError:
    return InputError.detailed(
        f"the limit must be a whole number of at least 1, found {value!r}",
        f"'{key}' counts the size of a game",
        hint=f"for example: {key} 100",
    )
