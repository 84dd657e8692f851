"""The list file format, declared once: every key a list, an entry and a unit may have.

Each ``ListKey`` says what its value must be (text, a whole number, true or false, a list), whether
it is needed, its bounds and default, and its words: the message and hint a reader gives when
it is wrong, and the title and help an editor shows. The list reader (``army/listfile.py``) and
the unit reader (``system.System.read_unit``) check values with ``read_key``; the editor's JSON
Schema (``share/editorschema.py``) builds each key's schema with ``key_schema``. A new key is one
entry here, and both see it.

Help texts name the rule set's own words through ``{force}``, ``{model}``, ``{measure}``,
``{leader}``, ``{id}``... (see ``editorschema.words``); nothing here names a rule set.

Why not pydantic, which reads every other file format (``schema.py``)? A list is read by every
``listbuilder validate``, which with its rule set cached never loads pydantic's validation
machinery, and a list's keys depend on its rule set (its stats, its measure), so pydantic would
need a model built per rule set in each run. Measured on this machine, in the same processes as
``python -c "import yaml, pydantic"``: importing ``pydantic.TypeAdapter`` costs about 0.45 times
that import, and building a model of a list file's keys about 0.6 times; ``validate`` takes 1.4
times it today, so reading its list through pydantic would bring it to its budget of 2.5 times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from listbuilder.errors import ErrorDetail, Location
from listbuilder.files.yamldoc import Document
from listbuilder.record import Record, record
from listbuilder.rules.schema import describe_value

KeyType = Literal["text", "whole", "flag", "list"]
# Stands for the rule set's limit key: its measure's plural ('points: 100', 'figures: 20').
LIMIT = "<measure>"
INVALID: Any = object()  # what read_key returns for a value it reported as wrong
# The largest limit a list may agree: past any game played at a table (a warband of
# one shipped rule set is 100 points, a force of another some 20 figures), and a number a form can always take.
MAX_LIMIT = 100_000


@record
class ListKey(Record):
    """One key of a list file: what its value must be, and the words for it."""

    key: str  # as written in the file; LIMIT for the rule set's measure
    type: KeyType
    wrong: str  # "count must be a whole number": the message for a wrong value, before ", found ..."
    title: str  # the editor's title for the key
    help: str  # the editor's hover help, with the rule set's words in {braces}
    required: bool = False
    nonblank: bool = False  # for text: at least one character that is not a space
    minimum: int | None = None
    maximum: int | None = None
    default: Any = None
    missing: str | None = None  # the message when a required key is left out (else: wrong, found nothing)
    empty: str | None = None  # the message when the key is written with nothing after it (else: wrong)
    empty_hint: str | None = None
    too_small: str | None = None  # the message below the minimum (else: wrong)
    too_big: str | None = None  # the message above the maximum (else: wrong)
    hint: str | None = None
    small_hint: str | None = None
    big_hint: str | None = None

    def named(self, limit_key: str) -> str:
        """The key as a file writes it (the rule set's measure for the limit)."""
        return limit_key if self.key == LIMIT else self.key


# --- the keys ---------------------------------------------------------------------------------

SYSTEM = ListKey(
    key="system",
    type="text",
    required=True,
    wrong="expected a rule set id",
    missing="the key 'system' is missing",
    hint="add 'system:' with one of: {ids}",  # the reader fills in the rule sets it has
    title="Rule set",
    help="The rule set: {name}. Source: {source}.",
)
NAME = ListKey(
    key="name",
    type="text",
    required=True,
    nonblank=True,
    wrong="the list needs a name (text)",
    hint="add 'name: ...' (in quotes if it looks like a number)",
    title="Name",
    help="The {force}'s name.",
)
LIMIT_KEY = ListKey(
    key=LIMIT,
    type="whole",
    minimum=1,
    maximum=MAX_LIMIT,
    wrong="the limit must be a whole number of at least 1",
    too_big=f"the limit must be at most {MAX_LIMIT:,}",
    big_hint="agree the size of a game played at a table",
    title="Limit",
    help="The most {measure} the {force} may have, as agreed between the players.{standard}",
)
REVISION = ListKey(
    key="revision",
    type="whole",
    minimum=1,
    wrong="the catalog revision must be a whole number of at least 1",
    hint="it records the catalog revision a new list was made with; remove it if unsure",
    title="Catalog revision",
    help="The revision of the {id} catalogs this list was made with (now {revision}); "
    "listbuilder warns about units changed since.",
)
UNITS = ListKey(
    key="units",
    type="list",
    required=True,
    wrong="expected a list of units",
    missing="the key 'units' is missing",
    empty="'units:' has no entries under it",
    empty_hint="put one '- unit: NAME' line per entry under 'units:', or write 'units: []' for none yet",
    hint="add 'units:' with one '- unit: NAME' line per entry",
    title="Units",
    help="The {force}'s units: each a catalog unit ('unit: NAME') or your own ('name: NAME' and stats).",
)
TOP_KEYS = (SYSTEM, NAME, LIMIT_KEY, REVISION, UNITS)

COUNT = ListKey(
    key="count",
    type="whole",
    minimum=1,
    default=1,
    wrong="count must be a whole number",
    too_small="count must be at least 1",
    small_hint="write how many to field (1 or more); to field none, delete the entry",
    title="Count",
    help="How many of this profile the {force} takes, as separate {counted}; 1 if left out.",
)
UNIT = ListKey(
    key="unit",
    type="text",
    required=True,
    wrong="expected a unit name",
    hint="put it in quotes",
    title="Unit",
    help="A ready-made unit from the {id} catalogs, by its name.",
)
ENTRY_LEADER = ListKey(
    key="leader",
    type="flag",
    wrong="expected true or false",
    title="{Leader}",
    help="true: each {model} of this entry is a {leader}; false: a {leader} profile taken as an ordinary "
    "{model}. Left out: as the catalog says. For some of them, write 'leaders:' instead.",
)
ENTRY_LEADERS = ListKey(
    key="leaders",
    type="whole",
    minimum=0,
    wrong="leaders must be a whole number",
    too_small="leaders must be 0 or more",
    small_hint="write how many of the entry's models are leaders, from 0 to its count",
    title="{Leaders}",
    help="How many of this entry's {counted} are {leaders}, from 0 to its count: 'count: 5' with "
    "'leaders: 1' is one {leader} among five. Written instead of 'leader', never with it.",
)
# A catalog unit taken by name: 'unit' and how the list takes it.
CATALOG_ENTRY_KEYS = (UNIT, COUNT, ENTRY_LEADER, ENTRY_LEADERS)

# What a unit has besides its stats, in a catalog file and as a custom unit in a list.
UNIT_NAME = ListKey(
    key="name",
    type="text",
    required=True,
    nonblank=True,
    wrong="a unit needs a name (text)",
    hint="add 'name: ...'",
    title="Name",
    help="The unit's name, as printed on the roster.",
)
UNIT_LEADER = ListKey(
    key="leader",
    type="flag",
    default=False,
    wrong="expected true or false",
    title="{Leader}",
    help="true: each {model} of this unit is a {leader}. Left out: not a {leader}.",
)
NOTES = ListKey(
    key="notes",
    type="text",
    default="",
    wrong="expected text",
    hint="put it in quotes",
    title="Notes",
    help="Anything to print with the unit: its kit, its story.",
)
SOURCE = ListKey(
    key="source",
    type="text",
    default="",
    wrong="expected text",
    hint="put it in quotes",
    title="Source",
    help="Where the profile comes from.",
)
UNIT_KEYS = (UNIT_NAME, UNIT_LEADER, NOTES, SOURCE)
# A custom unit in a list: a unit's keys, its stats, and how many the list takes (and leads).
CUSTOM_ENTRY_KEYS = (UNIT_NAME, COUNT, UNIT_LEADER, ENTRY_LEADERS, NOTES, SOURCE)


# --- reading ----------------------------------------------------------------------------------


def _is(key: ListKey, value: Any) -> bool:
    if key.type == "text":
        return isinstance(value, str) and (not key.nonblank or bool(value.strip()))
    if key.type == "whole":
        return isinstance(value, int) and not isinstance(value, bool)
    if key.type == "flag":
        return isinstance(value, bool)
    return isinstance(value, list)


def read_key(
    key: ListKey,
    data: Mapping[str, Any],
    doc: Document,
    base: Location,
    errors: list[ErrorDetail],
    *,
    limit_key: str = "",
    default: Any = None,
) -> Any:
    """The value of ``key`` in ``data`` (found at ``base`` in ``doc``), checked.

    Gives ``default`` (or the key's own) when it is left out and not required; adds a located
    error to ``errors`` and gives ``INVALID`` when it is wrong.
    """
    name = key.named(limit_key)
    where = (*base, name)
    hint = key.hint
    if name not in data:
        if not key.required:
            return key.default if default is None else default
        errors.append(doc.detail(where, key.missing or f"{key.wrong}, found nothing", hint))
        return INVALID
    value = data[name]
    if value is None and key.empty:
        errors.append(doc.detail(where, key.empty, key.empty_hint or hint))
        return INVALID
    if not _is(key, value):
        errors.append(doc.detail(where, f"{key.wrong}, found {describe_value(value)}", hint))
        return INVALID
    if key.minimum is not None and value < key.minimum:
        if key.too_small:
            errors.append(doc.detail(where, f"{key.too_small}, found {value}", key.small_hint or hint))
        else:
            errors.append(doc.detail(where, f"{key.wrong}, found {describe_value(value)}", hint))
        return INVALID
    if key.maximum is not None and value > key.maximum:
        errors.append(doc.detail(where, f"{key.too_big or key.wrong}, found {value:,}", key.big_hint or hint))
        return INVALID
    return value


# --- the editor's schema ----------------------------------------------------------------------

_JSON_TYPES = {"text": "string", "whole": "integer", "flag": "boolean", "list": "array"}


def key_schema(key: ListKey, words: Mapping[str, str]) -> dict[str, Any]:
    """The JSON Schema of one key's value: its type, bounds and default (help is added by the caller)."""
    out: dict[str, Any] = {"type": _JSON_TYPES[key.type]}
    if key.nonblank:
        out["pattern"] = "\\S"
    if key.minimum is not None:
        out["minimum"] = key.minimum
    if key.maximum is not None:
        out["maximum"] = key.maximum
    if key.default is not None and key.type == "whole":
        out["default"] = key.default
    return out


def required(keys: tuple[ListKey, ...], limit_key: str = "") -> list[str]:
    return [k.named(limit_key) for k in keys if k.required]


def names(keys: tuple[ListKey, ...], limit_key: str = "") -> tuple[str, ...]:
    return tuple(k.named(limit_key) for k in keys)
