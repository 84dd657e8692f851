"""Exact matchup odds from each rule set's dice: fractions, not simulations.

A rule set's ``odds.yaml`` declares its dice mechanics as data, each one of a few generic
kinds (spec.py); the engines (tables.py, pools.py) compute exact chances with icepool
(dice.py). The public functions are here:

    load_odds(system) -> OddsFile
    matchup(system, attacker, target, *, mechanic=None, **situation) -> Outcome
    matrix(system, units_a, units_b, *, mechanic=None, **situation) -> Matrix
    card_odds(system) -> list[CardTable]

Importing this package imports icepool (about 50 ms): commands that do not need odds, such
as ``validate``, must not import it. ``listbuilder.odds.load`` alone checks an odds file
without it.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from listbuilder.odds.api import (
        Chance,
        Matrix,
        Outcome,
        card_odds,
        clear_caches,
        fielded,
        matchup,
        matrix,
        mechanic_of,
    )
    from listbuilder.odds.load import load_odds
    from listbuilder.odds.results import CardTable
    from listbuilder.odds.situation import ImpossibleMatchup, OddsError
    from listbuilder.odds.spec import OddsFile

# Where each public name lives; loaded on first use, so 'listbuilder.odds.load' (checking an
# odds file) never pays for icepool.
_HOME = {
    "Chance": "api",
    "Matrix": "api",
    "Outcome": "api",
    "card_odds": "api",
    "clear_caches": "api",
    "fielded": "api",
    "matchup": "api",
    "matrix": "api",
    "mechanic_of": "api",
    "load_odds": "load",
    "CardTable": "results",
    "ImpossibleMatchup": "situation",
    "OddsError": "situation",
    "OddsFile": "spec",
}
__all__ = [
    "CardTable",
    "Chance",
    "ImpossibleMatchup",
    "Matrix",
    "OddsError",
    "OddsFile",
    "Outcome",
    "card_odds",
    "clear_caches",
    "fielded",
    "load_odds",
    "matchup",
    "matrix",
    "mechanic_of",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
