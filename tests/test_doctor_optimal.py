"""fix and fill give optimal answers: the same keys as brute-force enumeration, judged by the validator.

Every rule set with force rules is tried (the five shipped ones and the sixth, written by the
test suite), on lists hypothesis builds and on the shipped illegal examples. The oracles
(``doctor_oracle.py``) build every candidate list themselves and ask ``build_report``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES
from doctor_oracle import TooBig, fill_keys, fix_keys
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from test_catalogs import write_sixth

from listbuilder.army.listfile import read_list
from listbuilder.army.report import build_report
from listbuilder.doctor import fill, fix
from listbuilder.doctor.solve import fill_slots, fix_slots
from listbuilder.rules.catalog import Catalogs
from listbuilder.rules.formats import ArmyList, Entry

SHIPPED = Catalogs()
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
ILLEGAL = sorted(EXAMPLES.glob("*.illegal.yaml"))


def sixth_catalogs(tmp_path_factory: pytest.TempPathFactory) -> Catalogs:
    return Catalogs([write_sixth(tmp_path_factory.mktemp("house"))])


@pytest.fixture(scope="module")
def every_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalogs:
    return sixth_catalogs(tmp_path_factory)


RULE_SETS = ["deathmelt", "deathzap", "melee-module", "might-skirmish", "speed-range-power", "pocket-legions"]


def _aim(army: ArmyList, system) -> int:  # type: ignore[no-untyped-def]
    return army.limit if army.limit is not None else build_report(army, system).total


def assert_fix_is_optimal(army: ArmyList, system) -> None:  # type: ignore[no-untyped-def]
    answer = fix(army, system)
    report = build_report(army, system)
    if report.legal():
        assert answer.status == "nothing to fix" and not answer.suggestions
        return
    slots = fix_slots(army, system)
    if not answer.suggestions:
        assert answer.status == "no legal list" and answer.why
        assert fix_keys(army, system, slots, 6) == []  # nothing within six models either
        return
    for s in answer.suggestions:
        assert s.report.legal(), s.text()
    assert len({s.steps for s in answer.suggestions}) == len(answer.suggestions)  # all different
    aim = _aim(army, system)
    mine = [(s.models_changed, s.touched, abs(aim - s.report.total), s.nearness) for s in answer.suggestions]
    assert mine == sorted(mine)
    # Every list with no more changes than the doctor's last answer, best first.
    oracle = fix_keys(army, system, slots, mine[-1][0])
    assert oracle[: len(mine)] == mine
    assert len(mine) == 3 or len(oracle) == len(mine)


def assert_fill_is_optimal(army: ArmyList, system, target: int, faction: str | None = None) -> None:  # type: ignore[no-untyped-def]
    answer = fill(army, system, target, faction)
    report = build_report(army, system)
    if not report.legal():
        assert answer.status == "not legal"
        return
    slots = fill_slots(army, system, faction)
    oracle = [k for k in fill_keys(army, system, slots, target) if k[1]]  # adding nothing is no answer
    mine = [(target - s.report.total, s.models_changed, s.touched) for s in answer.suggestions]
    for s in answer.suggestions:
        assert s.report.legal() and s.report.total <= target and all(c.delta > 0 for c in s.changes)
    assert mine == oracle[:3]
    assert answer.status == ("filled" if mine else "nothing to add")


def lists(catalogs: Catalogs, system_id: str, limit_slack: tuple[int, int]):  # type: ignore[no-untyped-def]
    """Small lists of a rule set's catalog units: one faction, one to three units, a few copies
    each, and a limit near their total."""
    system = catalogs.get(system_id)
    factions = sorted(system.factions)

    @st.composite
    def build(draw):  # type: ignore[no-untyped-def]
        faction = draw(st.sampled_from(factions))
        units = system.factions[faction]
        picked = draw(st.lists(st.sampled_from(units), min_size=1, max_size=3, unique_by=lambda u: u.name))
        entries = []
        for u in picked:
            count = draw(st.integers(1, 3))
            # mostly as the catalog says; now and then every copy, none, or some of them leaders
            leaders = draw(st.integers(0, count)) if draw(st.integers(0, 3)) == 0 else count * u.leader
            entries.append(Entry(index=len(entries), unit=u, count=count, leaders=leaders, custom=False))
        army = ArmyList(system=system_id, name="Drawn", limit=None, entries=tuple(entries))
        total = build_report(army, system).total
        low, high = limit_slack
        limit = max(1, total + draw(st.integers(low, high)))
        return ArmyList(system=system_id, name="Drawn", limit=limit, entries=tuple(entries)), system

    return build()


@pytest.mark.parametrize("system_id", RULE_SETS)
def test_fix_matches_brute_force_on_drawn_lists(system_id, every_catalog):
    @SETTINGS
    @given(lists(every_catalog, system_id, (-6, 2)))
    def check(drawn):  # type: ignore[no-untyped-def]
        army, system = drawn
        try:
            assert_fix_is_optimal(army, system)
        except TooBig:
            reject()

    check()


@pytest.mark.parametrize("system_id", RULE_SETS)
def test_fill_matches_brute_force_on_drawn_lists(system_id, every_catalog):
    @SETTINGS
    @given(lists(every_catalog, system_id, (1, 12)))
    def check(drawn):  # type: ignore[no-untyped-def]
        army, system = drawn
        assert army.limit is not None
        try:
            assert_fill_is_optimal(army, system, army.limit)
        except TooBig:
            reject()

    check()


@pytest.mark.parametrize("path", ILLEGAL, ids=[p.name for p in ILLEGAL])
def test_fix_of_each_shipped_illegal_example_is_optimal(path: Path):
    army, system = read_list(path, SHIPPED)
    assert not build_report(army, system).legal()
    assert_fix_is_optimal(army, system)


def test_fill_with_a_faction_matches_brute_force():
    army, system = read_list(EXAMPLES / "speed-range-power-ww2-platoon.legal.yaml", SHIPPED)
    faction = next(f for f in system.factions if any(u.name == "Medieval Knight" for u in system.factions[f]))
    assert_fill_is_optimal(army, system, 400, faction)
    assert_fill_is_optimal(army, system, 395, None)
