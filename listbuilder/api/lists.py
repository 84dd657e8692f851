"""Reading and judging lists, and pricing a statline by a rule set's formula."""

from __future__ import annotations

from pathlib import Path

from listbuilder.army.listfile import parse_list, read_list
from listbuilder.army.pricing import Pricing, price, read_stats
from listbuilder.army.report import Report, build_report
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.rules.catalog import Catalogs

__all__ = ["Pricing", "check_list", "check_text", "price", "read_stats"]


def check_list(path: Path, catalogs: Catalogs) -> Report:
    """Read, cost and judge one list file."""
    army, system = read_list(path, catalogs)
    return build_report(army, system, catalogs)


def check_text(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> Report:
    """Read, cost and judge a list given as text; ``source`` names it in messages."""
    army, system = parse_list(parse_yaml(text.removeprefix("\ufeff"), source), catalogs)
    return build_report(army, system, catalogs)
