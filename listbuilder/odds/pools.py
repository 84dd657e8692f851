"""Engines for the pool kinds: opposed exploding success pools, hits per casualty, unit melee.

As in tables.py, each engine reads its numbers from the mechanic's data and the units'
stats and choice properties, and returns exact chances; none knows which rule set it serves.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from listbuilder.errors import ErrorDetail
from listbuilder.odds import bounds, dice
from listbuilder.odds.results import CardTable, Tally, figure, percent, tally
from listbuilder.odds.situation import ImpossibleMatchup, OddsError, Values, check, chosen, has, holds, modifier, read
from listbuilder.odds.spec import FromUnit, HitsPerCasualty, OpposedPools, UnitMelee
from listbuilder.odds.tables import removal_chance
from listbuilder.rules.catalog import System
from listbuilder.rules.formats import Choice, Unit
from listbuilder.rules.loadout import carriers

# --- opposed_pools -------------------------------------------------------------------------


def pool_side(system: System, m: OpposedPools, side: str, unit: Unit, v: Values) -> tuple[int, int, int]:
    """A side's (dice, roll needed, modifier to each die) in this situation."""
    base = count = int(read(system, unit, m.dice))
    for change in m.dice_changes:
        if change.side == side and holds(change.when, change.unless, v):
            steps = v[change.option] if v[change.option] is not None else change.start
            count += change.per * (int(steps) - change.start)
            if change.floor is not None:
                count = max(count, min(base, change.floor))
    need = m.success_on if m.success_on is not None else int(read(system, unit, m.success_from))  # type: ignore[arg-type]
    for override in m.success_overrides:
        if override.side in (side, "both") and holds(override.when, override.unless, v):
            need = override.value
    every, one = modifier(system, m.die_modifiers, side, unit, v)
    return count, need, every + one


def opposed_pools(system: System, m: OpposedPools, attacker: Unit, target: Unit, v: Values) -> Tally:
    """Both roll their pools; the winner kills the loser if it can reach it, unless the target saves."""
    units = {"attacker": attacker, "target": target}
    check(system, m.requires, units, v)
    distance = strikes_back = None
    if m.reach is not None:
        reach = {side: int(read(system, unit, FromUnit(stat=m.reach.stat))) for side, unit in units.items()}
        distance = v[m.reach.option] if v[m.reach.option] is not None else reach["attacker"]
        if distance > reach["attacker"]:
            raise ImpossibleMatchup(f"{attacker.name} cannot reach a target {distance} away")
        strikes_back = reach["target"] >= distance
    a = pool_side(system, m, "attacker", attacker, v)
    t = pool_side(system, m, "target", target, v)
    if a[0] <= 0:
        raise ImpossibleMatchup(f"{attacker.name} has no dice left to attack with")
    wins, ties, _ = dice.compare(_dist(m, *a), _dist(m, *t))
    won = wins + (ties if m.ties == "attacker" else 0)
    saved = Fraction(0)
    if m.save is not None and v[m.save.option] in m.save.on:
        saved = Fraction(m.save.sides - m.save.on[v[m.save.option]] + 1, m.save.sides)
    names = m.results
    rows: list[tuple[str, Fraction, int, int]] = [(names.won, won * (1 - saved), 1, 0)]
    if m.save is not None:
        rows.append((str(names.saved), won * saved, 0, 0))
    rows.append((names.lost, (1 - won) if strikes_back is not False else Fraction(0), 0, 1))
    if m.reach is not None:
        rows.append((str(names.out_of_reach), (1 - won) if strikes_back is False else Fraction(0), 0, 0))
    truncation = dice.cut_short(max(a[0], 0) + max(t[0], 0), m.sides, m.explode_on, m.explode_depth)
    return tally(rows, truncation)


def _dist(m: OpposedPools, count: int, need: int, mod: int) -> dice.Dist:
    return dice.pool(count, m.sides, need, mod, m.explode_on, m.explode_depth)


def opposed_pools_card(system: System, m: OpposedPools) -> list[CardTable]:
    """A grid of the attacker's chance to win by each side's dice, without modifiers."""
    first, last = m.card_grid
    bounds.check(last - first + 1, bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_grid')")
    if m.success_on is None:
        return []  # the roll needed depends on the unit: no single grid to print
    rows = []
    for mine in range(first, last + 1):
        cells = []
        for theirs in range(first, last + 1):
            wins, ties, _ = dice.compare(_dist(m, mine, m.success_on, 0), _dist(m, theirs, m.success_on, 0))
            cells.append(percent(wins + (ties if m.ties == "attacker" else 0)))
        rows.append((str(mine), *cells))
    label = system.definition.stats[m.dice.stat].label
    return [
        CardTable(
            title=f"{m.title}: chance the attacker wins",
            columns=(f"Attacker's {label} \\ target's", *(str(k) for k in range(first, last + 1))),
            rows=tuple(rows),
            note=f"Without modifiers; a tie goes to the {m.ties}. Exact, following each die's further dice "
            f"{m.explode_depth} deep.",
            source=m.source,
        )
    ]


# --- hits_per_casualty ---------------------------------------------------------------------


def hits_per_casualty(system: System, m: HitsPerCasualty, attacker: Unit, target: Unit, v: Values) -> Tally:
    """The chance of each number of casualties from one unit's shooting at another."""
    check(system, m.requires, {"attacker": attacker, "target": target}, v)
    weapons = chosen(system, attacker, m.shots.stat, m.shots.where)
    named = v.get(m.weapon_option) if m.weapon_option else "all"
    if named not in (None, "all"):
        weapons = [w for w in weapons if w.name == named]
        if not weapons:
            raise ImpossibleMatchup(f"{attacker.name} carries no {named}")
    if not weapons:
        raise ImpossibleMatchup(f"{attacker.name} has no weapon to shoot with")
    figures = int(attacker.stats.get(m.figures, 1)) if m.figures else 1
    # How many figures carry each weapon: all of them, unless the unit gives a loadout.
    carrying = dict(carriers(attacker.stats.get(m.shots.stat), figures))
    firing = v.get(m.firing_option) if m.firing_option else None
    if firing is not None:
        if len(weapons) > 1 and len({carrying[w.name] for w in weapons}) > 1:
            raise OddsError(
                f"{attacker.name} is armed unevenly: say which weapon its {firing} firing figures carry",
                details=[ErrorDetail(message=f"give '{m.weapon_option}' with '{m.firing_option}'")],
            )
        most = max(carrying[w.name] for w in weapons)
        if firing > most:
            raise OddsError(f"{attacker.name} has {most} figures {_carrying(weapons)}, not {firing}")
    if m.harm is not None and has(system, target, m.harm.target_stat, m.harm.target_property, True):
        weapons = [w for w in weapons if w.properties.get(m.harm.weapon_property) is True]
    shots = sum(
        (carrying[w.name] if firing is None else firing) * int(w.properties.get(m.shots.property or "", 0))
        for w in weapons
    )
    cover = v[m.hits_needed.option]
    need = int(read(system, target, FromUnit(stat=m.hits_needed.stat, property=m.hits_needed.properties[cover])))
    cap = int(target.stats.get(m.figures, 1)) if m.figures else 1
    chances = _casualties(shots, m.sides, m.hit_on, need, cap)
    removed = removal_chance(system, m.damage_roll, target)
    return tally((_casualty_name(m, k), c, k * removed, 0) for k, c in enumerate(chances))


def _carrying(weapons: list[Choice]) -> str:
    return f"carrying the {weapons[0].name}" if len(weapons) == 1 else "in all"


def _casualty_name(m: HitsPerCasualty, k: int) -> str:
    return f"no {m.casualty.plural}" if k == 0 else f"{k} {m.casualty.of(k)}"


@lru_cache(maxsize=dice.DISTRIBUTIONS)
def _casualties(dice_count: int, sides: int, hit_on: int, per: int, cap: int) -> tuple[Fraction, ...]:
    """Chance of 0, 1, 2... casualties (at most ``cap``) from ``dice_count`` dice, ``per`` hits each."""
    most = min(cap, dice_count // max(per, 1))
    chances = [Fraction(0)] * (most + 1)
    for hits, chance in dice.count_at_least(dice_count, sides, hit_on).items():
        chances[min(most, hits // max(per, 1))] += chance
    return tuple(chances)


def hits_per_casualty_card(system: System, m: HitsPerCasualty) -> list[CardTable]:
    """A grid of the chance of at least one casualty (and the expected number) by shots and hits needed."""
    needs = sorted(
        {
            int(c.properties[p])
            for c in system.definition.stats[m.hits_needed.stat].choices
            for p in m.hits_needed.properties.values()
            if isinstance(c.properties.get(p), int)
        }
    )
    rows = []
    bounds.check(len(m.card_shots), bounds.MAX_CARD_GRID, "rows of the card's odds grid ('card_shots')")
    for shots in m.card_shots:
        cells = []
        for need in needs:
            chances = _casualties(shots, m.sides, m.hit_on, need, shots)
            expected = sum((k * c for k, c in enumerate(chances)), Fraction(0))
            cells.append(f"{percent(1 - chances[0])} ({figure(expected)})")
        rows.append((str(shots), *cells))
    return [
        CardTable(
            title=f"{m.title}: chance of a casualty (expected casualties)",
            columns=("Shots \\ hits per casualty", *(str(n) for n in needs)),
            rows=tuple(rows),
            note=f"Each shot hits on a {m.hit_on}+; exact chances.",
            source=m.source,
        )
    ]


# --- unit_melee ----------------------------------------------------------------------------

Final = tuple[str, int, int]  # (outcome, attacker survivors, target survivors)
# The outcomes, by their fields in MeleeResults (which names each in the rule set's words).
OUTCOMES = ("attacker_wins", "target_wins", "both", "undecided")


def unit_melee(system: System, m: UnitMelee, attacker: Unit, target: Unit, v: Values) -> Tally:
    """The decided outcome of a melee between two whole units, and the figures each loses."""
    side = {}
    for name, unit in (("attacker", attacker), ("target", target)):
        side[name] = (
            int(unit.stats.get(m.figures, 1)),
            int(read(system, unit, m.dice)),
            int(read(system, unit, m.hits_per_casualty)),
        )
    fight = _Fight(m.sides, m.hit_on, side["attacker"][1:], side["target"][1:])
    na, nb = side["attacker"][0], side["target"][0]
    for figures, dice_each, _ in side.values():
        bounds.check(figures, bounds.MAX_MELEE_FIGURES, "figures a side in a melee")
        bounds.check(figures * dice_each, bounds.MAX_MELEE_DICE, "dice a side rolls in a round of melee")
    finals = fight.first_round(na, nb) if m.first_strike else fight.simultaneous(na, nb)
    by_result = {r: Fraction(0) for r in OUTCOMES}
    kills = losses = Fraction(0)
    for (result, sa, sb), chance in finals.items():
        by_result[result] += chance
        kills += chance * (nb - sb)
        losses += chance * (na - sa)
    shown = OUTCOMES if by_result["undecided"] else OUTCOMES[:-1]
    results = tuple((getattr(m.results, r), by_result[r]) for r in shown)
    return Tally(results=results, kills=kills, losses=losses)


class _Fight:
    """The casualty rounds of one melee, memoised over the survivors of each side."""

    def __init__(self, sides: int, hit_on: int, attacker: tuple[int, int], target: tuple[int, int]) -> None:
        self.sides, self.hit_on = sides, hit_on
        (self.dice_a, self.per_a), (self.dice_b, self.per_b) = attacker, target
        self.memo: dict[tuple[int, int], dict[Final, Fraction]] = {}

    def casualties(self, figures: int, dice_each: int, per: int, cap: int) -> tuple[Fraction, ...]:
        return _casualties(figures * dice_each, self.sides, self.hit_on, per, cap)

    def first_round(self, na: int, nb: int) -> dict[Final, Fraction]:
        """The charger strikes first; the target's survivors strike back."""
        out: dict[Final, Fraction] = {}
        for cb, p in enumerate(self.casualties(na, self.dice_a, self.per_b, nb)):
            for ca, q in enumerate(self.casualties(nb - cb, self.dice_b, self.per_a, na)):
                self._settle(out, na, nb, ca, cb, p * q)
        return out

    def simultaneous(self, na: int, nb: int) -> dict[Final, Fraction]:
        """Both strike at once until one side causes more casualties; rounds of no casualties
        change nothing, so the answer is conditioned on a round that does something."""
        if (na, nb) in self.memo:
            return self.memo[(na, nb)]
        out: dict[Final, Fraction] = {}
        from_a = self.casualties(na, self.dice_a, self.per_b, nb)
        from_b = self.casualties(nb, self.dice_b, self.per_a, na)
        nothing = from_a[0] * from_b[0]
        if nothing == 1:
            out = {("undecided", na, nb): Fraction(1)}
        else:
            for cb, p in enumerate(from_a):
                for ca, q in enumerate(from_b):
                    if ca or cb:
                        self._settle(out, na, nb, ca, cb, p * q / (1 - nothing))
        self.memo[(na, nb)] = out
        return out

    def _settle(self, out: dict[Final, Fraction], na: int, nb: int, ca: int, cb: int, p: Fraction) -> None:
        """Who is destroyed after a round with ``ca`` attacker and ``cb`` target casualties: a side
        wiped out loses; otherwise the side that took more casualties is destroyed; a draw is
        fought again, simultaneously."""
        sa, sb = na - ca, nb - cb
        final: Final | None = None
        if sa == 0 and sb == 0:
            final = ("both", 0, 0)
        elif sa == 0 or (sb and ca > cb):
            final = ("target_wins", 0, sb)
        elif sb == 0 or cb > ca:
            final = ("attacker_wins", sa, 0)
        if final is not None:
            out[final] = out.get(final, Fraction(0)) + p
            return
        for key, chance in self.simultaneous(sa, sb).items():
            out[key] = out.get(key, Fraction(0)) + p * chance
