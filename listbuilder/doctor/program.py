"""The list doctor's integer program: integer counts, linear rows, solved exactly with HiGHS.

Every variable is an integer with finite bounds; every row is ``low <= sum(a * x) <= high`` with
integer coefficients. The force rules write their own rows (``rules/forcerules/``, each kind's
``encode``); this module only holds them and hands them to the solver. HiGHS (through
``highspy``, imported here and nowhere else) is run with no optimality gap at all, so what it
returns is optimal, not merely good; ``exclude`` adds the rows that forbid an answer already
given, for the next best one.

The solver computes in floating point, so a question whose numbers it cannot hold exactly (a
count or a limit in the trillions) is refused with ``TooLarge`` (exit code 2) before it runs,
rather than answered wrongly: every bound, coefficient and the whole range of the objective
stay within ``MAX_EXACT``. The search is bounded in time too: one question (all the programs
its answers need) may take ``MAX_SECONDS``; past that it is refused with ``TooLarge`` as well,
since an answer the solver has not proven best is not given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

from listbuilder.army.constraints import per_copy
from listbuilder.doctor.slots import Option, Slot
from listbuilder.errors import InputError
from listbuilder.rules.catalog import System
from listbuilder.rules.forcerules import Linear
from listbuilder.rules.formats import Group, Unit

# The largest number a question may hold: well inside the 2**53 integers a double holds exactly,
# so that answers one model or one point apart stay apart in the solver's arithmetic.
MAX_EXACT = 10**15
# Different units and statlines in one question: each is a variable of the program, and a custom
# unit's nearest legal statlines are more; past a few hundred, the work grows far faster than the
# list (1,000 custom units took 6 s of CPU, 3,000 ran into MAX_SECONDS). benchmarks/bench_club.py.
MAX_PROFILES = 250
MAX_SECONDS = 20.0  # one fix or fill question in all (the shipped examples take well under a second)


class TooLarge(InputError):
    """The list's numbers are past what the list doctor answers exactly (exit code 2)."""


class Deadline:
    """The end of one question's time: ``MAX_SECONDS`` from when it was asked (reading the list,
    preparing the slots, every program solved and every answer judged, all together)."""

    def __init__(self, started: float | None = None) -> None:
        self.end = (time.monotonic() if started is None else started) + MAX_SECONDS

    def left(self) -> float:
        """The seconds left (negative once past)."""
        return self.end - time.monotonic()

    def check(self) -> None:
        """``TooLarge`` once the question's time is up."""
        if self.left() <= 0:
            raise too_slow()


class Program:
    """The variables and rows of one question, built by the doctor and by the force rules."""

    def __init__(
        self,
        system: System,
        limit: int | None,
        slots: Sequence[Slot],
        highs: Sequence[Sequence[int]],
        lows: Sequence[Sequence[int]] | None = None,
        leads: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        self.system = system
        self.limit = limit
        self.slots = slots
        self.low: list[int] = []
        self.high: list[int] = []
        self.rows: list[tuple[Linear, int | None, int | None]] = []
        # One variable per option of each slot: how many copies of that profile the list fields.
        self.copies: list[list[int]] = []
        for i, bounds in enumerate(highs):
            floor = lows[i] if lows is not None else [0] * len(bounds)
            self.copies.append([self._new(low, high) for low, high in zip(floor, bounds, strict=True)])
        # Where leaders are counted: one variable per slot, how many of its copies are leaders
        # (the caller bounds it by the copies); ``None`` where no rule that must hold counts them.
        self.leaders: list[int] | None = None
        if leads is not None:
            self.leaders = [self._new(low, high) for low, high in leads]

    def _new(self, low: int, high: int) -> int:
        self.low.append(low)
        self.high.append(max(low, high))
        return len(self.low) - 1

    # --- what the force rules ask for (rules/forcerules/base.py: LinearForm) -------------------

    def total(self) -> Linear:
        return self._sum(lambda slot, option: option.cost)

    def models(self, group: Group | None) -> Linear:
        if group is not None and group.leader is not None:
            assert self.leaders is not None, "a rule counts leaders: the program has their variables"
            leaders = Linear(dict.fromkeys(self.leaders, 1))
            if group.leader:
                return leaders
            return Linear({v: 1 for variables in self.copies for v in variables}) - leaders
        return self._sum(lambda slot, option: per_copy(self.system, group, option.unit))

    def slot_leaders(self, i: int) -> Linear:
        """How many of slot ``i``'s copies are leaders (its variable; only where leaders are counted)."""
        assert self.leaders is not None
        return Linear({self.leaders[i]: 1})

    def columns(self) -> Iterable[tuple[Unit, int, Linear]]:
        for slot, variables in zip(self.slots, self.copies, strict=True):
            for option, var in zip(slot.options, variables, strict=True):
                yield option.unit, option.size, Linear({var: 1})

    def largest(self, expr: Linear) -> int:
        return expr.constant + sum(max(a * self.low[k], a * self.high[k]) for k, a in expr.terms.items())

    def smallest(self, expr: Linear) -> int:
        return expr.constant + sum(min(a * self.low[k], a * self.high[k]) for k, a in expr.terms.items())

    def integer(self, low: int, high: int) -> Linear:
        return Linear({self._new(low, high): 1})

    def require(self, expr: Linear, low: int | None = None, high: int | None = None) -> None:
        self.rows.append(
            (expr, None if low is None else low - expr.constant, None if high is None else high - expr.constant)
        )

    # --- what the doctor builds on top ---------------------------------------------------------

    def _sum(self, each: Callable[[Slot, Option], int]) -> Linear:
        terms: dict[int, int] = {}
        for slot, variables in zip(self.slots, self.copies, strict=True):
            for option, var in zip(slot.options, variables, strict=True):
                terms[var] = each(slot, option)
        return Linear(terms)

    def slot_copies(self, i: int) -> Linear:
        """The copies of slot ``i``, whichever of its statlines they have."""
        return Linear(dict.fromkeys(self.copies[i], 1))

    def binary(self) -> Linear:
        return self.integer(0, 1)

    def absolute(self, expr: Linear) -> Linear:
        """A variable that is at least ``|expr|``: minimised, it is exactly ``|expr|``."""
        top = max(abs(self.largest(expr)), abs(self.smallest(expr)))
        u = self.integer(0, top)
        self.require(u - expr, low=0)
        self.require(u + expr, low=0)
        return u

    def exclude(self, answer: dict[int, int]) -> None:
        """Forbid the values ``answer`` (by variable) together: at least one must differ."""
        flags = Linear()
        for var, value in answer.items():
            low, high = self.low[var], self.high[var]
            if not low <= value <= high:  # this program cannot give that answer anyway
                return
            x = Linear({var: 1})
            if value < high:  # up = 1 forces x >= value + 1
                up = self.binary()
                self.require(x - (value + 1 - low) * up, low=low)
                flags = flags + up
            if value > low:  # down = 1 forces x <= value - 1
                down = self.binary()
                self.require(x + (high - value + 1) * down, high=high)
                flags = flags + down
        self.require(flags, low=1)

    def _check_size(self, objective: Linear) -> None:
        numbers = [abs(v) for v in (*self.low, *self.high)]
        for expr, low, high in self.rows:
            numbers += [abs(a) for a in expr.terms.values()]
            numbers += [abs(b) for b in (low, high) if b is not None]
        numbers += [abs(a) for a in objective.terms.values()]
        numbers.append(self.largest(objective) - self.smallest(objective))
        biggest = max(numbers, default=0)
        if biggest > MAX_EXACT:
            raise TooLarge.detailed(
                (
                    f"too large for an exact answer: the question holds numbers up to {biggest:,}, "
                    f"and the list doctor answers exactly up to {MAX_EXACT:,}"
                ),
                "the counts or the limit of this list are far past any game's",
                hint="fix or fill a list with fewer models or a smaller limit",
            )

    def solve(self, objective: Linear, seconds: float | None = None) -> list[int] | None:
        """The values of every variable at the smallest ``objective``, or ``None`` if no list obeys the rows.

        ``seconds`` is the time left to the question (default ``MAX_SECONDS``); past it, ``TooLarge``."""
        seconds = MAX_SECONDS if seconds is None else seconds
        if seconds <= 0:
            raise too_slow()
        self._check_size(objective)
        started = time.monotonic()
        found = self._run(objective, presolve=True, seconds=seconds)
        if found is None:
            # HiGHS's presolve has been seen to call a feasible program of this shape infeasible
            # (highspy 1.16: a third answer that exists, tests/test_doctor.py); an answer of
            # "none" is only given once the solver agrees without it.
            left = seconds - (time.monotonic() - started)
            if left <= 0:
                raise too_slow()
            found = self._run(objective, presolve=False, seconds=left)
        return found

    def _run(self, objective: Linear, presolve: bool, seconds: float) -> list[int] | None:
        # start-up: numpy and HiGHS load only when the doctor solves
        import numpy as np
        from highspy import _core as hs

        h = hs._Highs()
        for name, setting in (
            ("presolve", "on" if presolve else "off"),
            ("output_flag", False),
            ("mip_rel_gap", 0.0),
            ("mip_abs_gap", 1e-7),
            ("threads", 1),
            ("random_seed", 0),
            ("time_limit", float(seconds)),
        ):
            h.setOptionValue(name, setting)
        n = len(self.low)
        cost = np.zeros(n)
        for k, a in objective.terms.items():
            cost[k] = a
        none = np.array([], dtype=np.int32)
        h.addCols(
            n, cost, np.array(self.low, dtype=float), np.array(self.high, dtype=float), 0, none, none, np.array([])
        )
        h.changeColsIntegrality(
            n, np.arange(n, dtype=np.int32), np.full(n, int(hs.HighsVarType.kInteger), dtype=np.uint8)
        )
        inf = hs.kHighsInf
        lows: list[float] = []
        highs: list[float] = []
        starts: list[int] = []  # where each row's terms begin in index and value
        index: list[int] = []
        value: list[int] = []
        for expr, low, high in self.rows:
            if not expr.terms:
                if (low is not None and low > 0) or (high is not None and high < 0):
                    return None
                continue
            lows.append(-inf if low is None else low)
            highs.append(inf if high is None else high)
            starts.append(len(index))
            for k, a in sorted(expr.terms.items()):
                index.append(k)
                value.append(a)
        if lows:
            h.addRows(
                len(lows),
                np.array(lows, dtype=float),
                np.array(highs, dtype=float),
                len(index),
                np.array(starts, dtype=np.int32),
                np.array(index, dtype=np.int32),
                np.array(value, dtype=float),
            )
        h.run()
        status = h.getModelStatus()
        if status == hs.HighsModelStatus.kInfeasible:
            return None
        if status == hs.HighsModelStatus.kTimeLimit:
            raise too_slow()
        if status != hs.HighsModelStatus.kOptimal:
            raise RuntimeError(f"the solver stopped without an answer: {h.modelStatusToString(status)}")
        found = [round(v) for v in h.getSolution().col_value]
        for expr, low, high in self.rows:  # the rows hold exactly, not within a tolerance
            got = expr.value(found) - expr.constant
            if (low is not None and got < low) or (high is not None and got > high):
                raise RuntimeError("the solver's answer breaks a row of its program")
        return found


def check_profiles(count: int) -> None:
    """Refuse, before any work, a question over ``count`` different profiles past ``MAX_PROFILES``."""
    if count > MAX_PROFILES:
        raise TooLarge.detailed(
            f"too large for an exact answer: {count:,} different units and statlines",
            f"the list doctor answers lists of up to {MAX_PROFILES:,} different units and statlines",
            hint="fix or fill a list with fewer different entries",
        )


def too_slow() -> TooLarge:
    """The refusal of a question that takes longer than ``MAX_SECONDS`` to answer exactly."""
    return TooLarge.detailed(
        f"too much work for an exact answer: more than {MAX_SECONDS:g} seconds",
        f"the list doctor gives only answers it has proven best, within {MAX_SECONDS:g} seconds",
        hint="fix or fill a list with fewer different entries",
    )
