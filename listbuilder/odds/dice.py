"""Exact dice distributions with icepool, cached: the only module of listbuilder that imports it.

icepool is imported on the first distribution asked for, not with this module (it costs about
50 ms): the mechanic kinds import this module, and loading or checking an odds file needs no dice.

icepool keeps each distribution as whole-number weights over a common denominator, so every
chance here is an exact ``Fraction``. A die that explodes (a natural 6 adds a die, which may
itself explode) is followed for a fixed number of further dice; the chance that any chain is
cut short is returned beside the answer as a bound, never silently ignored.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from types import ModuleType
from typing import TYPE_CHECKING

from listbuilder.odds import bounds
from listbuilder.record import Record, record

if TYPE_CHECKING:
    import icepool


def _icepool() -> ModuleType:
    # A module's attributes are not typed through ModuleType: each die taken from it is annotated.
    import icepool  # deferred on purpose: see the module's docstring

    return icepool


_CHAIN = 1000  # an exploding face is coded as _CHAIN + its successes, so a sum counts both apart

DISTRIBUTIONS = 1024  # distributions kept per process (least recently used dropped): memory stays bounded


@record
class Dist(Record):
    """A distribution as sorted outcomes, whole-number weights, running totals and a denominator."""

    outcomes: tuple[int, ...]
    weights: tuple[int, ...]
    cumulative: tuple[int, ...]
    denominator: int

    def chance(self, outcome: int) -> Fraction:
        i = bisect_left(self.outcomes, outcome)
        hit = i < len(self.outcomes) and self.outcomes[i] == outcome
        return Fraction(self.weights[i], self.denominator) if hit else Fraction(0)

    def below(self, outcome: int) -> int:
        """The weight of outcomes less than ``outcome``."""
        i = bisect_left(self.outcomes, outcome)
        return self.cumulative[i - 1] if i else 0

    def at_most(self, outcome: int) -> int:
        i = bisect_right(self.outcomes, outcome)
        return self.cumulative[i - 1] if i else 0

    def items(self) -> list[tuple[int, Fraction]]:
        return [(o, Fraction(w, self.denominator)) for o, w in zip(self.outcomes, self.weights, strict=True)]


def as_dist(die: icepool.Die[int]) -> Dist:
    outcomes = tuple(int(o) for o in die.outcomes())
    weights = tuple(int(die.quantity(o)) for o in outcomes)
    return Dist(outcomes=outcomes, weights=weights, cumulative=tuple(accumulate(weights)), denominator=sum(weights))


@lru_cache(maxsize=DISTRIBUTIONS)
def total(dice: int, sides: int, keep_highest: int | None = None) -> Dist:
    """The sum of NdX, keeping the highest K dice if asked (4D6 drop the lowest: keep 3)."""
    bounds.check(dice, bounds.MAX_SUM_DICE, "dice summed")
    die: icepool.Die[int] = _icepool().d(sides)
    if keep_highest is None or keep_highest >= dice:
        return as_dist(dice @ die)
    return as_dist(die.highest(dice, keep_highest))


@lru_cache(maxsize=DISTRIBUTIONS)
def chain(sides: int, need: int, modifier: int, explode_on: int | None, depth: int) -> icepool.Die[int]:
    """Successes from one die and the dice it adds: success when roll + modifier >= need;
    a natural roll of ``explode_on`` or more adds a die (up to ``depth`` further dice)."""

    def code(face: int) -> int:
        success = int(face + modifier >= need)
        return _CHAIN + success if explode_on is not None and face >= explode_on else success

    coded: icepool.Die[int] = _icepool().d(sides).map(code)
    if explode_on is not None and depth > 0:
        coded = coded.explode(lambda o: o >= _CHAIN, depth=depth)
    return coded.map(lambda o: o % _CHAIN)


@lru_cache(maxsize=DISTRIBUTIONS)
def pool(dice: int, sides: int, need: int, modifier: int, explode_on: int | None, depth: int) -> Dist:
    """Total successes of ``dice`` dice (see ``chain``); no dice, no successes."""
    if explode_on is not None:
        bounds.check(dice, bounds.MAX_POOL_DICE, "dice in an exploding pool")
    else:
        bounds.check(dice, bounds.MAX_COUNT_DICE, "dice in a pool")
    if dice <= 0:
        return as_dist(_icepool().Die([0]))
    return as_dist(dice @ chain(sides, need, modifier, explode_on, depth))


def cut_short(dice: int, sides: int, explode_on: int | None, depth: int) -> Fraction:
    """A bound on the chance that any of ``dice`` exploding chains was cut short at ``depth``."""
    if explode_on is None or dice <= 0:
        return Fraction(0)
    return dice * Fraction(sides - explode_on + 1, sides) ** (depth + 1)


@lru_cache(maxsize=DISTRIBUTIONS)
def count_at_least(dice: int, sides: int, face: int) -> Dist:
    """How many of ``dice`` dice roll ``face`` or more (hits on a 6)."""
    bounds.check(dice, bounds.MAX_COUNT_DICE, "dice rolled to hit")
    if dice <= 0:
        return as_dist(_icepool().Die([0]))
    return as_dist(dice @ _icepool().d(sides).map(lambda f: int(f >= face)))


def compare(a: Dist, b: Dist) -> tuple[Fraction, Fraction, Fraction]:
    """The chances that ``a`` beats, ties and loses to ``b``, exactly."""
    greater = equal = 0
    for outcome, weight in zip(b.outcomes, b.weights, strict=True):
        below_or_equal = a.at_most(outcome)
        greater += weight * (a.denominator - below_or_equal)
        equal += weight * (below_or_equal - a.below(outcome))
    whole = a.denominator * b.denominator
    return Fraction(greater, whole), Fraction(equal, whole), Fraction(whole - greater - equal, whole)


def joint(classify: Callable[..., int], dice: list[icepool.Die[int]]) -> dict[int, Fraction]:
    """The chance of each value of ``classify(*rolls)`` over every joint roll of ``dice``."""
    outcomes = 1
    for die in dice:
        outcomes *= len(die)
        bounds.check(outcomes, bounds.MAX_JOINT_OUTCOMES, "joint rolls of dice rolled together")
    classes: icepool.Die[int] = _icepool().map(classify, *dice, star=False)
    return {o: classes.probability(o) for o in classes.outcomes()}


def d(sides: int) -> icepool.Die[int]:
    die: icepool.Die[int] = _icepool().d(sides)
    return die


@lru_cache(maxsize=DISTRIBUTIONS)
def casualties(dice_count: int, sides: int, hit_on: int, per: int, cap: int) -> tuple[Fraction, ...]:
    """Chance of 0, 1, 2... casualties (at most ``cap``) from ``dice_count`` dice, ``per`` hits each."""
    most = min(cap, dice_count // max(per, 1))
    chances = [Fraction(0)] * (most + 1)
    for hits, chance in count_at_least(dice_count, sides, hit_on).items():
        chances[min(most, hits // max(per, 1))] += chance
    return tuple(chances)


def clear() -> None:
    """Forget every distribution worked out so far (for benchmarks and tests)."""
    for f in (total, chain, pool, count_at_least, casualties):
        f.cache_clear()
