"""What a list says that the force rules do not judge but a player should hear about.

- A list with no models is not a force yet: an error, so ``units: []`` is never "legal".
- ``leader: true`` in a rule set that has no leaders changes nothing: a warning that says which
  rule sets do have leaders.
- A custom unit named like a catalog unit but with other stats is easily taken for it: a warning
  with both statlines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from listbuilder.army.constraints import Problem
from listbuilder.errors import Action
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import ArmyList
from listbuilder.rules.statline import stats_text

EMPTY_RULE = "A force needs at least one model to take the table."
LEADER_RULE = "'leader: true' and 'leaders: N' mark leaders only in rule sets whose force rules count leaders."
SHADOW_RULE = "A custom unit with a catalog unit's name is costed by its own stats, not the catalog's."


def has_leaders(system: System) -> bool:
    """Whether any force rule of the rule set counts leaders (a group chosen by ``leader:``)."""
    return any(group.leader is not None for group in system.definition.groups.values())


def advice(army: ArmyList, system: System, leader_systems: Callable[[], Sequence[str]] | None = None) -> list[Problem]:
    """The problems above, for ``army``; ``leader_systems`` names the rule sets that have leaders."""
    out: list[Problem] = []
    if not army.entries:
        noun = system.definition.model.plural
        out.append(
            Problem(
                severity="error",
                rule_id="no-models",
                rule=EMPTY_RULE,
                message=f"no {noun} yet",
                action=Action(kind="add", system=system.id),
            )
        )
    if not has_leaders(system):
        for e in army.entries:
            if e.leaders:
                others = list(leader_systems() if leader_systems else ())
                where = f"; rule sets with leaders: {', '.join(others)}" if others else ""
                said = "'leader: true'" if e.leader else f"'leaders: {e.leaders}'"
                message = f"{system.id} has no leaders, so {said} changes nothing{where}"
                out.append(
                    Problem(
                        severity="warning",
                        rule_id="no-leaders",
                        rule=LEADER_RULE,
                        message=message,
                        entry=e.label,
                        entries=(e.index,),
                    )
                )
    for e in army.entries:
        shadowed = system.find_unit(e.unit.name) if e.custom else None
        if shadowed is not None and shadowed.stats != e.unit.stats:  # an embedded copy is no surprise
            message = (
                f"a custom unit with the name of the catalog unit {shadowed.name}: "
                f"this one is {stats_text(system, e.unit)}, the catalog's is {stats_text(system, shadowed)}; "
                "rename it to tell them apart"
            )
            out.append(
                Problem(
                    severity="warning",
                    rule_id="shadows-catalog",
                    rule=SHADOW_RULE,
                    message=message,
                    entry=e.label,
                    entries=(e.index,),
                )
            )
    return out
