"""Intervals: Wilson's for rates (the match module's), a seeded percentile bootstrap for the rest.

>>> [round(x, 3) for x in rate_interval(5, 10)]
[0.237, 0.763]
>>> rate(3, 4).text(2), mean([120.0, 140.0]).text(2)
('0.75 [0.3, 0.95]', '130 [120, 140]')
>>> lo, hi = bootstrap_interval([1.0, 2.0, 3.0, 4.0], seed=1)
>>> 1.0 <= lo <= 2.5 <= hi <= 4.0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from boardlab.match import wilson

T = TypeVar("T")
RESAMPLES = 1000


@dataclass(frozen=True)
class Estimate:
    """A measured value with its 95% interval and how many games it rests on."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    interval: str  # "wilson", "bootstrap" or "" (no interval: too few games, or no value)

    def text(self, digits: int = 3) -> str:
        """``0.512 [0.431, 0.593]``, or ``–`` where nothing was measured."""
        if self.value is None:
            return "–"
        if self.low is None or self.high is None:
            return _number(self.value, digits)
        return f"{_number(self.value, digits)} [{_number(self.low, digits)}, {_number(self.high, digits)}]"


def number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, in plain notation: never ``1.11e-16`` nor ``1.3e+02``.

    Floating-point dust (below ``1e-9`` of the value's scale, or of 1) is shown as the exact number it
    stands for; whole numbers of ``digits`` digits or more are shown whole.

    >>> [number(x) for x in (1.1102230246251565e-16, 0.99999999999, 130.4, 0.012345, -0.5, 12345.6, 2.0)]
    ['0', '1', '130', '0.0123', '-0.5', '12346', '2']
    """
    if not math.isfinite(value):
        return str(value)
    if abs(value - round(value)) < 1e-9 * max(1.0, abs(value)):
        return str(round(value))
    if abs(value) >= 10 ** (digits - 1):
        return f"{value:.0f}"
    places = digits - 1 - math.floor(math.log10(abs(value)))
    text = f"{value:.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


_number = number


def rate_interval(successes: float, trials: int) -> tuple[float, float]:
    """Wilson's 95% interval of ``successes`` out of ``trials``."""
    return wilson(successes / trials if trials else 0.0, trials)


def rate(successes: float, trials: int) -> Estimate:
    """A rate with Wilson's interval (``None`` over no trials)."""
    if trials == 0:
        return Estimate(None, None, None, 0, "")
    low, high = rate_interval(successes, trials)
    return Estimate(successes / trials, low, high, trials, "wilson")


def bootstrap_interval(values: Sequence[float], seed: int = 0, resamples: int = RESAMPLES) -> tuple[float, float]:
    """The 95% percentile-bootstrap interval of the mean of ``values`` (numpy, seeded)."""
    data = np.asarray(values, np.float64)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, len(data), size=(resamples, len(data)))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def mean(values: Sequence[float | None], seed: int = 0) -> Estimate:
    """The mean of the values that are not ``None``, with a bootstrap interval."""
    kept = [float(v) for v in values if v is not None]
    if not kept:
        return Estimate(None, None, None, 0, "")
    value = float(np.mean(kept))
    if len(kept) < 2:
        return Estimate(value, None, None, 1, "")
    low, high = bootstrap_interval(kept, seed)
    return Estimate(value, low, high, len(kept), "bootstrap")


def bootstrap_statistic(items: Sequence[T], statistic: Callable[[Sequence[T]], float | None], seed: int = 0,
                        resamples: int = 400) -> Estimate:
    """Any statistic over games (Balance, a standard deviation) with a percentile-bootstrap interval."""
    value = statistic(items) if items else None
    if value is None:
        return Estimate(None, None, None, len(items), "")
    if len(items) < 2:
        return Estimate(value, None, None, len(items), "")
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(resamples):
        picked = [items[i] for i in rng.integers(0, len(items), size=len(items))]
        result = statistic(picked)
        if result is not None:
            samples.append(result)
    if not samples:
        return Estimate(value, None, None, len(items), "")
    low, high = np.percentile(samples, [2.5, 97.5])
    return Estimate(value, float(low), float(high), len(items), "bootstrap")
