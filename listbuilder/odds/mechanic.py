"""``Mechanic``, the class every odds mechanic kind derives from: what each kind has and does.

It sits above the checker (a kind checks itself with one) and the parts it is built of, which
know nothing of mechanics, so the three form no circle.
"""

# No "from __future__ import annotations": schema.py builds validators from real annotations.
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from listbuilder.odds.parts import Option
from listbuilder.record import FrozenMap, Record, record
from listbuilder.rules.schema import doc

if TYPE_CHECKING:
    from listbuilder.errors import Location
    from listbuilder.odds.checker import Checker
    from listbuilder.odds.results import CardTable, Tally
    from listbuilder.rules.formats import Unit
    from listbuilder.rules.system import System

# The fields of the parts every kind may have, which ``check_all`` checks the same way for each.
_SHARED = ("requires", "special_rolls", "die_modifiers", "modifiers", "dice_changes", "success_overrides")


@record
class Mechanic(Record):
    """What every mechanic kind has (an id, a title, its source, its options) and does.

    A kind is one subclass with a ``kind: Literal[...]`` field and its own fields; it checks
    itself against its rule set (``check``), computes a matchup's exact chances (``engine``)
    and draws its rules-card tables (``card``). Listing the subclass in ``kinds.AnyMechanic`` is all a
    new kind needs.
    """

    id: str = doc("a short name, used as matchup(..., mechanic=ID)")
    title: str = doc("its title on a card or a table")
    source: str = doc("the lines of the source text it follows")
    options: Mapping[str, Option] = doc("the situational options, by keyword", default_factory=FrozenMap)

    def check(self, c: "Checker", path: "Location") -> None:
        """Add to ``c`` every problem of this mechanic against its rule set that a schema cannot see."""

    def engine(self, system: "System", attacker: "Unit", target: "Unit", v: Mapping[str, Any]) -> "Tally":
        """The exact chances of each result when ``attacker`` attacks ``target`` in this situation."""
        raise NotImplementedError(f"{type(self).__name__} has no engine")

    def card(self, system: "System") -> "list[CardTable]":
        """The tables a rules card prints for this mechanic (none by default)."""
        return []

    def check_all(self, c: "Checker", path: "Location") -> None:
        """The checks every kind shares (options, conditions, requirements, modifiers), then its own."""
        c.declared_options(path, self.options)
        for field in _SHARED:
            for j, item in enumerate(getattr(self, field, ())):
                where = (*path, field, j)
                c.conditions(where, item)
                if field in ("requires", "special_rolls"):
                    if c.stat((*where, "stat"), item.stat, ("choice", "choices")):
                        c.prop((*where, "property"), item.stat, item.property)
                    if field == "requires":
                        c.requirement(where, item)
                if field in ("die_modifiers", "modifiers"):
                    c.modifier(where, item)
                if field == "dice_changes":
                    c.option((*where, "option"), item.option, ("number",))
        self.check(c, path)
