"""Exact matchup odds from each rule set's dice: fractions, not simulations.

A rule set's ``odds.yaml`` declares its dice mechanics as data, each one of a few generic
kinds (spec.py); each kind's engine (``kinds/``) computes exact chances with icepool
(dice.py), and ``matchups.py`` answers with them. The public functions are here:

    load_odds(system) -> OddsFile
    matchup(system, attacker, target, *, mechanic=None, **situation) -> Outcome
    matrix(system, units_a, units_b, *, mechanic=None, **situation) -> Matrix
    card_odds(system) -> list[CardTable]

Each name is imported on its first use, and ``matchups`` imports icepool (about 50 ms):
commands that do not need odds, such as ``validate``, never pay for it, and
``listbuilder.odds.load`` alone checks an odds file without it.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from listbuilder.odds.load import load_odds
    from listbuilder.odds.matchups import (
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
    from listbuilder.odds.results import CardTable
    from listbuilder.odds.situation import ImpossibleMatchup, OddsError
    from listbuilder.odds.spec import OddsFile

# Where each public name lives; loaded on first use, so 'listbuilder.odds.load' (checking an
# odds file) never pays for icepool.
_HOME = {
    "Chance": "matchups",
    "Matrix": "matchups",
    "Outcome": "matchups",
    "card_odds": "matchups",
    "clear_caches": "matchups",
    "fielded": "matchups",
    "matchup": "matchups",
    "matrix": "matchups",
    "mechanic_of": "matchups",
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
