"""Oracles for the odds engines, written from the rules texts rather than from the engines:
enumeration of every roll (itertools.product), and exploding dice followed face by face."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

F = Fraction


def bf_totals(dice: int, keep: int | None = None) -> dict[int, Fraction]:
    """Every roll of ``dice`` D6, keeping the highest ``keep``, by enumeration."""
    counts = Counter(sum(sorted(r)[-(keep or dice) :]) for r in itertools.product(range(1, 7), repeat=dice))
    whole = 6**dice
    return {t: F(c, whole) for t, c in counts.items()}


def bf_column(attacker: Fraction, target: Fraction) -> tuple[int, int]:
    """The might-skirmish attack table (line 28-29), column by column as the text lists them."""
    r = F(attacker) / F(target)
    if r <= F(1, 4):
        return 18, 16
    if r <= F(1, 2):
        return 17, 15
    if r < 1:
        return 16, 14
    if r == 1:
        return 15, 13
    if r >= 4:
        return 12, 10
    if r >= 2:
        return 13, 11
    return 14, 12


def bf_attack(a: int, t: int, dice=3, keep=None, partial=False, defending=False, stunned=False):
    target = F(t) * (2 if defending else 1) * (F(1, 2) if stunned else 1)
    kill_on, stun_on = bf_column(F(a), target)
    kill = stun = F(0)
    for total, p in bf_totals(dice, keep).items():
        if partial and total % 2:
            continue
        if total >= kill_on or (stunned and total >= stun_on):
            kill += p
        elif total >= stun_on:
            stun += p
    return kill, stun


def bf_chain(need: int, modifier: int, depth: int, sides: int = 6, explode_on: int = 6) -> dict[int, Fraction]:
    """Successes of one die and its further dice, enumerated face by face, cut at ``depth``."""
    out: Counter = Counter()

    def roll(successes: int, left: int, p: Fraction) -> None:
        for face in range(1, sides + 1):
            s = successes + (face + modifier >= need)
            if face >= explode_on and left > 0:
                roll(s, left - 1, p / sides)
            else:
                out[s] += p / sides

    roll(0, depth, F(1))
    return dict(out)


def bf_pool(n: int, need: int, modifier: int, depth: int, **kw) -> dict[int, Fraction]:
    dist = {0: F(1)}
    one = bf_chain(need, modifier, depth, **kw)
    for _ in range(n):
        nxt: Counter = Counter()
        for (a, p), (b, q) in itertools.product(dist.items(), one.items()):
            nxt[a + b] += p * q
        dist = dict(nxt)
    return dist


def bf_at_least(a: dict[int, Fraction], b: dict[int, Fraction]) -> Fraction:
    return sum((p * q for (x, p), (y, q) in itertools.product(a.items(), b.items()) if x >= y), F(0))


def bf_hits_per_casualty(shots_by_figure: list[int], hit_on: int, per: int, cap: int) -> dict[int, Fraction]:
    """Deathzap shooting (001_12a9f09e7f811521.txt lines 3-12), die by die: each figure rolls its
    weapon's shots, every die showing ``hit_on`` or more is a hit, and each ``per`` hits is one
    casualty, at most ``cap``. Every face of every die is enumerated as hit or miss, weighted by
    how many faces give it, so ten dice are 2**10 patterns rather than 6**10 rolls."""
    dice = sum(shots_by_figure)
    hit_faces, miss_faces = 7 - hit_on, hit_on - 1
    out: Counter = Counter()
    for pattern in itertools.product((True, False), repeat=dice):
        hits = sum(pattern)
        weight = hit_faces**hits * miss_faces ** (dice - hits)
        out[min(cap, hits // per)] += F(weight, 6**dice)
    return dict(out)
