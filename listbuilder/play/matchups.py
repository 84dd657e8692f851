"""Odds at the table: a piece of the list attacking a unit of an opponent's list of the same rule set.

The figures are ``listbuilder odds``' own: the same matchup function, the same situation words.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from listbuilder.army.report import Report
from listbuilder.editing.state import folder_summaries
from listbuilder.errors import InputError
from listbuilder.play.board import Board, list_board
from listbuilder.record import Record, record
from listbuilder.rules.catalog import Catalogs

if TYPE_CHECKING:
    from listbuilder.odds.matchups import Outcome

# An opponent for odds: its file, its name, and (index, unit name) of each entry.
Opponent = tuple[str, str, tuple[tuple[int, str], ...]]


@record
class SituationOption(Record):
    """One of the rule set's situation options, as a form shows it."""

    key: str
    kind: str  # flag, number, choice
    summary: str
    default: Any
    values: tuple[str, ...]
    minimum: int | None
    maximum: int | None
    source: str


def opponents(folder: Path, board: Board, catalogs: Catalogs) -> tuple[Opponent, ...]:
    """The lists of ``folder`` of ``board``'s rule set that can be read, with their entries."""
    found = []
    for summary in folder_summaries(folder, catalogs):
        if summary.system != board.system or summary.error:
            continue
        try:
            other = list_board(folder, summary.file, catalogs)
        except InputError:
            continue
        units = tuple((line.entry.index, line.entry.unit.name) for line in other.report.lines)
        found.append((summary.file, summary.name or summary.file, units))
    return tuple(found)


@record
class OptionGroup(Record):
    """The situation options of the kinds of attack one mechanic works out (shooting's cover and
    weapon; melee's charger), less those a kind sets itself (``attack: ranged``)."""

    attacks: tuple[str, ...]  # the kinds' ids
    title: str  # their titles, as a form names the group: 'Shooting', 'Melee attack or Ranged attack'
    options: tuple[SituationOption, ...]


def attack_choices(board: Board) -> tuple[tuple[str, str], ...]:
    """The rule set's kinds of attack as a form offers them, (id, title), the default first."""
    from listbuilder.odds.attacks import attack_kinds  # start-up: as in option_groups

    try:
        return tuple((k.id, k.title) for k in attack_kinds(board.report.system))
    except InputError:
        return ()


def option_groups(board: Board) -> tuple[OptionGroup, ...]:
    """The situation options of each mechanic the rule set's kinds of attack use, the default's first."""
    # start-up: the odds package loads only when odds are asked for, never for a tap (api.play imports this module)
    from listbuilder.odds.attacks import attack_kinds
    from listbuilder.odds.matchups import mechanic_of
    from listbuilder.odds.parts import option_values

    system = board.report.system
    try:
        kinds = attack_kinds(system)
    except InputError:
        return ()
    groups = []
    for mechanic_id in dict.fromkeys(k.mechanic for k in kinds):
        mine = [k for k in kinds if k.mechanic == mechanic_id]
        fixed = {key for k in mine for key in k.situation}
        mechanic = mechanic_of(system, mechanic_id)
        options = tuple(
            SituationOption(
                key=key,
                kind=o.kind,
                summary=o.summary,
                default=o.default,
                values=option_values(system, o),
                minimum=o.minimum,
                maximum=o.maximum,
                source=o.source,
            )
            for key, o in mechanic.options.items()
            if key not in fixed
        )
        title = " or ".join(k.title for k in mine)
        groups.append(OptionGroup(attacks=tuple(k.id for k in mine), title=title, options=options))
    return tuple(groups)


def piece_odds(
    board: Board,
    piece_key: str,
    opponent: Report,
    target: int,
    situation: Mapping[str, str | bool | int],
    attack: str | None = None,
) -> Outcome:
    """The exact odds of ``piece_key`` attacking entry ``target`` of ``opponent`` with the kind of
    attack ``attack`` (default the rule set's first); ``situation`` is the values of that kind's
    options, as ``listbuilder odds`` takes them."""
    # start-up: as in option_groups
    from listbuilder.odds.ask import situation_of
    from listbuilder.odds.matchups import matchup

    piece = board.piece(piece_key)
    if piece is None:
        raise InputError(f"'{piece_key[:80]}' is not a model of this list")
    if opponent.system.id != board.system:
        raise InputError.detailed(
            f"the opponent's list is for {opponent.system.id}, not {board.system}", "odds compare lists of one rule set"
        )
    lines = [line for line in board.report.lines if line.entry.index == piece.entry]
    targets = [line for line in opponent.lines if line.entry.index == target]
    if not targets:
        raise InputError(f"the opponent's list has no entry {target}")
    system = board.report.system
    attacker = lines[0].entry.unit
    values = situation_of(system, None, situation, attack)
    return matchup(system, attacker, targets[0].entry.unit, attack_kind=attack, **values)
