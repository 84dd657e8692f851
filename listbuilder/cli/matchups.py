"""The odds command: exact matchup odds from a rule set's dice."""

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, JsonOption
from listbuilder.cli.output import fail, say, to_json
from listbuilder.errors import InputError, ListbuilderError


@command("odds")
def odds(
    args: Annotated[
        list[str],
        typer.Argument(
            help="SYSTEM ATTACKER TARGET [OPTION=VALUE...], or LIST_A.yaml LIST_B.yaml [OPTION=VALUE...]. "
            'A unit is a catalog unit\'s name or a statline in quotes, such as "Beast, Might 6".',
            show_default=False,
        ),
    ],
    attack: Annotated[
        str | None,
        typer.Option(
            "--attack",
            help="Which kind of attack, where the rule set has more than one (might-skirmish: melee or ranged; "
            "deathzap: shooting or melee). Default: its first.",
            show_default=False,
        ),
    ] = None,
    mechanic: Annotated[
        str | None, typer.Option("--mechanic", help="Which of the rule set's dice mechanics (default: its main one).")
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Show each chance as an exact fraction too.")] = False,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Exact odds from the rule set's dice: one matchup, or every unit of one list against another's.

    A unit's statline is written as 'listbuilder export' and 'cost' write it: "Beast, Might 6"
    (might=6 reads too; a list stat joins its values with +). The situation (cover, defending,
    which fight of the turn...) follows as OPTION=VALUE, each once; an unknown option lists the
    ones the rule set has.

    Where the rule set has more than one kind of attack, --attack picks the one the odds show.

    Example: listbuilder odds might-skirmish "Beast, Might 6" "Grandpa Bones" --attack ranged
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        lists,
        matchups,  # the odds' stack (icepool): only odds loads it
        rulesets,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
        if len(args) >= 2 and all(a.endswith((".yaml", ".yml")) or Path(a).is_file() for a in args[:2]):
            a, b = lists.check_list(Path(args[0]), books), lists.check_list(Path(args[1]), books)
            grid = matchups.odds_lists(a, b, situation_words(args[2:]), mechanic=mechanic, attack=attack)
            say(to_json(grid.as_json()) if as_json else matchups.matrix_text(grid.grid, grid.a, grid.b, grid.columns))
            return
        if len(args) < 3:
            raise InputError.detailed(
                "odds needs a rule set and two units, or two list files",
                "listbuilder odds SYSTEM ATTACKER TARGET, or listbuilder odds A.yaml B.yaml",
            )
        outcome = matchups.odds(
            books, args[0], args[1], args[2], situation_words(args[3:]), mechanic=mechanic, attack=attack
        )
        say(to_json(outcome.as_json()) if as_json else matchups.outcome_text(outcome, exact))
    except ListbuilderError as exc:
        fail(exc)


def situation_words(words: Sequence[str]) -> dict[str, str | bool | int]:
    """``cover=soft defending fight=2`` as the situation's values: a bare word (a flag) is ``True``,
    and the rule set's mechanic reads each value by its option (``api.odds`` says what is wrong)."""
    given: dict[str, str] = {}
    values: dict[str, str | bool | int] = {}
    for word in words:
        key, has_value, value = word.partition("=")
        key = key.strip().removeprefix("--").replace("-", "_")
        if key in given:
            raise InputError.detailed(
                f"the option '{key}' is given twice: '{given[key]}' and '{word}'", "give each option once"
            )
        if key == "mechanic":
            raise InputError.detailed(
                f"'{word}' is not a situation",
                "the mechanic is chosen apart from the situation",
                hint=f"use --mechanic {value}" if value else "use --mechanic",
            )
        given[key] = word
        values[key] = value if has_value else True
    return values
