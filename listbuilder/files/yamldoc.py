"""Read a YAML file safely, remembering where each value stood.

Every file we are handed may be broken or hostile, so this refuses (with a located
``InputError``) anything a list or catalog never needs: aliases (a 200-byte "billion laughs"
file would otherwise expand without bound), duplicate keys, non-text keys, very deep nesting
and very large files. Values come back as plain dicts, lists and scalars, with a map from each
data path to its line and column for error messages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from listbuilder.errors import Action, ErrorDetail, InputError, Location
from listbuilder.files.pyyaml import Loader as _Loader
from listbuilder.files.reading import MAX_FILE_BYTES, read_text

MAX_DEPTH = 32
# A text can nest deeper than MAX_DEPTH only through more flow brackets than that, or a line whose
# indentation and block markers ("- ", "? ") are wider than that: a quick screen for both.
_MAYBE_DEEP_LINE = re.compile(rf"^[ ?-]{{{MAX_DEPTH},}}", re.MULTILINE)


class Document:
    """A parsed YAML file: its data and the line/column (1-based) of every value in it.

    Not a record: ``data`` is the file's plain dicts and lists exactly as written, which the
    readers check and turn into (deeply immutable) records; a Document never leaves a reader.
    """

    __slots__ = ("data", "key_positions", "node", "path", "positions", "text")

    def __init__(
        self,
        *,
        path: Path,
        data: Any,
        positions: dict[Location, tuple[int, int]],
        text: str,
        key_positions: dict[Location, tuple[int, int]] | None = None,
        node: yaml.Node | None = None,
    ) -> None:
        self.node = node  # the composed tree, kept only when asked for (an edit plans its splices on it)
        self.path = path
        self.data = data
        self.positions = positions
        self.text = text
        self.key_positions = key_positions if key_positions is not None else {}

    def locate(self, path: Location, key: bool = False) -> tuple[int | None, int | None]:
        """The line and column of the value at ``path`` (of its key, if ``key``), or of its
        nearest ancestor that has one."""
        if key and tuple(path) in self.key_positions:
            return self.key_positions[tuple(path)]
        for cut in range(len(path), -1, -1):
            pos = self.positions.get(tuple(path[:cut]))
            if pos:
                return pos
        return None, None

    def detail(
        self, path: Location, message: str, hint: str | None = None, key: bool = False, action: Action | None = None
    ) -> ErrorDetail:
        """An ``ErrorDetail`` located at ``path`` in this document (at its key, if ``key``)."""
        line, column = self.locate(path, key)
        return ErrorDetail(message=message, path=path, line=line, column=column, hint=hint, action=action)

    def error(self, summary: str, details: list[ErrorDetail], cls: type[InputError] = InputError) -> InputError:
        return cls(summary=summary, file=self.path, details=details)


def load_yaml(path: Path, what: str = "file") -> Document:
    """Parse ``path`` as YAML into a ``Document``; raise ``InputError`` on anything unsafe or broken."""
    text = read_text(path, what)
    return parse_yaml(text, path)


def parse_yaml(text: str, path: Path, *, keep_node: bool = False) -> Document:
    """Parse YAML text (already read from ``path``) into a ``Document`` (with its node tree, if
    ``keep_node``).

    Text handed over directly (pasted into the web builder, given to the API) is held to the
    same size as a file, so no caller can make the parser do unbounded work."""
    if len(text) > MAX_FILE_BYTES:
        raise InputError.detailed(
            f"the text is {len(text):,} characters; a YAML text is at most {MAX_FILE_BYTES:,}",
            "no list or catalog is anywhere near this long",
            file=path,
        )
    if "\x00" in text:
        raise InputError("the file holds a NUL character, so it is not a YAML text file", file=path)
    _refuse_deep_nesting(text, path)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = exc.problem or exc.context or "invalid YAML"
        at = text[mark.index] if mark and mark.index < len(text) else ""
        raise InputError.detailed(
            "this is not valid YAML", problem, file=path, line=line, column=col, hint=_yaml_hint(problem, at)
        ) from None
    except yaml.YAMLError as exc:
        raise InputError.detailed("this is not valid YAML", str(exc), file=path) from None
    except RecursionError:
        raise InputError("the YAML is nested far too deeply", file=path) from None
    finally:
        loader.dispose()
    if node is None:
        return Document(path=path, data=None, positions={}, text=text)
    walker = _Walker(path, loader)
    data = walker.convert(node, (), 0)
    return Document(
        path=path,
        data=data,
        positions=walker.positions,
        text=text,
        key_positions=walker.key_positions,
        node=node if keep_node else None,
    )


def _refuse_deep_nesting(text: str, path: Path) -> None:
    """Refuse a text nested more than MAX_DEPTH levels before it is composed.

    libyaml's composer recurses in C once per level, so a few hundred thousand ``[`` overflow the
    C stack and kill the process before Python's recursion limit sees them. Its parser is a loop,
    though: where the quick screen says the text could be deep, its events are counted first."""
    if text.count("[") + text.count("{") <= MAX_DEPTH and not _MAYBE_DEEP_LINE.search(text):
        return
    loader = _Loader(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    raise InputError.detailed(
                        "this file cannot be used",
                        f"the data is nested more than {MAX_DEPTH} levels deep",
                        file=path,
                        line=mark.line + 1 if mark else None,
                        column=mark.column + 1 if mark else None,
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return  # broken YAML: composing it reports the error, with its place
    finally:
        loader.dispose()


def _yaml_hint(problem: str, at: str) -> str | None:
    if at == "\t" or "'\\t'" in problem:
        return "indent with spaces, not tabs"
    if "mapping values are not allowed" in problem:
        return "put a space after each ':' and quote text that holds ': '"
    return None


# The tags plain YAML resolves to; anything else ('!!python/object', '!custom') is refused.
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("map", "seq", "str", "int", "float", "bool", "null", "timestamp")
)
_STR_TAG = "tag:yaml.org,2002:str"


# YAML 1.1 reads '1:30' as 90 (base 60), '0x10' as 16, '0b11' as 3, '010' as 8 and '1__0' as 10;
# a list or catalog never means those, so only plain decimal numbers are numbers (as '0o17' is
# text), digits grouped by single underscores between them ('1_000') included.
_NUMBER_TAGS = frozenset({"tag:yaml.org,2002:int", "tag:yaml.org,2002:float"})
_PLAIN_NUMBER = re.compile(
    r"[-+]?(0|[1-9][0-9]*(_[0-9]+)*)(\.[0-9]*)?([eE][-+]?[0-9]+)?|[-+]?\.[0-9]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)"
)
# YAML 1.1 also reads 'yes', 'no', 'on', 'off', 'y' and 'n' as true or false; only true and false are.
_BOOL_TAG = "tag:yaml.org,2002:bool"
_PLAIN_BOOL = frozenset({"true", "false"})


def _odd_number(text: str, value: Any) -> tuple[str, str]:
    """The message and hint for a number YAML 1.1 reads in a base nobody meant."""
    shown = f"{value:g}" if isinstance(value, float) else str(value)
    if ":" in text:
        kind = "a base-60 (sexagesimal) number"
    elif text.lstrip("+-").lower().startswith("0x"):
        kind = "a hexadecimal number"
    elif text.lstrip("+-").lower().startswith("0b"):
        kind = "a binary number"
    elif "_" in text:
        kind = "a number with its underscores dropped"
    else:
        digits = text.lstrip("+-").lstrip("0_") or "0"
        return (
            f"'{text}' would be read as an octal number (a leading 0 means base 8), {shown}",
            f"write it without the leading 0 ({digits}), or quote '{text}' to make it text",
        )
    return (
        f"'{text}' would be read as {kind}, {shown}",
        f"write a plain whole number such as {shown}, or quote '{text}' to make it text",
    )


class _Walker:
    """Turns a composed node tree into plain data, recording positions and refusing aliases."""

    def __init__(self, path: Path, loader: Any) -> None:
        self.path = path
        self.loader = loader
        self.positions: dict[Location, tuple[int, int]] = {}
        self.key_positions: dict[Location, tuple[int, int]] = {}
        self.seen: set[int] = set()

    def fail(self, node: yaml.Node, message: str, hint: str | None = None) -> InputError:
        mark = node.start_mark
        return InputError.detailed(
            "this file cannot be used", message, file=self.path, line=mark.line + 1, column=mark.column + 1, hint=hint
        )

    def convert(self, node: yaml.Node, path: Location, depth: int) -> Any:
        if id(node) in self.seen:
            raise self.fail(node, "YAML aliases (*name) are not allowed", "write the value out in full")
        self.seen.add(id(node))
        if depth > MAX_DEPTH:
            raise self.fail(node, f"the data is nested more than {MAX_DEPTH} levels deep")
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if node.tag not in _PLAIN_TAGS:
            raise self.fail(
                node, f"the YAML tag '{node.tag}' is not allowed", "remove the '!' tag; lists need only plain values"
            )
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise self.fail(key_node, "YAML merge keys (<<) are not allowed", "write the keys out in full")
                if not isinstance(key_node, yaml.ScalarNode):
                    raise self.fail(key_node, "a key must be plain text, not a list or mapping")
                key = self.scalar(key_node)
                if not isinstance(key, str):
                    key = key_node.value  # numbers and booleans as keys: keep the text as written
                if key in out:
                    line = self.key_positions[(*path, key)][0]
                    raise self.fail(
                        key_node, f"the key '{key}' appears twice (first on line {line})", "remove one of them"
                    )
                self.key_positions[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.convert(value_node, (*path, key), depth + 1)
            return out
        if not isinstance(node, yaml.ScalarNode):  # a sequence: the composer builds no other node
            return [self.convert(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        value = self.scalar(node)
        if node.tag in _NUMBER_TAGS and not node.style and not _PLAIN_NUMBER.fullmatch(node.value):
            raise self.fail(node, *_odd_number(node.value, value))
        if node.tag == _BOOL_TAG and node.value.lower() not in _PLAIN_BOOL:
            word = "true" if value else "false"
            raise self.fail(
                node,
                f"'{node.value}' would be read as {word} (an old YAML spelling)",
                f"write {word}, or quote '{node.value}' to make it text",
            )
        return value

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _STR_TAG:  # most scalars are text: what the constructor would return, minus its overhead
            return node.value
        try:
            return self.loader.construct_object(node, deep=False)
        except yaml.constructor.ConstructorError as exc:
            raise self.fail(node, exc.problem or "this value cannot be read", "quote it to make it text") from None
        except (ValueError, OverflowError):
            digits = sum(c.isdigit() for c in node.value)
            if digits > 100:  # int() refuses more than 4,300 digits: no number in a list is that long
                raise self.fail(
                    node, f"a number of {digits:,} digits is too long to read", "write a smaller number"
                ) from None
            raise self.fail(node, f"the value '{node.value}' cannot be read", "quote it to make it text") from None
