"""Bounds on the work of exact odds, so that no list, statline or odds file makes a command run
for minutes or take gigabytes.

Exact odds are fractions whose denominators grow with every die: a pool of 900 exploding dice
took minutes and gigabytes, 1,000 ended in a ``RecursionError`` inside the dice library, and a
melee of 100,000 figures never ended. Each engine checks its sizes against these bounds before
it starts; past one, the matchup is refused with ``TooMuchWork`` (an ``OddsError``, exit code 2),
which names the bound and what the matchup would have needed. Each bound keeps the worst
matchup within it under about a second here, and is far above anything the shipped rule sets
field (their largest pools are 10 dice, their largest units 12 figures).
"""

from __future__ import annotations

from listbuilder.errors import ErrorDetail
from listbuilder.odds.situation import OddsError

MAX_POOL_DICE = 100  # exploding success pools, per side (100 dice: 0.16 s)
MAX_SUM_DICE = 200  # the total of NdX (200d6: 0.2 s)
MAX_COUNT_DICE = 500  # dice counted for hits (500 dice: 0.3 s)
MAX_MELEE_FIGURES = 24  # figures a side in a melee fought to the end, round by round (24 v 24: 0.5 s)
MAX_MELEE_DICE = 96  # dice a side rolls in one round of such a melee (24 figures of 4 dice v the same: 1.5 s)
MAX_JOINT_OUTCOMES = 1_000_000  # the joint rolls of dice rolled together and compared
MAX_CARD_GRID = 24  # rows or columns of a rules card's odds grid
MAX_GRID_MODELS = 10_000  # models a side in a list-against-list grid (each copy of an entry is a column's share)
MAX_GRID_PAIRS = 40_000  # different attacker-target pairs in such a grid (200 v 200 different units)


class TooMuchWork(OddsError):
    """Exact odds for this matchup would take more work than listbuilder allows (exit code 2)."""


def check(count: int, bound: int, what: str, hint: str | None = None) -> None:
    """Refuse ``count`` of ``what`` (e.g. "dice in an exploding pool") when it is past ``bound``."""
    if count > bound:
        raise TooMuchWork(
            f"too much work for exact odds: {count:,} {what}, and the bound is {bound:,}",
            details=[
                ErrorDetail(
                    message=f"exact odds are worked out for at most {bound:,} {what}",
                    hint=hint or "odds for statlines this large are not computed; try a smaller one",
                )
            ],
        )


def named(exc: TooMuchWork, attacker: str, target: str) -> TooMuchWork:
    """The same refusal, saying which matchup it is."""
    return TooMuchWork(f"{attacker} against {target}: {exc.summary}", file=exc.file, details=list(exc.details))
