"""The kinds of attack a rule set's odds file declares (melee, ranged, shooting), and which one a
question asks for: ``--attack ranged``, a form's switch, or the situation's own options.

A kind names the mechanic that works it out and the option values that make it that kind
(``attack: ranged``); a rule set that declares none has one kind, its ``matchup`` mechanic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from listbuilder.errors import ErrorDetail
from listbuilder.odds.load import load_odds
from listbuilder.odds.situation import OddsError
from listbuilder.odds.spec import AttackKind
from listbuilder.rules.catalog import System
from listbuilder.words import did_you_mean, one_of


def attack_kinds(system: System) -> tuple[AttackKind, ...]:
    """The rule set's kinds of attack, the default first."""
    return load_odds(system).attack_kinds()


def attack_named(system: System, attack: str) -> AttackKind:
    """The kind of attack ``attack`` (its id), or an ``OddsError`` saying which the rule set has."""
    kinds = attack_kinds(system)
    for kind in kinds:
        if kind.id == attack:
            return kind
    ids = [k.id for k in kinds]
    if len(kinds) == 1:
        raise OddsError.detailed(
            f"{system.id} has one kind of attack, '{ids[0]}', not '{attack}'",
            f"its odds are always of {kinds[0].title.lower()}: choose no kind of attack",
        )
    raise OddsError.detailed(
        f"{system.id} has no kind of attack '{attack}'",
        f"its kinds of attack: {one_of(ids)}",
        hint=did_you_mean(attack, ids),
    )


def with_attack(
    system: System, attack: str | None, mechanic: str | None, situation: Mapping[str, Any]
) -> tuple[str | None, dict[str, Any]]:
    """The mechanic and the situation a question asks for, once its kind of attack is added: the
    kind's mechanic and the options it sets. ``OddsError`` where the question says otherwise
    itself (``--attack ranged`` with ``attack=melee``, or with another mechanic)."""
    if attack is None:
        return mechanic, dict(situation)
    kind = attack_named(system, attack)
    if mechanic is not None and mechanic != kind.mechanic:
        raise OddsError.detailed(
            f"the {kind.title.lower()} is worked out by the mechanic '{kind.mechanic}', not '{mechanic}'",
            "choose a kind of attack or a mechanic, not both",
        )
    problems = [
        ErrorDetail(message=f"{key}={situation[key]} is not {kind.title.lower()}", hint=f"leave out '{key}'")
        for key, value in kind.situation.items()
        if key in situation and situation[key] != value
    ]
    if problems:
        raise OddsError(f"the situation disagrees with the kind of attack '{attack}'", details=problems)
    return kind.mechanic, {**situation, **kind.situation}


def kind_of(system: System, mechanic: str, values: Mapping[str, Any]) -> AttackKind | None:
    """The kind of attack a matchup worked out with ``mechanic`` in the situation ``values`` is:
    the first whose mechanic it is and whose options it has (``None``: a mechanic no kind names)."""
    for kind in attack_kinds(system):
        if kind.mechanic == mechanic and all(values.get(k) == v for k, v in kind.situation.items()):
            return kind
    return None
