"""The mechanic kinds an odds file can use, each one class (see ``parts.Mechanic``).

A new kind is one new module here with one ``Mechanic`` subclass, listed in ``KINDS``: the file
format, the loader, the matchup engine and the rules card all find it from this tuple.
"""

from typing import Union

from listbuilder.odds.kinds.banded_save import BandedSave
from listbuilder.odds.kinds.hits_per_casualty import HitsPerCasualty
from listbuilder.odds.kinds.opposed_pools import OpposedPools
from listbuilder.odds.kinds.paired_rolls import PairedRolls
from listbuilder.odds.kinds.ratio_table import RatioTable
from listbuilder.odds.kinds.unit_melee import UnitMelee

KINDS: tuple[type, ...] = (RatioTable, BandedSave, OpposedPools, HitsPerCasualty, UnitMelee, PairedRolls)
# The union the odds file's schema is built from: one branch per kind, chosen by its 'kind' key.
AnyMechanic = Union[KINDS]  # type: ignore[valid-type]  # noqa: UP007

__all__ = [
    "KINDS",
    "AnyMechanic",
    "BandedSave",
    "HitsPerCasualty",
    "OpposedPools",
    "PairedRolls",
    "RatioTable",
    "UnitMelee",
]
