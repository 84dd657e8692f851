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


# --- deathzap melee (text 001, lines 23-31) ---

# Combat dice and 6s per casualty, per figure (the table at lines 25-30)
ZAP = {"Infantry": (1, 1), "Beasts": (2, 1), "Light Vehicles": (3, 3), "Monsters": (12, 4)}


def bf_hits(dice: int) -> dict[int, Fraction]:
    """The 6s among ``dice`` dice (line 31: a hit for each 6), die by die, each die's six faces
    enumerated (a Monster's 12 dice are 6**12 rolls: too many to list one by one)."""
    dist: dict[int, Fraction] = {0: F(1)}
    for _ in range(dice):
        nxt: Counter = Counter()
        for hits, p in dist.items():
            for face in range(1, 7):
                nxt[hits + (face == 6)] += p / 6
        dist = dict(nxt)
    return dist


def bf_zap_melee(first: tuple[int, str], second: tuple[int, str]) -> dict[str, Fraction]:
    """Lines 24 and 31, by enumeration: the charger (``first``) rolls and strikes, the other's
    survivors strike back; the side with more casualties is destroyed unless the other is wiped
    out; a draw is fought again with casualties at once, until one side causes more. Keyed by
    what happens to the charger: 'charger wins', 'charger destroyed', 'both'."""
    (n1, t1), (n2, t2) = first, second
    (d1, h1), (d2, h2) = ZAP[t1], ZAP[t2]
    out: Counter = Counter()

    def settle(a: int, b: int, ca: int, cb: int, p: Fraction) -> None:
        a, b = a - ca, b - cb
        if a == 0 and b == 0:
            out["both"] += p
        elif a == 0 or (b and ca > cb):
            out["charger destroyed"] += p
        elif b == 0 or cb > ca:
            out["charger wins"] += p
        else:  # a draw: both strike at once; a round where nobody is hurt is simply rolled again
            rounds = [
                (min(a, ha // h1), min(b, hb // h2), pa * pb)
                for ha, pa in bf_hits(b * d2).items()
                for hb, pb in bf_hits(a * d1).items()
            ]
            quiet = sum(q for ca2, cb2, q in rounds if not ca2 and not cb2)
            for ca2, cb2, q in rounds:
                if ca2 or cb2:
                    settle(a, b, ca2, cb2, p * q / (1 - quiet))

    for hits1, p in bf_hits(n1 * d1).items():
        cb = min(n2, hits1 // h2)
        for hits2, q in bf_hits((n2 - cb) * d2).items():
            settle(n1, n2, min(n1, hits2 // h1), cb, p * q)
    return dict(out)
