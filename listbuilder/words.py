"""Words a user typed, matched against the words they could have meant: the did-you-mean hint of
every "unknown ..." message, and the list of allowed values it offers.

The engine and both faces word their refusals with these; ``errors`` holds the refusals themselves.
"""

from __future__ import annotations

import collections
import functools
import heapq
import itertools
from collections.abc import Iterable, Sequence
from typing import TypeVar

from listbuilder.errors import InputError

_Word = TypeVar("_Word", bound=str)  # a word ``choose`` takes: text, or a Literal's values


def did_you_mean(found: str, options: Iterable[str]) -> str | None:
    """A hint naming the closest option to ``found`` (case-insensitive), if any is close.

    Past ``SHORTLIST`` options (a big homebrew catalog's units), difflib compares ``found``
    only with the options that share the most letter pairs with it, found through an index
    built once per set of options: 100 typos against 10,000 units take a fraction of a
    second instead of half a minute."""
    by_lower = {o.lower(): o for o in options}
    word = found.lower()
    names = list(by_lower)
    if len(names) > SHORTLIST:
        names = _PairIndex.of(tuple(names)).closest(word, SHORTLIST)
    import difflib  # start-up: only a name that is not found needs it

    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return DID_YOU_MEAN.format(by_lower[close[0]]) if close else None


DID_YOU_MEAN = "did you mean '{}'?"


def meant(hint: str | None) -> str | None:
    """The option a ``did_you_mean`` hint names ('Hunter' of "did you mean 'Hunter'?"), or None
    for any other hint: a fix can offer the word itself."""
    head, tail = DID_YOU_MEAN.split("{}")
    if hint is None or not (hint.startswith(head) and hint.endswith(tail)) or len(hint) <= len(head + tail):
        return None
    return hint[len(head) : -len(tail)]


SHORTLIST = 50


def _pairs(text: str) -> list[str]:
    padded = f" {text} "
    return [padded[i : i + 2] for i in range(len(padded) - 1)]


class _PairIndex:
    """Which options hold each pair of letters: a cheap first cut before difflib's exact ratio."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.sizes = [len(n) + 1 for n in names]
        postings: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            for pair in set(_pairs(name)):
                postings.setdefault(pair, []).append(i)
        self.postings = postings

    @staticmethod
    @functools.lru_cache(maxsize=8)
    def of(names: tuple[str, ...]) -> _PairIndex:
        return _PairIndex(names)

    def closest(self, word: str, count: int) -> list[str]:
        """The ``count`` options sharing the most letter pairs with ``word``, for their length."""
        lists = [self.postings.get(pair, []) for pair in set(_pairs(word))]
        # A pair that half the options hold says little and costs the most to count: skip those.
        telling = [ids for ids in lists if len(ids) <= len(self.names) // 2] or lists
        shared = collections.Counter(itertools.chain.from_iterable(telling))
        size = len(word) + 1
        best = heapq.nlargest(count, shared.items(), key=lambda item: item[1] / (self.sizes[item[0]] + size))
        return [self.names[i] for i, _ in best]


def one_of(options: Sequence[str], limit: int = 12) -> str:
    """``'a', 'b' or 'c'``: the allowed values, shortened when there are many."""
    if not options:
        return "nothing"
    quoted = [f"'{o}'" for o in options[:limit]]
    more = f" (and {len(options) - limit} more)" if len(options) > limit else ""
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + f" or {quoted[-1]}{more}"


def choose(what: str, value: str, options: Sequence[_Word], option: str | None = None) -> _Word:
    """``value`` (in any case) if it is one of ``options``, else an ``InputError`` naming them all.

    ``option`` is the command-line option that takes the value, if there is one: the hint then
    reads ``use --paper a4 or --paper letter``."""
    found = value.strip().lower()
    for known in options:
        if known == found:
            return known  # the option itself, so of the options' own type (a Literal's values)
    spelled = [f"{option} {o}" for o in options] if option else [f"'{o}'" for o in options]
    use = "use " + (", ".join(spelled[:-1]) + " or " + spelled[-1] if len(spelled) > 1 else spelled[0])
    close = did_you_mean(value, options)
    raise InputError.detailed(f"unknown {what} '{value}'", use, hint=close)
