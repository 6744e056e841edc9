"""The Glicko-2 rating system, from Mark Glickman's "Example of the Glicko-2 system" (Boston University,
revised 22 March 2022), step by step: the paper's worked example is this module's doctest.

>>> new = update(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                                        (Rating(1700, 300), 0.0)])
>>> print(f"{new.rating:.2f} {new.deviation:.2f} {new.volatility:.6f}")
1464.05 151.52 0.059996

The paper prints 1464.06, 151.52 and 0.05999: it rounds as it goes (μ′ = −0.2069 gives
−0.2069 × 173.7178 + 1500 = 1464.06; unrounded, μ′ = −0.20694 gives 1464.05).

The Python implementations on PyPI were looked at first: ``glicko2`` 2.1.0 computes the volatility
step's ``f`` with the player's rating where the paper has its deviation (the two agree only for a
player rated exactly 1500, as in the paper's example), and installs a top-level ``tests`` package.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the paper's step 2: Glicko's scale to Glicko-2's
TAU = 0.5  # the system constant: how fast volatility may change ("between 0.3 and 1.2")
EPSILON = 0.000001  # the convergence tolerance of step 5
START = 1500.0, 350.0, 0.06  # an unrated player's rating, deviation and volatility (step 1)


@dataclass(frozen=True)
class Rating:
    rating: float = START[0]
    deviation: float = START[1]
    volatility: float = START[2]


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which it played ``games`` (each the opponent's
    rating at the start of the period and ``player``'s score: 1, 0.5 or 0)."""
    mu, phi, sigma = (player.rating - 1500.0) / SCALE, player.deviation / SCALE, player.volatility
    if not games:  # step 6 alone: the deviation grows with time away
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    opponents = [((o.rating - 1500.0) / SCALE, o.deviation / SCALE, score) for o, score in games]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v = 1.0 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1.0 - _expected(mu, mu_j, phi_j))
                  for mu_j, phi_j, _ in opponents)
    # Step 4: the estimated improvement.
    total = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    delta = v * total
    # Step 5: the new volatility, by the Illinois algorithm on f.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    # Step 8: back to Glicko's scale.
    return Rating(SCALE * new_mu + 1500.0, SCALE * new_phi, new_sigma)


def volatility_equation(player: Rating, games: Sequence[tuple[Rating, float]], volatility: float,
                        tau: float = TAU) -> float:
    """The paper's step 5 equation f(x) at x = ln(volatility²), which the new volatility makes zero
    (for tests: an independent check of the root the Illinois iteration finds)."""
    mu, phi = (player.rating - 1500.0) / SCALE, player.deviation / SCALE
    opponents = [((o.rating - 1500.0) / SCALE, o.deviation / SCALE, score) for o, score in games]
    v = 1.0 / sum(_g(pj) ** 2 * _expected(mu, mj, pj) * (1.0 - _expected(mu, mj, pj)) for mj, pj, _ in opponents)
    delta = v * sum(_g(pj) * (s - _expected(mu, mj, pj)) for mj, pj, s in opponents)
    x, a = math.log(volatility * volatility), math.log(player.volatility ** 2)
    ex = math.exp(x)
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)
