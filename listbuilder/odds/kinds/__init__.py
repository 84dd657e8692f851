"""The mechanic kinds an odds file can use, each one class (see ``parts.Mechanic``).

A new kind is one new module here with one ``Mechanic`` subclass, listed in ``AnyMechanic``: the file
format, the loader, the matchup engine and the rules card all find it there (``KINDS`` is its members).
"""

from typing import Union, get_args

from listbuilder.odds.kinds.banded_save import BandedSave
from listbuilder.odds.kinds.hits_per_casualty import HitsPerCasualty
from listbuilder.odds.kinds.opposed_pools import OpposedPools
from listbuilder.odds.kinds.paired_rolls import PairedRolls
from listbuilder.odds.kinds.ratio_table import RatioTable
from listbuilder.odds.kinds.unit_melee import UnitMelee
from listbuilder.odds.mechanic import Mechanic

# The union the odds file's schema is built from: one branch per kind, chosen by its 'kind' key.
AnyMechanic = Union[RatioTable, BandedSave, OpposedPools, HitsPerCasualty, UnitMelee, PairedRolls]  # noqa: UP007
KINDS: tuple[type[Mechanic], ...] = get_args(AnyMechanic)

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
