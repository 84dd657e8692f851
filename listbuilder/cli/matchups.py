"""The odds command: exact matchup odds from a rule set's dice."""

from pathlib import Path
from typing import Annotated

import typer

from listbuilder.cli.options import (
    CatalogsOption,
    JsonOption,
    fail,
)
from listbuilder.errors import ErrorDetail, InputError, ListbuilderError


def odds(
    args: Annotated[
        list[str],
        typer.Argument(
            help="SYSTEM ATTACKER TARGET [OPTION=VALUE...], or LIST_A.yaml LIST_B.yaml [OPTION=VALUE...]. "
            "A unit is a catalog unit's name or a statline such as class=Beast,might=6.",
            show_default=False,
        ),
    ],
    mechanic: Annotated[
        str | None, typer.Option("--mechanic", help="Which of the rule set's dice mechanics (default: its main one).")
    ] = None,
    exact: Annotated[bool, typer.Option("--exact", help="Show each chance as an exact fraction too.")] = False,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Exact odds from the rule set's dice: one matchup, or every unit of one list against another's.

    The situation (cover, defending, which fight of the turn...) follows as OPTION=VALUE;
    an unknown option lists the ones the rule set has.

    Example: listbuilder odds might-skirmish class=Beast,might=6 "Grandpa Bones" attack=melee
    """
    from listbuilder.api import check_list, open_catalogs

    try:
        books = open_catalogs(catalogs)
        if len(args) >= 2 and all(a.endswith((".yaml", ".yml")) or Path(a).is_file() for a in args[:2]):
            from listbuilder.odds.ask import list_matrix, matrix_json, matrix_text, read_situation

            a, b = check_list(Path(args[0]), books), check_list(Path(args[1]), books)
            if a.system.id != b.system.id:
                raise InputError(
                    f"the lists are for different rule sets: {a.system.id} and {b.system.id}",
                    details=[ErrorDetail(message="odds compare lists of one rule set")],
                )
            situation = read_situation(a.system, mechanic, args[2:])
            grid, _, columns = list_matrix(a.system, a, b, mechanic=mechanic, **situation)
            typer.echo(matrix_json(grid, a, b, columns) if as_json else matrix_text(grid, a, b, columns))
            return
        if len(args) < 3:
            raise InputError(
                "odds needs a rule set and two units, or two list files",
                details=[
                    ErrorDetail(message="listbuilder odds SYSTEM ATTACKER TARGET, or listbuilder odds A.yaml B.yaml")
                ],
            )
        from listbuilder.odds.ask import one_matchup, outcome_json, outcome_text

        outcome = one_matchup(books.get(args[0]), args[1], args[2], mechanic, args[3:])
        typer.echo(outcome_json(outcome) if as_json else outcome_text(outcome, exact))
    except ListbuilderError as exc:
        fail(exc)
