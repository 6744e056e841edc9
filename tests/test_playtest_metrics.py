"""Every playtest metric on hand-built traces whose values were worked out by hand (in the comments)."""

from __future__ import annotations

import math

import pytest

from boardlab.match import wilson
from boardlab.playtest import metrics, stats
from boardlab.playtest.trace import GameTrace, PlyTrace


def ply(turn: int, seat: int, legal: int, estimate: float | None = None, values: tuple[float, ...] = (),
        position: str = "p") -> PlyTrace:
    return PlyTrace(turn, seat, legal, f"m{turn}", estimate, list(values), 0, [0, 0], [], position, 0.0)


def game(result: list[float], plies: list[PlyTrace], moves: int, cells: int = 10, covered: int = 0,
         timeout: bool = False, first_capture: int | None = None, first_contact: int | None = None,
         kind: str = "self", strong_seat: int = -1) -> GameTrace:
    return GameTrace("k", "v", "g", {}, kind, ["a"] * len(result), strong_seat, 1, len(result), result,
                     "limit" if timeout else "rules", timeout, len(plies), moves, cells, covered, "s",
                     first_capture, first_contact, 0.0, "", plies)


# G1: seat 0 wins. Estimates before each turn: [.6,.4] [.6,.4] [.3,.7] [.8,.2] (seat 1's from 1 − e).
G1 = game([1.0, 0.0], [
    ply(0, 0, 3, 0.6, (0.6, 0.4, 0.2), "a"),
    ply(1, 1, 1, None, (), "b"),
    ply(2, 0, 2, 0.3, (0.3, 0.1), "a"),
    ply(3, 1, 4, 0.2, (0.2, 0.2, 0.2, 0.2), "c"),
], moves=5, covered=6, first_capture=2, first_contact=1)
# G2: seat 1 wins. Estimates [.5,.5] [.1,.9].
G2 = game([0.0, 1.0], [ply(0, 0, 2, 0.5, (0.5, 0.5), "x"), ply(1, 1, 2, 0.9, (0.9, 0.1), "y")],
          moves=2, covered=10, first_contact=0)
# G3: a draw by the rules (no estimates; positions repeat the start).
G3 = game([0.5, 0.5], [ply(0, 0, 1, position="s"), ply(1, 1, 1, position="s")], moves=2, covered=5)
# G4: a draw at a length limit; the game does not report occupancy (cells 0).
G4 = game([0.5, 0.5], [ply(0, 0, 5, position="q")], moves=1, cells=0, timeout=True)
GAMES = [G1, G2, G3, G4]


def value(name: str) -> float | None:
    return metrics.measure(GAMES)[name].value


@pytest.mark.parametrize(("name", "expected"), [
    ("AdvantageP1", 1 / 4),  # G1 only
    ("Balance", 1.0),  # win rates .25 and .25
    ("Completion", 2 / 4),  # G1, G2
    ("Drawishness", 1 / 4),  # G3
    ("Timeouts", 1 / 4),  # G4
    ("OutcomeUniformity", 0.5),  # utilities seat 0: 1, −1, 0, 0 → variance .5; seat 1 the same
    ("DurationTurns", 9 / 4),  # 4, 2, 2, 1
    ("DurationTurnsStdDev", math.sqrt(4.75 / 4)),  # deviations 1.75, −.25, −.25, −1.25
    ("DurationMoves", 10 / 4),  # 5, 2, 2, 1
    ("BoardCoverageDefault", (0.6 + 1.0 + 0.5) / 3),  # G4 has no board data
    ("BoardCoverageFull", 0.7),
    ("BoardCoverageUsed", 0.7),
    ("DecisionMoves", (3 / 4 + 1 + 0 + 1) / 4),
    ("BranchingFactor", (2.5 + 2 + 1 + 5) / 4),
    ("GameTreeComplexity", (4 * math.log10(2.5) + 2 * math.log10(2) + 0 + math.log10(5)) / 4),
    ("LeadChange", (3 / 4 + 2 / 2) / 2),  # G1 leaders {0},{0},{1},{0}; G2 {0,1},{1}; the first always counts
    ("Stability", (2 * 0.031875 + 2 * 0.04) / 2),  # G1: var(.6,.6,.3,.8) = .031875 per seat; G2: .04 per seat
    ("Drama", (0.1 + 0.0) / 2),  # G1: winner behind by 0, 0, .4, 0; G2: never behind
    ("DecisivenessThreshold", (0.7 + 0.5) / 2),  # G1: seat 1's best .7; G2: seat 0's best .5
    ("DecisivenessMoves", (3 / 4 + 1 / 2) / 2),  # G1: .8 > .7 at turn 3; G2: .9 > .5 at turn 1
    ("ClarityNarrowness", ((1 / 3 + 1 / 2 + 0) / 3 + (0 + 1 / 2) / 2) / 2),
    ("ClarityVariance", ((0.08 / 3 + 0.01 + 0) / 3 + (0 + 0.16) / 2) / 2),
    ("PositionalRepetition", (1 / 5 + 0 + 2 / 3 + 0) / 4),  # G1: s a b a c; G3: s s s
    ("FirstCapture", 2.0),
    ("FirstContact", 0.5),
    ("CaptureGames", 1 / 4),
])
def test_metric_on_hand_built_traces(name: str, expected: float) -> None:
    assert value(name) == pytest.approx(expected)


def test_balance_takes_the_widest_gap_between_any_two_of_three_seats() -> None:
    wins = [game([1.0, 0.0, 0.0], [], 0), game([1.0, 0.0, 0.0], [], 0), game([0.0, 1.0, 0.0], [], 0),
            game([0.5, 0.5, 0.5], [], 0)]
    assert metrics.seat_win_rates(wins) == [0.5, 0.25, 0.0]
    assert metrics.balance(wins) == pytest.approx(0.5)


def test_utilities_share_ranks_among_tied_seats() -> None:
    assert metrics.utilities([1.0, 1.0, 0.0, 0.0]) == pytest.approx([2 / 3, 2 / 3, -2 / 3, -2 / 3])


def test_estimates_carry_each_seats_own_value_with_more_than_two_seats() -> None:
    three = game([0.0, 1.0, 0.0], [ply(0, 0, 2, 0.5), ply(1, 1, 2, 0.7), ply(2, 2, 2, None)], moves=3)
    table = metrics.estimates(three)
    assert table is not None
    assert table.ravel().tolist() == pytest.approx([0.5, 1 / 3, 1 / 3, 0.5, 0.7, 1 / 3, 0.5, 0.7, 1 / 3])


def test_a_game_without_estimates_has_no_value_for_the_estimate_metrics() -> None:
    assert metrics.lead_change(G3) is None and metrics.drama(G3) is None
    assert metrics.measure([G3, G4])["Drama"].value is None


def test_rates_carry_wilson_intervals_and_means_bootstrap_intervals() -> None:
    measured = metrics.measure(GAMES)
    completion = measured["Completion"]
    assert (completion.low, completion.high) == pytest.approx(wilson(0.5, 4))
    assert completion.interval == "wilson"
    turns = measured["DurationTurns"]
    assert turns.interval == "bootstrap" and turns.low is not None and turns.high is not None
    assert 1.0 <= turns.low < 2.25 < turns.high <= 4.0
    assert metrics.measure(GAMES, seed=5)["DurationTurns"] == metrics.measure(GAMES, seed=5)["DurationTurns"]


def test_bootstrap_interval_is_seeded_and_narrows_with_more_data() -> None:
    few = stats.bootstrap_interval([0.0, 1.0] * 5, seed=3)
    many = stats.bootstrap_interval([0.0, 1.0] * 500, seed=3)
    assert few == stats.bootstrap_interval([0.0, 1.0] * 5, seed=3)
    assert many[1] - many[0] < few[1] - few[0]
    assert many[0] < 0.5 < many[1]


def test_skill_gap_scores_the_stronger_agent() -> None:
    skill = [game([1.0, 0.0], [], 0, kind="skill", strong_seat=0),
             game([1.0, 0.0], [], 0, kind="skill", strong_seat=1),
             game([0.5, 0.5], [], 0, kind="skill", strong_seat=1), G1]
    gap = metrics.skill_gap(skill)
    assert gap.value == pytest.approx(1.5 / 3) and gap.n == 3
    assert (gap.low, gap.high) == pytest.approx(wilson(0.5, 3))


def test_seat_results_for_three_seats() -> None:
    three = [game([1.0, 0.0, 0.0], [], 0), game([0.0, 0.0, 1.0], [], 0), game([1.0, 0.0, 0.0], [], 0)]
    seats = metrics.seat_results(three)
    assert [s["wins"].value for s in seats] == pytest.approx([2 / 3, 0.0, 1 / 3])
    assert [s["score"].value for s in seats] == pytest.approx([2 / 3, 0.0, 1 / 3])


def test_unknown_metric_names_the_accepted_ones() -> None:
    with pytest.raises(KeyError, match="accepted: AdvantageP1"):
        metrics.metric("Fun")
    assert metrics.metric("drawishness").name == "Drawishness"
