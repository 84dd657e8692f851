"""A package's face whose names are imported on first use (PEP 562), a start-up measure.

``api`` and ``editing`` each give a table of where their names come from; importing the package
loads none of those modules, and a name's module is imported the first time the name is used.
"""

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def modules_of(table: Mapping[str, str]) -> dict[str, str]:
    """Each name of ``table`` (a module -> its names, space-separated) with its module."""
    return {name: module for module, names in table.items() for name in names.split()}


def names_getattr(
    package: dict[str, Any], modules: Mapping[str, str], wrap: Callable[[Any], Any] = lambda value: value
) -> Callable[[str], Any]:
    """The ``__getattr__`` of the package whose globals are ``package``: a name of ``modules``
    imported from its module, made ``wrap(value)`` and kept in the package, once."""

    def __getattr__(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package['__name__']!r} has no attribute {name!r}")
        value = wrap(getattr(import_module(module), name))
        package[name] = value
        return value

    return __getattr__
