"""Force rules on the whole force: a limit, at most / at least / exactly N, a share, one per N.

Each checks the force as the validator reports it and writes itself as linear rows for the
list doctor (``base.py`` says what a kind carries).
"""

from typing import Literal

from listbuilder.errors import Location
from listbuilder.record import record
from listbuilder.rules.forcerules.base import (
    Definition,
    Force,
    ForceRule,
    LinearForm,
    Problem,
    RuleSetFile,
    contributors,
    entry_indices,
    entry_labels,
    group_of,
    noun,
)
from listbuilder.rules.schema import doc


@record
class Limit(ForceRule):
    """The force's total may not exceed the agreed limit (points or figures)."""

    kind: Literal["limit"] = doc("'limit'")

    def check(self, force: Force) -> list[Problem]:
        if force.limit is None or force.total <= force.limit:
            return []
        measure = force.system.measure
        over = force.total - force.limit
        limit = f"{force.limit:,}-{measure.singular} limit"
        return [self.problem(f"{over:,} {measure.of(over)} over the {limit} ({force.total:,} of {force.limit:,})")]

    def encode(self, form: LinearForm) -> None:
        # total <= limit; a list without a limit has nothing to pass.
        if form.limit is not None:
            form.require(form.total(), high=form.limit)


@record
class AtMost(ForceRule):
    """At most ``count`` models (of a group, or in all)."""

    kind: Literal["at_most"] = doc("'at_most'")
    count: int = doc("the largest number allowed")
    of: str | None = doc("a group name; leave out to count every model", default=None)

    def check(self, force: Force) -> list[Problem]:
        group = group_of(force.system, self)
        members = force.members(group)
        n = sum(c for _, c in members)
        if n <= self.count:
            return []
        over = n - self.count
        found = f"{n:,} {noun(force.system, group, n)}"
        if group is not None:
            found += f" ({contributors(members)})"
        return [
            self.problem(
                f"{over:,} {noun(force.system, group, over)} too many: {found}, at most {self.count:,}",
                entry_labels(members) if group is not None else None,
                entry_indices(members) if group is not None else (),
            )
        ]

    def encode(self, form: LinearForm) -> None:
        # members <= count
        form.require(form.models(group_of(form.system, self)), high=self.count)


@record
class AtLeast(ForceRule):
    """At least ``count`` models (of a group, or in all)."""

    kind: Literal["at_least"] = doc("'at_least'")
    count: int = doc("the smallest number allowed")
    of: str | None = doc("a group name; leave out to count every model", default=None)

    def check(self, force: Force) -> list[Problem]:
        group = group_of(force.system, self)
        n = sum(c for _, c in force.members(group))
        if n >= self.count:
            return []
        short = self.count - n
        return [
            self.problem(f"{short:,} {noun(force.system, group, short)} short: {n:,}, at least {self.count:,} needed")
        ]

    def encode(self, form: LinearForm) -> None:
        # members >= count
        form.require(form.models(group_of(form.system, self)), low=self.count)


@record
class Exactly(ForceRule):
    """Exactly ``count`` models of a group (one Leader)."""

    kind: Literal["exactly"] = doc("'exactly'")
    count: int = doc("the number required")
    of: str | None = doc("a group name; leave out to count every model", default=None)

    def check(self, force: Force) -> list[Problem]:
        group = group_of(force.system, self)
        members = force.members(group)
        n = sum(c for _, c in members)
        if n == self.count:
            return []
        if n < self.count:
            short = self.count - n
            lead = (
                f"no {noun(force.system, group, 1)} chosen"
                if n == 0
                else f"{short:,} {noun(force.system, group, short)} short"
            )
            return [self.problem(f"{lead}: {n:,}, exactly {self.count:,} needed")]
        over = n - self.count
        return [
            self.problem(
                f"{over:,} {noun(force.system, group, over)} too many: {n:,} ({contributors(members)}), "
                f"exactly {self.count:,} allowed",
                entry_labels(members),
                entry_indices(members),
            )
        ]

    def encode(self, form: LinearForm) -> None:
        # members == count
        form.require(form.models(group_of(form.system, self)), low=self.count, high=self.count)


@record
class AtLeastShare(ForceRule):
    """At least a share of all models belong to a group (half the fighters are basic)."""

    kind: Literal["at_least_share"] = doc("'at_least_share'")
    of: str = doc("the group that must make up the share")
    numerator: int = doc("the share's numerator: 1 for one half")
    denominator: int = doc("the share's denominator: 2 for one half")

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        super().definition_errors(d, where, need)
        if not 0 < self.numerator <= self.denominator:
            need.error(where, "the share must be a fraction between 0 and 1")

    def check(self, force: Force) -> list[Problem]:
        group = group_of(force.system, self)
        total = force.all_models()
        n = sum(c for _, c in force.members(group))
        # "at least half" means n/total >= 1/2, i.e. n * denominator >= total * numerator.
        if n * self.denominator >= total * self.numerator:
            return []
        need = -(-total * self.numerator // self.denominator)
        short = need - n
        return [
            self.problem(
                f"{short:,} {noun(force.system, group, short)} short: {n:,} of {total:,}, at least {need:,} needed"
            )
        ]

    def encode(self, form: LinearForm) -> None:
        # denominator * members - numerator * models >= 0, the check's own inequality
        members = form.models(group_of(form.system, self))
        form.require(self.denominator * members - self.numerator * form.models(None), low=0)


@record
class AtMostPer(ForceRule):
    """At most ``count`` of a group for each ``per`` models (one leader per ten models)."""

    kind: Literal["at_most_per"] = doc("'at_most_per'")
    of: str = doc("the group limited")
    per: int = doc("how many models earn one more")
    rounding: Literal["down", "up"] = doc("'down': 19 models allow 1 per 10; 'up': they allow 2")
    count: int = doc("how many each 'per' models allow", default=1)

    def definition_errors(self, d: RuleSetFile, where: Location, need: Definition) -> None:
        super().definition_errors(d, where, need)
        if self.per < 1:
            need.error((*where, "per"), "'per' must be at least 1")

    def allowed(self, models: int) -> int:
        steps = models // self.per if self.rounding == "down" else -(-models // self.per)
        return steps * self.count

    def check(self, force: Force) -> list[Problem]:
        group = group_of(force.system, self)
        total = force.all_models()
        members = force.members(group)
        n = sum(c for _, c in members)
        allowed = self.allowed(total)
        if n <= allowed:
            return []
        over = n - allowed
        models = force.system.definition.model
        return [
            self.problem(
                f"{over:,} {noun(force.system, group, over)} too many: {n:,} among {total:,} {models.of(total)}, "
                f"at most {allowed:,} ({self.count} per {self.per} {models.plural}, rounded {self.rounding})",
                entry_labels(members),
                entry_indices(members),
            )
        ]

    def encode(self, form: LinearForm) -> None:
        # members <= count * steps, with an integer 'steps' that rounding bounds by the models:
        # down: per * steps <= models, so steps can reach floor(models / per) and no more;
        # up:   per * steps <= models + per - 1, so steps can reach ceil(models / per).
        models = form.models(None)
        most = form.models(group_of(form.system, self))
        steps = form.integer(0, form.largest(models) // self.per + 1)
        slack = 0 if self.rounding == "down" else self.per - 1
        form.require(self.per * steps - models, high=slack)
        form.require(most - self.count * steps, high=0)
