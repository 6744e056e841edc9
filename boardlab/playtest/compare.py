"""Honest comparisons of variants: paired on the shared seeds, with intervals, equivalence tests and a
sequential stopping rule.

Every variant of a run plays game ``i`` with the same seed, so the agents meet the same luck in each;
a difference between two variants is best measured game by game (a paired difference), which cancels
what the seeds have in common, rather than by setting two variants' own intervals side by side.

For a metric measured per game (a rate is 0/1 per game), the pairs are the games of variants ``A`` and
``B`` with the same seed (and strength), both with a value; the difference is ``B − A``; its interval
is Student's t interval of the mean difference.

- **differs**: the interval excludes 0.
- **equivalent**: the two one-sided tests (TOST, Schuirmann 1987) both reject at level α: the
  difference is neither ≤ −margin nor ≥ +margin, the same as the ``1 − 2α`` interval lying inside
  ``(−margin, +margin)``. This, with its margin stated, is what backs a claim of "no effect"; an
  interval that merely contains 0 backs nothing.
- **undecided**: neither, yet.

Sequential stopping: a run may look at its comparisons after every batch of games and stop those that
are decided. Looking repeatedly inflates the error rate, so each of the ``looks`` planned looks tests at
``α / looks`` (a Bonferroni split of α over the looks; conservative, and valid however the looks fall).
No decision is taken on fewer than :data:`MIN_PAIRS` pairs.

>>> c = paired([0.0, 1.0, 0.0, 1.0, 1.0, 0.0] * 3, [1.0, 1.0, 0.0, 1.0, 1.0, 1.0] * 3, margin=0.1)
>>> (c.n, round(c.difference, 3), c.verdict)
(18, 0.333, 'differs')
>>> paired([1.0, 0.0] * 20, [1.0, 0.0] * 20, margin=0.1).verdict  # identical games
'equivalent'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as scipy_stats

ALPHA = 0.05
MIN_PAIRS = 10


@dataclass(frozen=True)
class Comparison:
    """``B − A`` for one metric over paired games, with its interval and what it decides."""

    n: int
    difference: float | None
    low: float | None
    high: float | None
    margin: float
    p_equivalence: float | None  # TOST: the larger of the two one-sided p-values
    verdict: str  # "differs", "equivalent", "undecided" or "too few pairs"
    alpha: float

    @property
    def decided(self) -> bool:
        return self.verdict in ("differs", "equivalent")


def _t_interval(diffs: np.ndarray, confidence: float) -> tuple[float, float]:
    mean = float(diffs.mean())
    if len(diffs) < 2:
        return mean, mean
    se = float(diffs.std(ddof=1)) / math.sqrt(len(diffs))
    half = float(scipy_stats.t.ppf(0.5 + confidence / 2, len(diffs) - 1)) * se
    return mean - half, mean + half


def tost_p(diffs: np.ndarray, margin: float) -> float:
    """The TOST p-value for ``|mean difference| < margin``: the larger of the one-sided p-values of
    ``H0: d ≤ −margin`` and ``H0: d ≥ +margin`` (Student's t). Small: equivalent within the margin.

    >>> round(tost_p(np.array([0.01, -0.02, 0.0, 0.02, -0.01] * 4), margin=0.1), 6)
    0.0
    >>> tost_p(np.array([0.3, 0.2, 0.25, 0.35] * 4), margin=0.1) > 0.5
    True
    """
    n = len(diffs)
    mean = float(diffs.mean())
    sd = float(diffs.std(ddof=1)) if n > 1 else 0.0
    if sd == 0.0:
        return 0.0 if abs(mean) < margin else 1.0
    se = sd / math.sqrt(n)
    lower = float(scipy_stats.t.sf((mean + margin) / se, n - 1))  # H0: d <= -margin
    upper = float(scipy_stats.t.cdf((mean - margin) / se, n - 1))  # H0: d >= +margin
    return max(lower, upper)


def paired(a: Sequence[float | None], b: Sequence[float | None], margin: float, alpha: float = ALPHA,
           min_pairs: int = MIN_PAIRS) -> Comparison:
    """Compare per-game values of two variants, game ``i`` of each paired (``None`` drops the pair)."""
    diffs = np.array([y - x for x, y in zip(a, b, strict=False) if x is not None and y is not None], np.float64)
    n = len(diffs)
    if n == 0:
        return Comparison(0, None, None, None, margin, None, "too few pairs", alpha)
    low, high = _t_interval(diffs, 1 - alpha)
    p_eq = tost_p(diffs, margin) if margin > 0 else None
    if n < min_pairs:
        verdict = "too few pairs"
    elif low > 0 or high < 0:
        verdict = "differs"
    elif p_eq is not None and p_eq < alpha:
        verdict = "equivalent"
    else:
        verdict = "undecided"
    return Comparison(n, float(diffs.mean()), low, high, margin, p_eq, verdict, alpha)


def default_margin(unit: str, pooled_mean: float | None) -> float:
    """The equivalence margin when none is given: 0.1 for rates (ten points of games won, drawn…); for
    everything else 10% of the two variants' pooled mean (a Drama of 0.04 is not "the same" as one of
    0.13). Stated in the report beside every verdict.

    >>> default_margin("rate", 0.4), default_margin("count", 30.0), default_margin("fraction", 0.04)
    (0.1, 3.0, 0.004)
    """
    if unit == "rate" or pooled_mean is None:
        return 0.1
    return max(round(abs(pooled_mean) * 0.1, 12), 1e-9)


def looks(games: int, batch: int) -> int:
    """How many looks a sequential run plans: one after every ``batch`` games, the last at ``games``."""
    return max(1, math.ceil(games / batch)) if batch > 0 else 1
