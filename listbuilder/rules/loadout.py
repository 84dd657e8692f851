"""Loadouts: a list stat whose items may say how many of a unit's figures carry each one.

A list stat (kind ``choices``) normally means every figure of the unit has every item:
``weapons: [Rifle]``. A rule set whose units are groups of figures (``figures_stat``) may let a
list stat name its item (``item: weapon``); a unit can then arm its figures unevenly::

    weapons:
      - {weapon: Rifle, figures: 4}
      - {weapon: Medium Repeater, figures: 1}

Either every item gives its figures or none does, and the figures given add up to the unit's
figures. A plain item is kept as its name (``"Rifle"``); an item with a count as ``Carried``.
Nothing here knows which rule set, stat or item it serves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from listbuilder.errors import Action, ErrorDetail
from listbuilder.files.yamldoc import Document
from listbuilder.record import Record, record
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean

if TYPE_CHECKING:
    from listbuilder.rules.profiles import Stat


@record
class Carried(Record):
    """An item of a list stat carried by ``figures`` of a unit's figures: ``4x Rifle``."""

    name: str
    figures: int

    def __str__(self) -> str:
        return f"{self.figures}x {self.name}"


Item = str | Carried
MISSING = object()  # an item mapping without its figure count


def names(value: Any) -> tuple[str, ...]:
    """The item names of a stat value (a list stat's items, or a single choice): ``('Rifle',)``."""
    if value is None:
        return ()
    items = value if isinstance(value, tuple | list) else (value,)
    return tuple(item.name if isinstance(item, Carried) else str(item) for item in items)


def carriers(value: Any, figures: int) -> tuple[tuple[str, int], ...]:
    """Each item of a list stat value with the number of figures that carry it."""
    items = value if isinstance(value, tuple | list) else () if value is None else (value,)
    return tuple((i.name, i.figures) if isinstance(i, Carried) else (str(i), figures) for i in items)


def is_mixed(value: Any) -> bool:
    """Whether a list stat value gives figure counts (so not every figure carries every item)."""
    return isinstance(value, tuple | list) and any(isinstance(i, Carried) for i in value)


def as_data(value: Any, item_key: str | None, count_key: str | None) -> Any:
    """A stat value as a list file writes it: names, or ``{weapon: Rifle, figures: 4}`` items."""
    if not isinstance(value, tuple | list):
        return value
    return [
        {item_key: i.name, count_key: i.figures} if isinstance(i, Carried) and item_key and count_key else str(i)
        for i in value
    ]


BadChoice = Callable[[Document, tuple[str | int, ...], str, Any, list[str]], ErrorDetail]


def read_items(
    stat: Stat,
    items: Sequence[Any],
    figures_key: str | None,
    doc: Document,
    where: tuple[str | int, ...],
    errors: list[ErrorDetail],
    bad_choice: BadChoice,
) -> tuple[Item, ...] | None:
    """A list stat's items as written: names, or (if the stat names its item) ``{weapon: Rifle, figures: 4}``.

    Problems go to ``errors`` (``None`` is returned if there were any)."""
    count_key = figures_key if stat.item else None
    label = stat.label.lower()
    chosen: list[Item] = []
    failed = False
    for i, item in enumerate(items):
        at = (*where, i)
        name, figures = item, None
        if isinstance(item, dict):
            if stat.item is None or count_key is None:
                hint = f"every figure of a unit carries each of its {label} here: write the name alone"
                errors.append(doc.detail(at, f"expected one of the {label} by name, found a mapping", hint))
                failed = True
                continue
            for key in item:
                if key not in (stat.item, count_key):
                    hint = (
                        did_you_mean(str(key), [stat.item, count_key]) or f"write {{{stat.item}: NAME, {count_key}: N}}"
                    )
                    errors.append(doc.detail((*at, key), f"unknown key '{key}'", hint, key=True))
                    failed = True
            name, figures = item.get(stat.item), item.get(count_key, MISSING)
        choice = stat.choice(name) if isinstance(name, str) else None
        if isinstance(item, dict) and stat.item not in item:
            hint = f"write {{{stat.item}: NAME, {count_key}: N}}"
            errors.append(doc.detail(at, f"this item does not say which {stat.item} it is", hint))
            failed = True
        elif choice is None:
            place = (*at, stat.item) if isinstance(item, dict) and stat.item is not None and stat.item in item else at
            errors.append(bad_choice(doc, place, stat.label, name, [c.name for c in stat.choices]))
            failed = True
        elif choice.name in names(chosen):
            errors.append(doc.detail(at, f"'{choice.name}' is listed twice", "remove one"))
            failed = True
        elif figures is None:
            chosen.append(choice.name)
        elif isinstance(figures, bool) or not isinstance(figures, int) or figures < 1:
            found = "nothing" if figures is MISSING else describe_value(figures)
            message = f"the {count_key} carrying {choice.name} must be a whole number of at least 1, found {found}"
            hint = f"write {{{stat.item}: {choice.name}, {count_key}: 1}}"
            place = (*at, count_key) if figures is not MISSING and count_key is not None else at
            errors.append(doc.detail(place, message, hint))
            failed = True
        else:
            chosen.append(Carried(name=choice.name, figures=figures))
    return None if failed else tuple(chosen)


def check_counts(
    unit: Any,
    label: str,
    items: Iterable[Item],
    figures: Any,
    figures_label: str,
    doc: Document,
    where: tuple[str | int, ...],
) -> list[ErrorDetail]:
    """A loadout's figure counts must add up to the unit's figures; plain items and counts do not mix.

    ``unit`` is the unit's name as written, so the message names the entry."""
    items = tuple(items)
    counted = [i for i in items if isinstance(i, Carried)]
    if not counted:
        return []
    who = f"{unit}: " if isinstance(unit, str) and unit.strip() else ""
    noun = figures_label.lower()
    plain = [(n, i) for n, i in enumerate(items) if not isinstance(i, Carried)]
    if plain:
        n, name = plain[0]
        return [
            doc.detail(
                (*where, n),
                f"{who}'{name}' gives no {noun}, but other {label} do",
                f"say how many {noun} carry each of the {label}, or none of them",
            )
        ]
    if isinstance(figures, bool) or not isinstance(figures, int):
        return []  # the unit's own figures are already reported
    given = sum(i.figures for i in counted)
    if given == figures:
        return []
    shown = " + ".join(str(i) for i in counted)  # "4x Rifle + 2x Repeater": each named
    # The list format's rule (each rule set declares it as a ruling): each of the unit's figures
    # carries one of the items counted, so the counts add up to the unit's figures. Figures that
    # carry none, or two, make a unit of their own: a next step each face words its own way (a
    # list file's key, the builder's ticks), so the engine names it only as an action.
    if given < figures:
        instead = f"count all {figures} {noun}, each carrying one of its {label}"
        both: tuple[tuple[str, str], ...] = ()
    else:
        instead = f"count each of the {figures} {noun} once"
        both = (("item", counted[0].name), ("item", counted[-1].name))
    return [
        doc.detail(
            where,
            f"{who}the unit has {figures} {noun}, but its {label} are carried by {shown} = {given}",
            f"make the {noun} carrying its {label} add up to {figures}: {instead}",
            action=Action(kind="own-entry", example=(("stat", label), ("figures", noun), *both)),
        )
    ]
