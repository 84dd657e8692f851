"""What the odds engines hand back: named chances, expected removals, and cards as rows of text."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from listbuilder.record import Record, record


@record
class Tally(Record):
    """An engine's answer before names of units are attached: ordered chances and expectations."""

    results: tuple[tuple[str, Fraction], ...]
    kills: Fraction
    losses: Fraction
    truncation: Fraction = Fraction(0)


def tally(
    rows: Iterable[tuple[str, Fraction, Fraction | int, Fraction | int]], truncation: Fraction = Fraction(0)
) -> Tally:
    """A ``Tally`` from (name, chance, target models removed, attacker models removed) rows."""
    rows = list(rows)
    return Tally(
        results=tuple((name, chance) for name, chance, _, _ in rows),
        kills=sum((chance * kills for _, chance, kills, _ in rows), Fraction(0)),
        losses=sum((chance * losses for _, chance, _, losses in rows), Fraction(0)),
        truncation=truncation,
    )


@record
class CardTable(Record):
    """A table for a rules card: plain strings, ready to print."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    source: str = ""


def percent(chance: Fraction) -> str:
    """A chance as printed: ``9.3%``, ``<0.1%``, ``>99.9%``, ``–`` for never and ``100%`` for always."""
    if chance == 0:
        return "–"
    if chance == 1:
        return "100%"
    value = float(chance) * 100
    if value < 0.05:
        return "<0.1%"
    if value > 99.95:
        return ">99.9%"
    return f"{value:.1f}%"


def figure(value: Fraction) -> str:
    """An expected number as printed: ``0.42``."""
    return f"{float(value):.2f}"
