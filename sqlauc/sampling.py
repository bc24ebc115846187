"""The sample ``method="auto"`` reads to choose a formulation: how tied the keys are.

One cheap query over the first :data:`SAMPLE_ROWS` rows (a ``LIMIT``), on engines where that
is cheap (DuckDB, Spark). It also learns the negative label when the sample shows one, which
the rank formulation then uses (one MAX instead of a MIN/MAX over every row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from sqlauc import render
from sqlauc.engines.base import Engine
from sqlauc.sources import Source

#: method="auto" samples this many rows to measure how tied the scores are.
SAMPLE_ROWS = 10_000
#: ... and uses the rank formulation when at least this share of sampled scores is distinct
#: and the sample is at least SAMPLE_MIN_ROWS rows (small inputs are instant either way).
RANK_MIN_DISTINCT_SHARE = 0.5
SAMPLE_MIN_ROWS = 5_000


@dataclass(frozen=True)
class Sample:
    """What the first ``SAMPLE_ROWS`` rows tell: how tied the keys are, which negatives exist.

    The keys are the score, or (group, score) for the group metrics; ``n_distinct_groups`` is
    None for ``auc``.
    """

    n_rows: int
    n_distinct_keys: int
    n_distinct_scores: int
    n_distinct_groups: int | None
    negative_min: Any
    negative_max: Any

    def _mostly_distinct(self, n_distinct: int, share: float = RANK_MIN_DISTINCT_SHARE) -> bool:
        return n_distinct >= share * self.n_rows

    def method(self, share: float = RANK_MIN_DISTINCT_SHARE) -> str:
        """The grouped formulation aggregates one row per distinct score (per group, for the
        group metrics): it wins when those keys repeat; the rank formulation otherwise.

        Groups that repeat within the sample (few, large groups) over scores that repeat (a
        small score domain, such as rounded scores) make (group, score) pairs that look
        distinct in 10k rows but repeat at scale: 100 groups x 1,300 scores are at most 130k
        keys, whatever the row count. Those inputs get the grouped formulation (faster there,
        and rank faster on many small groups: bench/README.md).

        ``share`` is the distinct share of the keys from which the rank formulation runs (the
        metric's :attr:`~sqlauc.metrics.MetricSpec.distinct_share`).
        """
        if self.n_rows < SAMPLE_MIN_ROWS or not self._mostly_distinct(self.n_distinct_keys, share):
            return "grouped"
        if (
            self.n_distinct_groups is not None
            and not self._mostly_distinct(self.n_distinct_groups)
            and not self._mostly_distinct(self.n_distinct_scores)
        ):
            return "grouped"
        return "rank"

    def negative(self) -> Any:
        """The negative label value, when the sample shows exactly one (else None)."""
        if self.negative_min is not None and self.negative_min == self.negative_max:
            return self.negative_min
        return None


#: The engine's approximate distinct count decides alone only when it is below this share of
#: the distinct share a metric needs (clearly tied keys): DuckDB's table statistics estimate
#: the distinct count from part of the rows, well below it on distinct doubles, so a "mostly
#: distinct" answer from them is checked by the sample.
STATISTICS_MARGIN = 0.5


def from_statistics(rows: int, distinct: int, share: float) -> Sample | None:
    """What the engine's own statistics of a base table tell (:meth:`Engine.key_statistics`):
    the table's rows and its approximate distinct scores, no negative label — when that is
    decisive: clearly tied keys (fewer than ``STATISTICS_MARGIN * share`` of the rows are
    distinct, so ``"grouped"``). Else None: the sample decides (small beside a call over mostly
    distinct keys)."""
    if distinct >= STATISTICS_MARGIN * share * rows:
        return None
    return Sample(
        n_rows=rows,
        n_distinct_keys=distinct,
        n_distinct_scores=distinct,
        n_distinct_groups=None,
        negative_min=None,
        negative_max=None,
    )


def _negative_value() -> exp.Case:
    return exp.Case(ifs=[exp.If(this=exp.column("label").eq(0), true=exp.column("label_value"))])


def _count_distinct(name: str) -> exp.Count:
    return exp.Count(this=exp.Distinct(expressions=[exp.column(name)]))


def sample_query(sample_input: exp.Select, keys: list[str]) -> exp.Select:
    """The sample query: one row (n, n_distinct, n_scores, n_groups, negative_min,
    negative_max) over the first :data:`SAMPLE_ROWS` rows of ``sample_input``.

    ``n_distinct`` counts the distinct keys as a GROUP BY does (a NULL key is one key). With
    one key (the score), one aggregate level does it: ``COUNT(DISTINCT score)`` plus one when
    a score is NULL. With (score, grp), the keys are grouped first.
    """
    sample = sample_input.limit(SAMPLE_ROWS).subquery("sample", copy=False)
    if keys == ["score"]:
        null_score = exp.Max(
            this=exp.Case(
                ifs=[exp.If(this=exp.column("score").is_(exp.Null()), true=exp.Literal.number(1))],
                default=exp.Literal.number(0),
            )
        )
        return exp.select(
            exp.Count(this=exp.Star()).as_("n"),
            exp.Add(this=_count_distinct("score"), expression=null_score).as_("n_distinct"),
            _count_distinct("score").as_("n_scores"),
            exp.Null().as_("n_groups"),
            exp.Min(this=_negative_value()).as_("negative_min"),
            exp.Max(this=_negative_value()).as_("negative_max"),
        ).from_(sample, copy=False)
    per_key = (
        exp.select(
            *keys,
            exp.Count(this=exp.Star()).as_("n_rows"),
            exp.Min(this=_negative_value()).as_("negative_min"),
            exp.Max(this=_negative_value()).as_("negative_max"),
        )
        .from_(sample, copy=False)
        .group_by(*keys, copy=False)
        .subquery("per_key", copy=False)
    )
    return exp.select(
        exp.Sum(this=exp.column("n_rows")).as_("n"),
        exp.Count(this=exp.Star()).as_("n_distinct"),
        _count_distinct("score").as_("n_scores"),
        (_count_distinct("grp") if "grp" in keys else exp.Null()).as_("n_groups"),
        exp.Min(this=exp.column("negative_min")).as_("negative_min"),
        exp.Max(this=exp.column("negative_max")).as_("negative_max"),
    ).from_(per_key, copy=False)


def sample(engine: Engine, source: Source, sample_input: exp.Select, keys: list[str]) -> Sample:
    """One cheap query over the first ``SAMPLE_ROWS`` rows (a ``LIMIT``, on DuckDB).

    Its text is rendered once per input relation, keys and dialect (:func:`render.cached_text`;
    the key is the relation's SQL text).
    """
    dialect = engine.dialect
    text = render.cached_text(
        ("sample", sample_input.sql(), tuple(keys), dialect),
        lambda: render.to_sql(sample_query(sample_input, keys), dialect, pretty=False),
    )
    row = engine.fetch(text, source)[0]
    return Sample(
        n_rows=int(row[0] or 0),
        n_distinct_keys=int(row[1] or 0),
        n_distinct_scores=int(row[2] or 0),
        n_distinct_groups=int(row[3] or 0) if "grp" in keys else None,
        negative_min=row[4],
        negative_max=row[5],
    )
