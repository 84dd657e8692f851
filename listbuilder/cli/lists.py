"""Commands that read lists and rule sets: validate, points, cost, systems, catalog, diff."""

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from listbuilder.cli import views
from listbuilder.cli.commands import command
from listbuilder.cli.options import CatalogsOption, JsonOption, StrictOption
from listbuilder.cli.output import fail, render, say, to_json
from listbuilder.errors import EXIT_NO_SIZE, EXIT_OK, EXIT_RULES_BROKEN, InputError, ListbuilderError, worse_exit

if TYPE_CHECKING:
    from listbuilder.api.lists import Report


@command("validate")
def validate(
    files: Annotated[list[Path], typer.Argument(help="List files to check.", show_default=False)],
    as_json: JsonOption = False,
    strict: StrictOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Check lists against their rule sets and say what breaks which rule.

    A folder stands for every list file directly in it (*.yaml and *.yml).

    Exit 0 when every list is legal, 1 when one breaks a rule, 2 when a file cannot be read, 5
    when a list breaks no rule but has no size agreed (its rule set has no standard game).

    Example: listbuilder validate --strict my-warband.yaml
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        lists,
        rulesets,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
    except ListbuilderError as exc:
        fail(exc)
    worst = EXIT_OK
    for path in list_files(files):
        try:
            report = lists.check_list(path, books)
        except ListbuilderError as exc:
            worst = worse_exit(worst, exc.exit_code)
            if as_json:
                say(to_json({"file": str(path), "legal": False, "error": render(exc)}))
            say(f"error: {render(exc)}", err=True)
            continue
        worst = worse_exit(worst, verdict_exit(report, strict))
        say(to_json(report.as_json(strict)) if as_json else views.validation(report, strict))
    raise typer.Exit(worst)


def verdict_exit(report: "Report", strict: bool) -> int:
    """The exit code of one list's verdict: 0 legal, 1 a rule broken, 5 no size agreed."""
    verdict = report.verdict(strict)
    return EXIT_OK if verdict == "legal" else EXIT_NO_SIZE if verdict == "no size agreed" else EXIT_RULES_BROKEN


def list_files(paths: Sequence[Path]) -> list[Path]:
    """``paths`` with each folder replaced by the list files directly in it, by name; a folder
    with none stays as it is, so reading it says what is wrong."""
    out: list[Path] = []
    for path in paths:
        found = []
        if path.is_dir():
            try:
                found = sorted(
                    (p for p in path.iterdir() if p.suffix in (".yaml", ".yml") and not p.name.startswith(".")),
                    key=lambda p: p.name.lower(),
                )
            except OSError:
                found = []
        out += [p for p in found if p.is_file()] or [path]
    return out


@command("points")
def points(
    files: Annotated[list[Path], typer.Argument(help="List files to cost.", show_default=False)],
    as_json: JsonOption = False,
    strict: StrictOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Show the cost of each entry and the total against the limit.

    Exits as validate does: 0 legal, 1 a rule broken, 2 a file unread, 5 no size agreed.

    Example: listbuilder points examples/speed-range-power-camel-corps.legal.yaml
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        lists,
        rulesets,
    )

    worst = EXIT_OK
    try:
        books = rulesets.open_catalogs(catalogs)
    except ListbuilderError as exc:
        fail(exc)
    for path in files:
        try:
            report = lists.check_list(path, books)
        except ListbuilderError as exc:
            worst = worse_exit(worst, exc.exit_code)
            say(f"error: {render(exc)}", err=True)
            continue
        worst = worse_exit(worst, verdict_exit(report, strict))
        if as_json:
            say(to_json(report.as_json(strict, entries=True)))
        else:
            say(views.points(report, strict))
    raise typer.Exit(worst)


@command("cost", allow_extra_args=True, ignore_unknown_options=True)
def cost(
    ctx: typer.Context,
    system: Annotated[str, typer.Argument(help="The rule set id, e.g. speed-range-power.", show_default=False)],
    unit: Annotated[str | None, typer.Option("--unit", help="Price a catalog unit by name instead.")] = None,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Price a statline by the rule set's own formula and say whether it is legal.

    Give each stat as an option, --STAT VALUE, or the whole statline in quotes, written as
    'listbuilder export' and 'odds' write it; a list stat joins its values with + (--traits
    attacker+big-guns). 'listbuilder cost SYSTEM' alone lists the rule set's stats and exits 0. With --unit,
    a catalog unit is priced, and any stat given changes its statline.

    Exit 0 when the statline is legal, 1 when it breaks a rule, 2 when it cannot be read.

    Example: listbuilder cost speed-range-power --speed 6 --range 24 --power 2

    Example: listbuilder cost might-skirmish "Beast, Might 6"
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        lists,
        rulesets,
    )

    try:
        rules = rulesets.open_catalogs(catalogs).get(system)
        if unit is None and not ctx.args:  # no statline asked for: the stats to give are the answer
            say(views.stats_guide(lists.stats_guide(rules)))
            raise typer.Exit(EXIT_OK)
        pairs, statline = stat_options(rules.definition.stats, ctx.args)
        result = lists.price(rules, lists.read_stats(rules, pairs, statline), unit)
    except ListbuilderError as exc:
        fail(exc)
    say(to_json(result.as_json()) if as_json else views.pricing(result))
    raise typer.Exit(EXIT_OK if result.legal else EXIT_RULES_BROKEN)


def stat_options(stats: Collection[str], args: Sequence[str]) -> tuple[list[tuple[str, str]], str]:
    """``--speed 6 --range=24 --big-guns yes`` (or ``"Speed 6, Range 24"``) as the (stat, text)
    pairs and the statline ``api.read_stats`` reads: it names each stat it cannot use."""
    pairs: list[tuple[str, str]] = []
    words: list[str] = []
    rest = iter(args)
    for arg in rest:
        if not arg.startswith("--"):
            words.append(arg)
            continue
        key, has_value, value = arg[2:].partition("=")
        if not has_value:
            following = next(rest, None)
            if following is None:
                raise InputError.detailed(
                    f"the option --{key} needs a value", f"give it as --{key} VALUE, or --{key}=VALUE"
                )
            value = following
        stat = key.replace("-", "_")
        pairs.append((stat if stat in stats else key, value))
    return pairs, " ".join(words)


@command("systems")
def systems(as_json: JsonOption = False, catalogs: CatalogsOption = None) -> None:
    """List the rule sets listbuilder knows, shipped and your own.

    Example: listbuilder systems --catalogs ~/wargames/house-rules
    """
    from listbuilder.api import rulesets  # the engine loads only when a command runs: --version and --help stay light

    try:
        found = rulesets.open_catalogs(catalogs).all()
        say(to_json([s.as_json() for s in found]) if as_json else views.systems(found))
    except ListbuilderError as exc:
        fail(exc)


@command("catalog")
def catalog(
    system: Annotated[str, typer.Argument(help="The rule set id.", show_default=False)],
    faction: Annotated[str | None, typer.Option("--faction", help="Show only this faction.")] = None,
    as_json: JsonOption = False,
    catalogs: CatalogsOption = None,
) -> None:
    """List a rule set's ready-made units, with their stats and costs.

    Example: listbuilder catalog might-skirmish --faction "Zombie Family"
    """
    from listbuilder.api import rulesets  # the engine loads only when a command runs: --version and --help stay light

    try:
        listing = rulesets.catalog_units(rulesets.open_catalogs(catalogs), system, faction)
        say(to_json(listing.as_json()) if as_json else views.catalog(listing))
    except ListbuilderError as exc:
        fail(exc)


@command("diff")
def diff(
    files: Annotated[list[str], typer.Argument(help="OLD and NEW list files (or git's seven arguments with --git).")],
    git: Annotated[
        bool, typer.Option("--git", help="Run as git's external diff driver: take git's arguments, always exit 0.")
    ] = False,
    catalogs: CatalogsOption = None,
) -> None:
    """Say what changed between two versions of a list, in game terms.

    Units added and removed, counts and stats changed, the change in points, and the rules the
    change made or stopped breaking. With --git it is a git diff driver: see the README.

    Example: listbuilder diff old/zombies.yaml zombies.yaml
    """
    from listbuilder.api import (  # the engine loads only when a command runs: --version and --help stay light
        rulesets,
        sharing,
    )

    try:
        books = rulesets.open_catalogs(catalogs)
        if git:
            say(sharing.git_diff(files, books))
            raise typer.Exit(EXIT_OK)
        if len(files) != 2:
            raise InputError.detailed("diff takes two list files", "listbuilder diff OLD NEW")
        say(views.list_diff(sharing.diff_files(Path(files[0]), Path(files[1]), books)))
    except ListbuilderError as exc:
        if git:  # git stops at a driver that fails; say what went wrong and carry on
            say(f"listbuilder diff: {render(exc)}")
            raise typer.Exit(EXIT_OK) from None
        fail(exc)
