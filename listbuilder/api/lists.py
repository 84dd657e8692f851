"""Reading and judging lists, pricing a statline by a rule set's formula, and the game's phrases.

A list is read, costed and judged into a ``Report`` (its entries, cost parts and ``Problem``s);
the phrases (``total_text``, ``headline``, ``stats_line``...) word a report the same way in
every face.
"""

from __future__ import annotations

from pathlib import Path

from listbuilder.army.constraints import Problem
from listbuilder.army.costing import CostPart
from listbuilder.army.listfile import parse_list, read_list
from listbuilder.army.phrases import amount as amount
from listbuilder.army.phrases import citation as citation
from listbuilder.army.phrases import headline as headline
from listbuilder.army.phrases import leader_tag as leader_tag
from listbuilder.army.phrases import problem_place as problem_place
from listbuilder.army.phrases import size_advice as size_advice
from listbuilder.army.phrases import stats_line as stats_line
from listbuilder.army.phrases import total_text as total_text
from listbuilder.army.phrases import verdict_word as verdict_word
from listbuilder.army.pricing import Pricing
from listbuilder.army.pricing import price as price
from listbuilder.army.pricing import read_stats as read_stats
from listbuilder.army.pricing import stats_guide as stats_guide
from listbuilder.army.report import Report, build_report
from listbuilder.files.yamldoc import parse_yaml
from listbuilder.rules.catalog import Catalogs

__all__ = [
    "CostPart",
    "Pricing",
    "Problem",
    "Report",
    "amount",
    "check_list",
    "check_text",
    "citation",
    "headline",
    "leader_tag",
    "price",
    "problem_place",
    "read_stats",
    "size_advice",
    "stats_guide",
    "stats_line",
    "total_text",
    "verdict_word",
]


def check_list(path: Path, catalogs: Catalogs) -> Report:
    """Read, cost and judge one list file."""
    army, system = read_list(path, catalogs)
    return build_report(army, system, catalogs)


def check_text(text: str, catalogs: Catalogs, source: Path = Path("<list>")) -> Report:
    """Read, cost and judge a list given as text; ``source`` names it in messages."""
    army, system = parse_list(parse_yaml(text.removeprefix("\ufeff"), source), catalogs)
    return build_report(army, system, catalogs)
