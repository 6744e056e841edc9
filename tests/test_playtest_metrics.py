"""Every playtest metric on hand-built traces whose values were worked out by hand (in the comments), and
the fixed evaluator's trajectory of real games checked against the game's own evaluation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import boardlab
from boardlab.core import kernel
from boardlab.match import wilson
from boardlab.playtest import metrics, stats
from boardlab.playtest.evaluator import make_evaluator
from boardlab.playtest.trace import GameJob, GameTrace, PlyTrace, clarity_summary, classify_ending, play_traced


def ply(turn: int, seat: int, evaluation: list[float], decisions: list[int], legal: int | None = None,
        clarity: tuple[float, ...] = (), board_pieces: tuple[int, ...] = (), distances: tuple[int, ...] = (),
        score_gaps: tuple[float, ...] = (), position: str = "p", captures: int = 0,
        agent_estimate: float | None = None) -> PlyTrace:
    return PlyTrace(turn, seat, legal if legal is not None else math.prod(decisions), decisions, f"m{turn}",
                    agent_estimate, evaluation, list(clarity), captures, [0, 0], list(board_pieces),
                    list(distances), list(score_gaps), [], position, 0.0)


def game(result: list[float], plies: list[PlyTrace], moves: int, ending: str, final: list[float],
         cells: int = 10, covered: int = 0, start_pieces: int = 0, start_score_gap: float | None = None,
         first_capture: int | None = None, first_contact: int | None = None, kind: str = "self",
         strong_seat: int = -1, seed: int = 1) -> GameTrace:
    return GameTrace("k", "v", "g", {}, kind, ["a"] * len(result), strong_seat, seed, len(result), result,
                     ending, ending, len(plies), moves, cells, covered, start_pieces, start_score_gap, "s",
                     first_capture, first_contact, "evaluation", "a", 0, final, 0.0, 0.0, "", plies)


# G1: seat 0 wins in 4 turns (5 decisions: turn 2 takes two). Chances before each turn (seat 0, seat 1):
# [.6,.4] [.55,.45] [.3,.7] [.8,.2]; at the end [1, 0]. Pieces 0 → 1, 2, 3, 2 (a capture), 3.
G1 = game([1.0, 0.0], [
    ply(0, 0, [0.6, 0.4], [3], clarity=(3, 1 / 3, 0.02), board_pieces=(1,), position="a"),
    ply(1, 1, [0.55, 0.45], [1], clarity=(1, 0.0, 0.0), board_pieces=(2,), position="b"),
    ply(2, 0, [0.3, 0.7], [2, 2], clarity=(2, 0.5, 0.01), board_pieces=(3, 2), distances=(2,), position="a",
        captures=1),
    ply(3, 1, [0.8, 0.2], [4], clarity=(4, 0.25, 0.04), board_pieces=(3,), distances=(1,), position="c"),
], moves=5, ending="win", final=[1.0, 0.0], covered=6, first_capture=2, first_contact=1)
# G2: seat 1 wins in 2 turns; chances [.5,.5] [.1,.9], end [0, 1]; a running score: gaps 0, 1, 3.
G2 = game([0.0, 1.0], [
    ply(0, 0, [0.5, 0.5], [2], clarity=(2, 0.5, 0.04), board_pieces=(1,), score_gaps=(1.0,), position="x"),
    ply(1, 1, [0.1, 0.9], [2], clarity=(2, 0.5, 0.16), board_pieces=(2,), score_gaps=(3.0,), position="y"),
], moves=2, ending="win", final=[0.0, 1.0], covered=10, start_score_gap=0.0, first_contact=0)
# G3: a draw by the seed's rules, level all game; positions repeat the start.
G3 = game([0.5, 0.5], [
    ply(0, 0, [0.5, 0.5], [1], clarity=(1, 0.0, 0.0), board_pieces=(1,), position="s"),
    ply(1, 1, [0.5, 0.5], [1], clarity=(1, 0.0, 0.0), board_pieces=(2,), position="s"),
], moves=2, ending="rule draw", final=[0.5, 0.5], covered=5)
# G4: stopped by --max-turns after one turn; the game does not report occupancy; no move values.
G4 = game([0.5, 0.5], [ply(0, 0, [0.4, 0.6], [5], position="q")], moves=1, ending="timeout", final=[0.45, 0.55],
          cells=0)
# G5: a draw at an added rule after one turn.
G5 = game([0.5, 0.5], [ply(0, 0, [0.5, 0.5], [2], board_pieces=(1,), position="r")], moves=1,
          ending="added-rule draw", final=[0.5, 0.5], covered=2)
GAMES = [G1, G2, G3, G4, G5]


def value(name: str) -> float | None:
    return metrics.measure(GAMES)[metrics.canonical(name)].value


@pytest.mark.parametrize(("name", "expected"), [
    ("AdvantageP1", 1 / 5),  # G1 only
    ("WinsSeat1", 1 / 5),  # G2 only
    ("Balance", 1.0),  # win rates .2 and .2
    ("Completion", 2 / 5),  # G1, G2
    ("Drawishness", 2 / 5),  # G3 (the seed's rules) and G5 (an added rule); G4's timeout is no draw here
    ("RuleDraws", 1 / 5),
    ("AddedRuleDraws", 1 / 5),
    ("Timeouts", 1 / 5),
    ("OutcomeUniformity", 0.6),  # utilities per seat 1, −1, 0, 0, 0: variance .4
    ("DurationTurns", 10 / 5),  # 4, 2, 2, 1, 1
    ("DurationTurnsStdDev", math.sqrt(6 / 5)),  # deviations 2, 0, 0, −1, −1
    ("DurationTurnsNotTimeouts", 9 / 4),  # G4 left out
    ("DurationMoves", 11 / 5),  # 5, 2, 2, 1, 1
    ("DurationActions", 12 / 5),  # G1: 5 decisions + 1 piece captured
    ("BoardCoverage", (0.6 + 1.0 + 0.5 + 0.2) / 4),  # G4 has no board data
    ("DecisionMoves", (4 / 5 + 1 + 0 + 1 + 1) / 5),  # G1's decisions 3, 1, 2, 2, 4
    ("BranchingFactor", (12 / 5 + 2 + 1 + 5 + 2) / 5),  # per decision: G1 (3+1+2+2+4)/5
    ("BranchingFactorMaximum", (4 + 2 + 1 + 5 + 2) / 5),
    ("BranchingFactorPerTurn", (12 / 4 + 2 + 1 + 5 + 2) / 5),  # whole turns: G1 3, 1, 4, 4
    ("GameTreeComplexity", (5 * math.log10(2.4) + 2 * math.log10(2) + 0 + math.log10(5) + math.log10(2)) / 5),
    ("DecisionFactorAverage", (11 / 4 + 2 + 5 + 2) / 4),  # G3 has no decision with a choice
    ("PieceNumber", (11 / 6 + 1 + 1 + 0.5) / 4),  # G1: 0 1 2 3 2 3; G2, G3: 0 1 2; G5: 0 1
    ("PieceNumberMaxDecrease", (-1 + 0 + 0 + 0) / 4),
    ("PieceNumberMaximum", (3 + 2 + 2 + 1) / 4),
    ("BoardSitesOccupiedAverage", (11 / 60 + 0.1 + 0.1 + 0.05) / 4),
    ("MoveDistance", 1.5),  # G1's pieces moved 2 and 1; placements move nothing
    ("ScoreDifference", 4 / 3),  # G2: 0, 1, 3
    ("ScoreDifferenceMaximum", 3.0),
    ("ScoreDifferenceChangeAverage", 1.5),  # (3 − 0) / 2
    ("LeadChange", (2 / 3 + 1 + 0 + 0 + 0) / 5),  # G1 leaders {0} {0} {1} {0}: 2 changes in 3; G2 {0,1} {1}
    ("Stability", (2 * 0.03171875 + 2 * 0.04) / 5),  # G1: var(.6, .55, .3, .8) per seat; G2: var(.5, .1)
    ("Drama", (0.1 + 0 + 0 + 0.1 + 0) / 5),  # G1 behind by 0 0 .4 0; G4 (both top): (.2 + 0) / 2
    ("DramaMaximum", (0.4 + 0 + 0 + 0.1 + 0) / 5),
    ("DecisivenessThreshold", (0.7 + 0.5) / 2),  # G1: seat 1's best .7; G2: seat 0's best .5; draws: none
    ("DecisivenessMoves", (3 / 4 + 1 / 2) / 2),  # G1: .8 > .7 at turn 3; G2: .9 > .5 at turn 1
    ("StateEvaluationDifference", (2.3 / 5 + 1.8 / 3 + 0 + 0.3 / 2 + 0) / 5),  # G1 .2 .1 .4 .6 1; G2 0 .8 1
    ("ClarityNarrowness", ((1 / 3 + 0 + 0.5 + 0.25) / 4 + 0.5 + 0) / 3),  # G4, G5: no move values
    ("ClarityVariance", ((0.02 + 0 + 0.01 + 0.04) / 4 + 0.1 + 0) / 3),
    ("PositionalRepetition", (1 / 5 + 0 + 2 / 3 + 0 + 0) / 5),  # G1: s a b a c; G3: s s s
    ("FirstCapture", 2.0),
    ("FirstContact", 0.5),
    ("CaptureGames", 1 / 5),
])
def test_metric_on_hand_built_traces(name: str, expected: float) -> None:
    assert value(name) == pytest.approx(expected)


def test_every_metric_is_computed_and_the_hand_built_ones_cover_the_main_table() -> None:
    measured = metrics.measure(GAMES)
    assert set(measured) == set(metrics.NAMES)
    assert {metrics.canonical(n) for n in ("Drama", "BranchingFactor")} <= set(metrics.MAIN)


@pytest.mark.parametrize(("how", "expected"), [
    ("Average", 2.6), ("Median", 2.0), ("Maximum", 5.0), ("Minimum", 1.0), ("Variance", 1.84),
    ("ChangeAverage", 1.0), ("ChangeSign", 0.25), ("ChangeLineBestFit", 0.7), ("ChangeNumTimes", 0.75),
    ("MaxIncrease", 3.0), ("MaxDecrease", -1.0),
])
def test_ludiis_eleven_aggregates_of_a_series(how: str, expected: float) -> None:
    # 1 3 2 2 5: steps +2 −1 0 +3; slope Σ(x−2)(y−2.6)/Σ(x−2)² = 7/10; directions change at steps 1, 2, 4.
    assert metrics.aggregate([1.0, 3.0, 2.0, 2.0, 5.0], how) == pytest.approx(expected)


def test_aggregates_of_short_series() -> None:
    assert metrics.aggregate([], "Average") is None
    assert metrics.aggregate([4.0], "ChangeLineBestFit") == 0.0 and metrics.aggregate([4.0], "Minimum") == 4.0
    assert metrics.aggregate([0.3, 0.2], "Minimum") == 0.2  # Ludii's would be 0 (it starts from 0)


def test_a_game_one_side_leads_throughout_has_no_lead_change_whatever_the_agents_said() -> None:
    # The movers' own estimates see-saw (each thinks it is winning), the fixed evaluator does not.
    steady = game([1.0, 0.0], [ply(t, t % 2, [0.6 + 0.05 * t, 0.4 - 0.05 * t], [3], agent_estimate=0.8)
                               for t in range(6)], moves=6, ending="win", final=[1.0, 0.0])
    assert metrics.lead_change(steady) == 0.0
    assert metrics.aggregate(metrics.drama_series(steady) or [], "Maximum") == 0.0
    swing = game([0.0, 1.0], [ply(t, t % 2, [0.6, 0.4] if t % 2 == 0 else [0.4, 0.6], [3]) for t in range(5)],
                 moves=5, ending="win", final=[0.0, 1.0])
    assert metrics.lead_change(swing) == 1.0  # every turn hands the lead over


def test_decisiveness_of_draws_is_left_out_not_averaged_as_minus_one() -> None:
    assert metrics.decisiveness_threshold(G3) is None and metrics.decisiveness_moves(G3) is None
    assert metrics.measure([G3, G5])["DecisivenessMoves"].value is None


def test_clarity_of_one_position_from_the_values_of_every_legal_move() -> None:
    moves, narrowness, variance = clarity_summary([0.9, 0.5, 0.5, 0.3])
    # mean .55, max .9: threshold .55 + .75 × .35 = .8125, one move above; variance (.1225 + .0025 + .0025 + .0625) / 4
    assert (moves, narrowness, variance) == pytest.approx((4, 0.25, 0.0475))
    assert clarity_summary([0.5, 0.5]) == pytest.approx([2, 0.0, 0.0]) and clarity_summary([]) == []


def test_fixed_evaluators_trajectory_is_the_games_own_evaluation_of_each_position() -> None:
    """A real GTBM game (its evaluation is the fixed evaluator): every turn's values are what the game's
    evaluation kernel gives that position, the end is the result, and LeadChange follows from them."""
    trace = play_traced(GameJob("g", "v", "gtbm", {"size": 4}, ("random", "random"), seed=7, evaluator="auto"))
    assert trace.evaluator == "evaluation"
    game_ = boardlab.load("gtbm", size=4)
    from boardlab import records

    state = game_.new_game()
    moves = records.loads(trace.record).moves
    expected = []
    for text in moves:
        values = np.zeros(kernel.MAX_SEATS, np.float64)
        game_.evaluate_kernel(np.array(state.data, np.int64), game_.spec, values)
        expected.append([float(values[0]), float(values[1])])
        state = state.play(text)
    assert np.allclose([p.evaluation for p in trace.plies], expected, rtol=0, atol=1e-12)
    assert state.is_over and trace.final_evaluation == trace.result
    leaders = [frozenset(s for s in (0, 1) if row[s] == max(row)) for row in expected]
    changes = sum(a != b for a, b in itertools.pairwise(leaders))
    assert metrics.lead_change(trace) == pytest.approx(changes / (len(expected) - 1))


def test_playout_evaluator_is_fixed_by_the_position_and_never_changes_a_move() -> None:
    job = GameJob("g", "v", "ndengrod", {"size": 3, "length": 3}, ("level1", "level1"), seed=4,
                  evaluator="playouts:n=50,move_n=5,seed=0")
    cheap = play_traced(job)
    rich = play_traced(GameJob(**{**job.__dict__, "evaluator": "playouts:n=300,move_n=20,seed=1"}))
    assert [p.move for p in cheap.plies] == [p.move for p in rich.plies]  # measuring comes after playing
    again = play_traced(job)
    assert [p.evaluation for p in again.plies] == [p.evaluation for p in cheap.plies]
    assert [p.evaluation for p in cheap.plies] != [p.evaluation for p in rich.plies]
    judge = make_evaluator("playouts:n=50,move_n=5,seed=0", boardlab.load("ndengrod", size=3, length=3))
    start = boardlab.load("ndengrod", size=3, length=3).new_game()
    assert cheap.plies[0].evaluation == judge.state_values(start.game, start.data)
    assert sum(cheap.plies[0].evaluation) == pytest.approx(1.0)  # a line game: no draws in 50 playouts' tally


def test_decisions_of_a_turn_of_several_steps_are_counted_one_by_one() -> None:
    trace = play_traced(GameJob("m", "v", "mobiatus", {"length": 12, "width": 3}, ("random", "random"), seed=3,
                                max_turns=12))
    game_ = boardlab.load("mobiatus", length=12, width=3)
    from boardlab import records

    state = game_.new_game()
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    for ply_, text in zip(trace.plies, records.loads(trace.record).moves, strict=False):
        move = next(m for m in state.legal_moves() if m.text == text)
        data = np.array(state.data, np.int64)
        counted = []
        for action in move.path:
            counted.append(int(game_.legal_kernel(data, game_.spec, out)))
            game_.apply_kernel(data, game_.spec, action)
        assert ply_.decisions == counted and ply_.legal == len(state.legal_moves())
        state = state.play(text)
    assert trace.moves == sum(len(p.decisions) for p in trace.plies)
    assert all(d >= 1 for p in trace.plies for d in p.distances)  # knights move: every hop goes somewhere


@pytest.mark.parametrize(("movement", "contact"), [("knight", None), ("camel", 0), ("zebra", 0)])
def test_first_contact_follows_the_movement_option(movement: str, contact: int | None) -> None:
    # Blue 26 columns on: its pieces stand 3 columns from Red's circles, in a camel's or a zebra's
    # reach on the first turn, not in a knight's (2 columns at most). One turn is played.
    options = {"blue_offset": 26, "movement": movement}
    trace = play_traced(GameJob("f", "v", "mobiatus", options, ("random", "random"), seed=1, max_turns=1))
    assert trace.first_contact == contact
    assert metrics.first_contact(trace) == (None if contact is None else float(contact))


@pytest.mark.parametrize(("game_id", "options", "code", "result", "ending"), [
    ("gtbm", {}, 5, [0.5, 0.5], "added-rule draw"),  # the no-capture limit (G6, added)
    ("mobiatus", {}, 3, [0.5, 0.5], "rule draw"),  # the move-pair limit is the seed's own (B11)
    ("ndengrod", {}, 3, [0.5, 0.5], "added-rule draw"),  # the ply cap (N6, added)
    ("ndengrod", {}, 1, [1.0, 0.0], "win"),
    ("mynd", {"players": 3}, 2, [1.0, 1.0, 0.0], "shared"),
])
def test_endings_split_the_seeds_draws_from_added_rules_and_timeouts(game_id: str, options: dict[str, object],
                                                                     code: int, result: list[float],
                                                                     ending: str) -> None:
    assert classify_ending(boardlab.load(game_id, **options), result, code) == ending
    assert classify_ending(boardlab.load(game_id, **options), [0.5] * len(result), None) == "timeout"


def test_a_real_cap_and_a_turn_cap_end_as_what_they_are() -> None:
    capped = play_traced(GameJob("c", "v", "ndengrod", {"size": 4, "length": 4, "ply_cap": 3}, ("random", "random"),
                                 seed=1))
    assert (capped.ending, capped.end_reason, capped.result) == ("added-rule draw", "ply cap", [0.5, 0.5])
    stopped = play_traced(GameJob("t", "v", "ndengrod", {"size": 4, "length": 4}, ("random", "random"), seed=1,
                                  max_turns=2))
    assert stopped.ending == "timeout" and stopped.turns == 2
    assert metrics.drawishness([capped, stopped]) == 0.5 and metrics.timeouts([capped, stopped]) == 0.5


def test_rates_carry_wilson_intervals_and_means_bootstrap_intervals() -> None:
    measured = metrics.measure(GAMES)
    completion = measured["Completion"]
    assert (completion.low, completion.high) == pytest.approx(wilson(0.4, 5))
    assert completion.interval == "wilson"
    turns = measured["DurationTurns"]
    assert turns.interval == "bootstrap" and turns.low is not None and turns.high is not None
    assert 1.0 <= turns.low < 2.0 < turns.high <= 4.0
    assert metrics.measure(GAMES, seed=5)["DurationTurns"] == metrics.measure(GAMES, seed=5)["DurationTurns"]


def test_bootstrap_interval_is_seeded_and_narrows_with_more_data() -> None:
    few = stats.bootstrap_interval([0.0, 1.0] * 5, seed=3)
    many = stats.bootstrap_interval([0.0, 1.0] * 500, seed=3)
    assert few == stats.bootstrap_interval([0.0, 1.0] * 5, seed=3)
    assert many[1] - many[0] < few[1] - few[0]
    assert many[0] < 0.5 < many[1]


def test_numbers_are_printed_to_their_precision() -> None:
    assert stats.Estimate(1.1102230246251565e-16, 0.0, 0.3, 5, "bootstrap").text() == "0 [0, 0.3]"
    assert stats.Estimate(0.99999999999999, 0.9, 1.0000000000000002, 5, "wilson").text() == "1 [0.9, 1]"
    assert stats.number(0.000123456) == "0.000123" and "e" not in stats.number(1e-7)


def test_skill_gap_scores_the_stronger_agent() -> None:
    skill = [game([1.0, 0.0], [], 0, "win", [1.0, 0.0], kind="skill", strong_seat=0),
             game([1.0, 0.0], [], 0, "win", [1.0, 0.0], kind="skill", strong_seat=1),
             game([0.5, 0.5], [], 0, "rule draw", [0.5, 0.5], kind="skill", strong_seat=1), G1]
    gap = metrics.skill_gap(skill)
    assert gap.value == pytest.approx(1.5 / 3) and gap.n == 3
    assert (gap.low, gap.high) == pytest.approx(wilson(0.5, 3))


def test_balance_takes_the_widest_gap_between_any_two_of_three_seats() -> None:
    wins = [game([1.0, 0.0, 0.0], [], 0, "win", [1, 0, 0]), game([1.0, 0.0, 0.0], [], 0, "win", [1, 0, 0]),
            game([0.0, 1.0, 0.0], [], 0, "win", [0, 1, 0]), game([0.5, 0.5, 0.5], [], 0, "rule draw", [0.5] * 3)]
    assert metrics.seat_win_rates(wins) == [0.5, 0.25, 0.0]
    assert metrics.balance(wins) == pytest.approx(0.5)


def test_utilities_share_ranks_among_tied_seats() -> None:
    assert metrics.utilities([1.0, 1.0, 0.0, 0.0]) == pytest.approx([2 / 3, 2 / 3, -2 / 3, -2 / 3])


def test_unknown_metric_names_the_accepted_ones() -> None:
    with pytest.raises(KeyError, match="accepted: AdvantageP1"):
        metrics.metric("Fun")
    assert metrics.metric("drawishness").name == "Drawishness"
    assert metrics.canonical("drama") == "DramaAverage"


def test_a_pie_swap_is_no_capture() -> None:
    # After Ndengrod's first stone the second player may swap (N5): the stone changes seat, no stone
    # leaves the board. Counted by owners alone the swap looked like a capture: FirstContact was 1 in
    # every game with the pie rule.
    job = GameJob("s", "v", "ndengrod", {"swap": True}, ("random", "random"), seed=3, max_turns=3)
    trace = play_traced(job)
    assert trace.first_contact is None and trace.first_capture is None
