"""What a rule set's definition must hold that its schema cannot say: that every stat, value and
group it names exists, its id matches its folder, each stat is whole.

The cost kind and each force rule kind check what they name themselves (``costs.py``,
``forcerules/``), through the ``need_*`` callbacks here (``forcerules.base.Definition``).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from listbuilder.errors import ErrorDetail
from listbuilder.files.yamldoc import Document
from listbuilder.rules.formats import SystemFile
from listbuilder.rules.schema import describe_value
from listbuilder.words import did_you_mean

# What a stat's default must be, by the stat's kind, and how a message says it.
_DEFAULTS: dict[str, tuple[type, str]] = {
    "number": (int, "a whole number"),
    "choice": (str, "one of its choices, by name"),
    "choices": (tuple, "a list of its choices, such as []"),
}


def check_system(d: SystemFile, doc: Document, folder_name: str) -> list[ErrorDetail]:
    """Cross-checks a schema cannot express: every stat, group and value named must exist."""
    errors: list[ErrorDetail] = []
    stats = d.stats

    def need_stat(path: tuple[str | int, ...], key: str | None, kinds: tuple[str, ...]) -> None:
        if key is None:
            return
        if key not in stats:
            errors.append(
                doc.detail(path, f"no stat '{key}'", did_you_mean(key, stats) or f"stats: {', '.join(stats)}")
            )
        elif stats[key].kind not in kinds:
            errors.append(
                doc.detail(path, f"stat '{key}' is a {stats[key].kind}; expected a {' or '.join(kinds)} stat")
            )

    def need_values(path: tuple[str | int, ...], key: str | None, values: Iterable[str]) -> None:
        if key is not None and key in stats:
            names = [c.name for c in stats[key].choices]
            for v in values:
                if v not in names:
                    errors.append(doc.detail(path, f"'{v}' is not a value of '{key}'", did_you_mean(v, names)))

    def need_group(path: tuple[str | int, ...], name: str | None) -> None:
        if name is not None and name not in d.groups:
            errors.append(doc.detail(path, f"no group '{name}'", did_you_mean(name, d.groups)))

    def error(path: tuple[str | int, ...], message: str) -> None:
        errors.append(doc.detail(path, message))

    needs = SimpleNamespace(need_stat=need_stat, need_values=need_values, need_group=need_group, error=error)

    if d.id != folder_name:
        errors.append(
            doc.detail(("id",), f"the id '{d.id}' differs from its folder name '{folder_name}'", "make them the same")
        )
    for key, stat in stats.items():
        if stat.kind != "number" and not stat.choices:
            errors.append(doc.detail(("stats", key, "choices"), f"a '{stat.kind}' stat needs choices"))
        if stat.kind == "number" and stat.choices:
            errors.append(doc.detail(("stats", key, "choices"), "a number stat has no choices"))
        if not stat.required and stat.default is None and stat.kind != "choices":
            errors.append(doc.detail(("stats", key), "an optional stat needs a default"))
        wanted, words = _DEFAULTS[stat.kind]
        if stat.default is not None and not isinstance(stat.default, wanted):
            found = "a list" if isinstance(stat.default, tuple) else describe_value(stat.default)
            message = f"the default of a '{stat.kind}' stat must be {words}, found {found}"
            errors.append(doc.detail(("stats", key, "default"), message))
        if stat.item is not None and (stat.kind != "choices" or d.figures_stat is None):
            errors.append(
                doc.detail(
                    ("stats", key, "item"),
                    "'item' is for a 'choices' stat of a rule set whose units are groups of figures",
                    "give the rule set a 'figures_stat', or remove 'item'",
                )
            )
    # What the cost kind and each constraint kind name is checked by the kind itself
    # (rules/costs.py, rules/forcerules/).
    d.cost.definition_errors(d, ("cost",), needs)
    need_stat(("figures_stat",), d.figures_stat, ("number",))
    for name, group in d.groups.items():
        need_stat(("groups", name, "stat"), group.stat, ("choice", "choices"))
        need_values(("groups", name, "any_of"), group.stat, group.any_of)
        if (group.stat is None) == (group.leader is None):
            errors.append(doc.detail(("groups", name), "a group selects by 'stat' and 'any_of', or by 'leader'"))

    ids: set[str] = set()
    for i, c in enumerate(d.constraints):
        where = ("constraints", i)
        if c.id in ids:
            errors.append(doc.detail((*where, "id"), f"the id '{c.id}' is used twice"))
        ids.add(c.id)
        c.definition_errors(d, where, needs)
    return errors
