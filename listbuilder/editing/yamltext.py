"""Change a few values of a YAML text and keep every other byte as the user wrote it.

Round-trip YAML libraries re-emit the whole file: ruamel.yaml 0.19, loading and dumping a list
without any change, still turned CRLF into LF, dropped a blank line, re-indented the entries,
rewrote ``[ a,b ]`` as ``[a, b]``, moved inline comments and added a final newline. So edits
here are made on the text itself: PyYAML (already a dependency) composes the file into nodes
whose marks give the exact character span of every key and value, and an edit is a short list
of splices (replace this span, delete these lines, insert these lines) applied to the text.
Everything outside the splices is untouched: comments, blank lines, quoting, indentation, line
endings and a missing final newline.

libyaml composes the text (the pure-Python loader where PyYAML was built without it): both give
marks that are character offsets into the text we hold, and libyaml is about ten times faster,
which is what keeps an edit of a long list within twice the time of ``validate``. Callers must
re-parse the result to check it (``plan.ListEdit.finish`` does): a splice that misjudged some
exotic layout then fails loudly instead of writing a wrong file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import yaml

from listbuilder.files.pyyaml import Loader as _Loader

Node = Any  # a composed YAML node: PyYAML types its attributes loosely, so these helpers do too
_BREAKS = "\r\n\x85\u2028\u2029"  # what PyYAML treats as a line break
Splice = tuple[int, int, str]  # replace text[start:end] with the string


class YamlText:
    """A YAML text and its node tree, with helpers that plan splices against it."""

    def __init__(self, text: str, root: Node = None) -> None:
        """``root``: the text's node tree, if it was composed already (``parse_yaml(keep_node=True)``)."""
        self.text = text
        if root is None:
            root = yaml.compose(text, Loader=_Loader)
        self.root: Node = root
        self._tokens: list[yaml.Token] | None = None

    # --- where things are -----------------------------------------------------------------

    @property
    def tokens(self) -> list[yaml.Token]:
        if self._tokens is None:
            self._tokens = list(yaml.scan(self.text, Loader=_Loader))
        return self._tokens

    def newline(self, at: int = 0) -> str:
        """The line ending to write at ``at``: the one just before it, else the one ending its
        line, else the file's first, else LF."""
        if self.text[max(at - 2, 0) : at].endswith("\r\n"):
            return "\r\n"
        if at > 0 and self.text[at - 1] in "\r\n":
            return self.text[at - 1]
        for start in (at, 0):
            i = self._break_at_or_after(start)
            if self.text.startswith("\r\n", i):
                return "\r\n"
            if i < len(self.text) and self.text[i] in "\r\n":
                return self.text[i]
        return "\n"

    def _break_at_or_after(self, i: int) -> int:
        text = self.text
        while i < len(text) and text[i] not in _BREAKS:
            i += 1
        return i

    def line_start(self, i: int) -> int:
        while i > 0 and self.text[i - 1] not in _BREAKS:
            i -= 1
        return i

    def line_after(self, end: int) -> int:
        """The start of the line after the one holding ``text[end - 1]`` (or the end of the text)."""
        text = self.text
        if end > 0 and text[end - 1] in _BREAKS:
            return end
        i = self._break_at_or_after(end)
        if i >= len(text):
            return len(text)
        return i + 2 if text.startswith("\r\n", i) else i + 1

    def content_end(self, node: Node) -> int:
        """Where a node's own text ends: before the comments and blank lines a block node's end
        mark runs on over; after the trailing breaks of a keep (``|+``) block scalar."""
        if isinstance(node, yaml.ScalarNode):
            if node.style in ("|", ">"):
                header = self.text[node.start_mark.index : self._break_at_or_after(node.start_mark.index)]
                if "+" in header.split("#")[0]:
                    return node.end_mark.index
                return node.start_mark.index + len(self.text[node.start_mark.index : node.end_mark.index].rstrip())
            return node.end_mark.index
        if node.flow_style or not node.value:
            return int(node.end_mark.index)
        if isinstance(node, yaml.MappingNode):
            key, value = node.value[-1]
            return max(self.content_end(key), self.content_end(value))
        return self.content_end(node.value[-1])

    def scalar_end(self, node: yaml.ScalarNode) -> int:
        """The end of a scalar's text, never taking a block scalar's trailing line breaks."""
        span = self.text[node.start_mark.index : node.end_mark.index]
        return node.start_mark.index + (len(span.rstrip()) if node.style in ("|", ">") else len(span))

    def pair(self, mapping: Node, key: str) -> tuple[Node, Node] | None:
        for k, v in mapping.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
        return None

    def source(self, node: Node) -> str:
        return self.text[node.start_mark.index : self.content_end(node)]

    def separator(self, mapping: Node, key: str) -> str | None:
        """The text between a key and its value (``': '``, ``':   '``) if on one line."""
        found = self.pair(mapping, key)
        if found is None:
            return None
        between = self.text[found[0].end_mark.index : found[1].start_mark.index]
        return between if between.startswith(":") and _one_line(between) else None

    def dash(self, item: Node) -> int:
        """The index of the ``-`` that opens a block sequence item."""
        i: int = item.start_mark.index - 1
        while i >= 0 and self.text[i] in " \t" + _BREAKS:
            i -= 1
        if i >= 0 and self.text[i] == "-":
            return i  # nothing but blanks between the dash and the item, as almost always
        dashes = [t.start_mark.index for t in self.tokens if isinstance(t, yaml.BlockEntryToken)]
        return int(max(i for i in dashes if i < item.start_mark.index))

    def comma_after(self, item: Node, before: int) -> int:
        """The index of the ``,`` after a flow sequence item (and before ``before``)."""
        end = self.content_end(item)
        return min(
            int(t.start_mark.index)
            for t in self.tokens
            if isinstance(t, yaml.FlowEntryToken) and end <= t.start_mark.index < before
        )

    def indent_of(self, i: int) -> str:
        """The indentation before ``text[i]`` when only spaces precede it on its line."""
        before = self.text[self.line_start(i) : i]
        return before if before.strip(" ") == "" else " " * len(before)

    # --- splices ----------------------------------------------------------------------------

    def insert_lines(self, at: int, lines: Sequence[str]) -> Splice:
        """Insert whole lines at the start of a line (or at the end of a text without a final
        newline, which stays without one)."""
        nl = self.newline(at)
        if at == len(self.text) and self.text and self.text[-1] not in _BREAKS:
            return at, at, "".join(nl + line for line in lines)
        return at, at, "".join(line + nl for line in lines)

    def delete_lines(self, start: int, end: int) -> Splice:
        """Delete the lines from ``start`` (a line start) to ``end`` (the start of a later line);
        a text without a final newline keeps none."""
        if end == len(self.text) and self.text[-1:] not in _BREAKS and start > 0:
            start -= 2 if self.text[start - 2 : start] == "\r\n" else 1
        return start, end, ""

    def remove_inline(self, start: int, end: int) -> Splice:
        """Delete ``text[start:end]``; the whole line if nothing but a comment is left on it."""
        ls = self.line_start(start)
        le = self._break_at_or_after(end)
        before, after = self.text[ls:start], self.text[end:le]
        if before.strip() == "" and (after.strip() == "" or after.lstrip().startswith("#")):
            return self.delete_lines(ls, self.line_after(end))
        if after.strip() == "":
            return start - (len(before) - len(before.rstrip(" \t"))), le, ""
        if before[-1:] in (" ", "\t") and after[:1] in (" ", "\t"):
            start -= 1  # 'units: []  # c' leaves 'units:  # c', not three spaces
        return start, end, ""

    def replace_scalar(self, node: Node, new: str) -> Splice:
        return node.start_mark.index, self.scalar_end(node), new

    def insert_pair_after(self, mapping: Node, after: Node, key: str, value: str) -> list[Splice]:
        """Add ``key: value`` to a mapping, right after the value ``after``."""
        end = self.content_end(after)
        if mapping.flow_style:
            if self.text[mapping.start_mark.index] == "{":
                return [(end, end, f", {key}: {value}")]
            # A single-pair mapping inside a flow sequence ('[unit: A]') has no braces: add them.
            return [
                (mapping.start_mark.index, mapping.start_mark.index, "{"),
                (end, end, f", {key}: {value}}}"),
            ]
        indent = " " * mapping.start_mark.column  # a block mapping starts at its first key
        return [self.insert_lines(self.line_after(end), [f"{indent}{key}: {value}"])]

    def append_item(
        self, seq: Node, pairs: Sequence[tuple[str, str]], model: Node | None, key_column: int
    ) -> list[Splice]:
        """Append a mapping of ``pairs`` (keys and rendered values) to a sequence, laid out like
        ``model`` (an item already in it). An empty ``[]`` under a block key becomes a block
        sequence indented two spaces past ``key_column``."""
        if not seq.flow_style:
            model = model if model is not None else _mapping(seq.value[-1])
            at = self.line_after(self.content_end(seq.value[-1]))
            return [self.insert_lines(at, self._block_item(pairs, model, ""))]
        start, end = seq.start_mark.index, seq.end_mark.index
        if not seq.value:
            if key_column < 0:  # inside a flow mapping: stay in flow style
                return [(start + 1, start + 1, self._flow_item(pairs, None))]
            lines = self._block_item(pairs, None, " " * (key_column + 2))
            return [self.remove_inline(start, end), self.insert_lines(self.line_after(end), lines)]
        last = seq.value[-1]
        at = self.content_end(last)
        sep = ", "
        if len(seq.value) > 1:
            between = self.text[self.content_end(seq.value[-2]) : last.start_mark.index]
            sep = between if _one_line(between) else "," + self.newline(at) + self.indent_of(last.start_mark.index)
        return [(at, at, sep + self._flow_item(pairs, model if model is not None else _mapping(last)))]

    def replace_item(self, seq: Node, index: int, pairs: Sequence[tuple[str, str]]) -> Splice:
        """Write item ``index`` of a sequence anew as a mapping of ``pairs``, laid out like the item
        it replaces (its lines in a block sequence, its span in a flow one); the items around it stay."""
        item = seq.value[index]
        model = _mapping(item)
        if seq.flow_style:
            return item.start_mark.index, self.content_end(item), self._flow_item(pairs, model)
        start = self.line_start(self.dash(item))
        end = self.line_after(self.content_end(item))
        nl = self.newline(start)
        text = nl.join(self._block_item(pairs, model, self.indent_of(self.dash(item))))
        at_end_unbroken = end == len(self.text) and self.text[-1:] not in _BREAKS
        return start, end, text if at_end_unbroken else text + nl

    def delete_item(self, seq: Node, index: int, key: Node) -> list[Splice]:
        """Delete item ``index`` of a sequence (the value of ``key``); the last item of a block
        sequence leaves ``key: []``."""
        item = seq.value[index]
        n = len(seq.value)
        if not seq.flow_style:
            splices = [self.delete_lines(self.line_start(self.dash(item)), self.line_after(self.content_end(item)))]
            if n == 1:
                colon = key.end_mark.index
                while self.text[colon] in " \t":
                    colon += 1
                splices.append((colon + 1, colon + 1, " []"))
            return splices
        start, end = item.start_mark.index, self.content_end(item)
        if n == 1:
            return [self.remove_inline(start, end)]
        if index < n - 1:
            following = seq.value[index + 1].start_mark.index
            comma = self.comma_after(item, following)
            if _one_line(self.text[comma:following]):
                return [(start, following, "")]
            return [self.remove_inline(start, comma + 1)]
        comma = self.comma_after(seq.value[index - 1], start)
        if _one_line(self.text[comma:start]):
            return [(comma, end, "")]
        return [(comma, comma + 1, ""), self.remove_inline(start, end)]

    def _key_text(self, model: Node | None, key: str) -> str:
        found = self.pair(model, key) if model is not None else None
        return self.source(found[0]) if found else key

    def _block_item(self, pairs: Sequence[tuple[str, str]], model: Node | None, indent: str) -> list[str]:
        gap = " "
        if model is not None:
            dash = self.dash(model)
            indent = self.indent_of(dash)
            between = self.text[dash + 1 : model.start_mark.index]
            if between and between.strip(" ") == "":
                gap = between
            if model.flow_style:
                return [f"{indent}-{gap}{self._flow_item(pairs, model)}"]
        lines = []
        for n, (key, value) in enumerate(pairs):
            sep = (self.separator(model, key) if model is not None else None) or ": "
            lead = f"{indent}-{gap}" if n == 0 else " " * (len(indent) + 1 + len(gap))
            lines.append(f"{lead}{self._key_text(model, key)}{sep}{value}")
        return lines

    def _flow_item(self, pairs: Sequence[tuple[str, str]], model: Node | None) -> str:
        opening, closing = "{", "}"
        if model is not None and model.flow_style and self.text[model.start_mark.index] == "{" and model.value:
            pad = self.text[model.start_mark.index + 1 : model.value[0][0].start_mark.index]
            opening += pad if pad.strip(" ") == "" else ""
            pad = self.text[self.content_end(model.value[-1][1]) : model.end_mark.index - 1]
            closing = (pad if pad.strip(" ") == "" else "") + closing
        parts = []
        for key, value in pairs:
            sep = (self.separator(model, key) if model is not None and model.flow_style else None) or ": "
            parts.append(f"{self._key_text(model, key)}{sep}{value}")
        return opening + ", ".join(parts) + closing


def _one_line(text: str) -> bool:
    return not any(c in _BREAKS for c in text)


def _mapping(node: Node) -> Node | None:
    return node if isinstance(node, yaml.MappingNode) else None


def apply(text: str, splices: Sequence[Splice]) -> str:
    """Apply non-overlapping splices (positions refer to the original text), in one pass."""
    pieces = []
    at = 0
    for start, end, new in sorted(splices, key=lambda s: (s[0], s[1])):
        if start < at:
            raise ValueError(f"overlapping edits at {start}..{end}")
        pieces += [text[at:start], new]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def is_printable_line(value: str) -> bool:
    """True for text that fits on one line of a YAML file: no line breaks or control characters."""
    return not any(c in _BREAKS or ord(c) < 32 or 0x7F <= ord(c) <= 0x9F or c in "\ufeff\ufffe" for c in value)


def scalar(value: str, style: str | None = None, flow: bool = False) -> str:
    """``value`` written as a YAML scalar: in the given quote style, else plain where plain
    text reads back as the same string, else in single quotes. ``value`` must be one line."""
    if style == '"':
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if style != "'" and _plain_ok(value, flow):
        return value
    return "'" + value.replace("'", "''") + "'"


# Numbers as YAML 1.2 reads them (editors do): PyYAML (YAML 1.1) reads '1e3' as text, they do not.
_NUMBER = re.compile(
    r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(inf|Inf|INF|nan|NaN|NAN)"
)


def _plain_ok(value: str, flow: bool) -> bool:
    if not value or value != value.strip() or "\t" in value or _NUMBER.fullmatch(value):
        return False
    if flow and any(c in value for c in ",[]{}:#"):
        return False
    try:
        return bool(yaml.safe_load(value) == value)
    except yaml.YAMLError:
        return False
