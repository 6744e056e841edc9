"""Ludii's game metrics, as pure functions over traced games, with their 95% intervals.

Names and definitions follow Ludii's Evaluation module (the ``Ludeme/Ludii`` repository, folder
``Evaluation/src/metrics/``; the file named under each function below; the list of metrics and the
state-evaluation cache in ``metrics/Evaluation.java``, the state and move evaluations in
``metrics/Utils.java``: ``evaluateState``, ``evaluateMove``, ``allPlayerStateEvaluations``,
``highestRankedPlayers``), so that designers can set our figures beside published Ludii ones. Ludii
computes each metric by replaying stored trials (each metric's ``apply``); its incremental
``metrics/MetricsTracker.java`` is a stub in the version we read. We likewise measure stored games,
once, in the worker that played them. Ludii computes a metric per *trial* (one game) and averages
it over trials; so do we, and we add a 95% interval over games (Wilson's for rates, a seeded
bootstrap for the rest). Where we differ from Ludii, on purpose or because our data differ, the
function's docstring says so. The differences that matter everywhere:

- **Decisions, turns.** Ludii's *move* is one decision (``trial.generateRealMovesList()``) and its
  *turn* one player's go. Ours: a *decision* is one kernel action, a *turn* a whole
  :class:`~boardlab.Move` (a Möbiatus capture chain is one turn of several decisions). Structural
  per-step measures (BranchingFactor, DecisionFactor, DecisionMoves, PieceNumber, ScoreDifference,
  GameTreeComplexity) are taken per decision as Ludii's are; ``BranchingFactorPerTurn`` is the
  whole-turn count, named apart. Estimate-based measures are taken at the positions before each
  whole turn: a position in the middle of a turn is no position a player leaves the board in.
- **Estimates** come from the run's fixed evaluator (:mod:`boardlab.playtest.evaluator`), which
  scores every recorded position for every seat, as Ludii's ``metrics.Utils.evaluateState`` and
  ``allPlayerStateEvaluations`` do; never from the playing agents, whose own values are optimistic
  for the mover and differ by agent. Values are chances in [0, 1]; Ludii's are in [−1, 1]
  (``tanh`` of a heuristic score; finished games their rank utilities), so for Ludii's scale map
  ``v ↦ 2v − 1``: differences (Drama, StateEvaluationDifference, DecisivenessThreshold) double,
  variances (Stability, ClarityVariance) quadruple.
- **Integer division.** Ludii's Java divides two ``int`` counts in a few places (DecisivenessMoves,
  ClarityNarrowness, ``MultiMetricFramework.metricChangeNumTimes``), which can only give 0 or 1 (or
  0 almost always). We compute the fractions their descriptions give.
- **Aggregates of a series** (Ludii's ``MultiMetricFramework``: Average, Median, Maximum, Minimum,
  Variance, ChangeAverage, ChangeSign, ChangeLineBestFit, ChangeNumTimes, MaxIncrease, MaxDecrease)
  are computed as :func:`aggregate` says; games whose series is empty are left out rather than
  counted as 0.

>>> from boardlab.playtest.trace import GameTrace, PlyTrace
>>> def ply(seat, legal=2): return PlyTrace(0, seat, legal, [legal], "m", None, [0.5, 0.5], [], 0, [0, 0], [],
...                                         [], [], [], "p", 0.0)
>>> games = [GameTrace("a", "v", "g", {}, "self", ["x", "x"], -1, 1, 2, [1.0, 0.0], "rules", "win", 2, 2, 0, 0, 0,
...                    None, "p", None, None, "e", "x", 0, [1.0, 0.0], 0.0, 0.0, "", [ply(0), ply(1)])]
>>> advantage_p1(games), completion(games), drawishness(games)
(1.0, 1.0, 0.0)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from boardlab.playtest import stats
from boardlab.playtest.trace import GameTrace

Games = Sequence[GameTrace]
Series = list[float]


# -- outcomes (Evaluation/src/metrics/single/outcome/) ----------------------------------------------
# Each rate is the share of games that pass one test on a game; the tests below serve both the
# functions over games and the per-game metrics of METRICS, so the two cannot drift apart.


def won_by(seat: int) -> Callable[[GameTrace], bool]:
    """The test that ``seat`` won the game outright."""
    def test(game: GameTrace) -> bool:
        return game.winner == seat

    return test


won_by_first = won_by(0)


def has_winner(game: GameTrace) -> bool:
    return game.winner is not None


def drawn(game: GameTrace) -> bool:
    """Drawn by the rules (the seed's or an added one), not stopped by the playtest."""
    return game.ending in ("rule draw", "added-rule draw")


def drawn_by_seed_rule(game: GameTrace) -> bool:
    return game.ending == "rule draw"


def drawn_by_added_rule(game: GameTrace) -> bool:
    return game.ending == "added-rule draw"


def timed_out(game: GameTrace) -> bool:
    return game.ending == "timeout"


def share(games: Games, test: Callable[[GameTrace], bool]) -> float:
    """The fraction of ``games`` that pass ``test``."""
    return sum(test(g) for g in games) / len(games)


def advantage_p1(games: Games) -> float:
    """**AdvantageP1** (``outcome/AdvantageP1.java``): the fraction of games won by the first player (seat 0).

    ``AdvantageP1 = #{games whose single winner is seat 0} / #games``. A shared win or draw is no win.
    """
    return share(games, won_by_first)


def seat_win_rates(games: Games) -> list[float]:
    """Each seat's fraction of games won outright."""
    seats = games[0].seats
    return [share(games, won_by(seat)) for seat in range(seats)]


def balance(games: Games) -> float:
    """**Balance** (``outcome/Balance.java``): ``1 − max over seat pairs (a, b) of |rate_a − rate_b|``,
    ``rate_s`` = seat ``s``'s win rate.

    1 when every seat wins equally often (draws count for nobody, as in Ludii).
    """
    rates = seat_win_rates(games)
    worst = max((abs(a - b) for i, a in enumerate(rates) for b in rates[i + 1 :]), default=0.0)
    return 1.0 - worst


def completion(games: Games) -> float:
    """**Completion** (``outcome/Completion.java``): the fraction of games with a single winner."""
    return share(games, has_winner)


def drawishness(games: Games) -> float:
    """**Drawishness** (``outcome/Drawishness.java``): the fraction of games drawn, timeouts not included.

    Ludii's description says "not including timeouts"; its code counts games in which every player's
    utility is 0, which a timeout scored as a draw would be too. We follow the description. Ours: games
    every seat ended level in, except those the playtest's ``--max-turns`` stopped (:func:`timeouts`).
    A draw at a cap the rules set (Ndengrod's ply cap, GTBM's no-capture limit) is a draw here, not a
    timeout: it is how these rules end the game. :func:`rule_draws` and :func:`added_rule_draws` split
    it by whose rule it is.
    """
    return share(games, drawn)


def rule_draws(games: Games) -> float:
    """Beyond Ludii: the fraction of games drawn by the seed's own rules."""
    return share(games, drawn_by_seed_rule)


def added_rule_draws(games: Games) -> float:
    """Beyond Ludii: the fraction of games drawn by a rule boardlab added to the seed's (a ply cap, a
    no-capture limit, a repetition draw; ``GameInfo.added_endings`` names them per game)."""
    return share(games, drawn_by_added_rule)


def timeouts(games: Games) -> float:
    """**Timeouts** (``outcome/Timeouts.java``): the fraction of games stopped by a length limit of the
    engine (Ludii's ``EndType.MoveLimit``/``TurnLimit``): ours is the playtest's ``--max-turns``."""
    return share(games, timed_out)


def utilities(result: Sequence[float]) -> list[float]:
    """Ludii's rank utilities: ``1 − 2 (rank − 1) / (seats − 1)``, ties sharing their mean rank.

    >>> utilities([1.0, 0.0]), utilities([0.5, 0.5]), utilities([1.0, 0.0, 0.0])
    ([1.0, -1.0], [0.0, 0.0], [1.0, -0.5, -0.5])
    """
    seats = len(result)
    if seats < 2:
        return [0.0] * seats
    out = []
    for score in result:
        better = sum(other > score for other in result)
        equal = sum(other == score for other in result)
        rank = better + (equal + 1) / 2  # mean of ranks better+1 … better+equal
        out.append(1.0 - 2.0 * (rank - 1) / (seats - 1))
    return out


def outcome_uniformity(games: Games) -> float:
    """**OutcomeUniformity** (``outcome/OutcomeUniformity.java``): ``1 − (1/P) Σ_p Var_n(u_p)``, ``u_p``
    seat ``p``'s rank utility per game; ``Var_n`` the population variance. 1 when every game ends alike."""
    table = np.array([utilities(g.result) for g in games], np.float64)
    return float(1.0 - table.var(axis=0).mean())


# -- duration (single/duration/) -------------------------------------------------------------------


def duration_turns(game: GameTrace) -> float:
    """**DurationTurns** (``duration/DurationTurns.java``, one game): its whole turns."""
    return float(game.turns)


def duration_turns_not_timeouts(game: GameTrace) -> float | None:
    """**DurationTurnsNotTimeouts** (``duration/DurationTurnsNotTimeouts.java``): turns of games not
    stopped by ``--max-turns`` (``None`` for those)."""
    return None if game.ending == "timeout" else float(game.turns)


def duration_turns_std(games: Games) -> float:
    """**DurationTurnsStdDev** (``duration/DurationTurnsStdDev.java``): the population standard deviation
    of the turns per game."""
    return float(np.std([g.turns for g in games]))


def duration_moves(game: GameTrace) -> float:
    """**DurationMoves** (``duration/DurationMoves.java``, one game): its decisions (kernel actions)."""
    return float(game.moves)


def duration_actions(game: GameTrace) -> float:
    """**DurationActions** (``duration/DurationActions.java``, one game): its elementary actions.

    Ludii sums the actions each move is made of (a step; a removal for each piece it takes). Our
    kernels do not list those, so we count each decision as one action and each piece captured as
    one more: ``decisions + captured pieces``.
    """
    return float(game.moves + sum(p.captures for p in game.plies))


# -- board (single/boardCoverage/) -----------------------------------------------------------------


def board_coverage(game: GameTrace) -> float | None:
    """**BoardCoverage** (``boardCoverage/BoardCoverageDefault.java``, one game): the fraction of cells a
    piece stood on at some point, the start position included.

    Ludii tells apart the default site type (Default), all sites (Full) and the sites the game uses
    (Used); every board here has one kind of site, used throughout (cells, points, Möbiatus' faces),
    so the three are one number, reported once. ``None`` where the game does not report occupancy.
    """
    return game.covered / game.cells if game.cells else None


# -- series of one game, for Ludii's multi-metrics (multiple/metrics/) --------------------------------


def branching_series(game: GameTrace) -> Series:
    """Legal decisions at each decision of the game (``multiple/metrics/BranchingFactor.java``)."""
    return [float(d) for p in game.plies for d in p.decisions]


def turn_branching_series(game: GameTrace) -> Series:
    """Legal whole-turn moves at each turn: ours, not Ludii's (a Möbiatus turn counts every chain)."""
    return [float(p.legal) for p in game.plies]


def decision_factor_series(game: GameTrace) -> Series:
    """Legal decisions at each decision with more than one (``multiple/metrics/DecisionFactor.java``)."""
    return [d for d in branching_series(game) if d > 1]


def piece_number_series(game: GameTrace) -> Series | None:
    """Pieces on the board at the start and after each decision (``multiple/metrics/PieceNumber.java``);
    ``None`` where the game does not report occupancy."""
    if not game.cells:
        return None
    return [float(game.start_pieces), *(float(n) for p in game.plies for n in p.board_pieces)]


def board_sites_occupied_series(game: GameTrace) -> Series | None:
    """The fraction of cells occupied at the start and after each decision
    (``multiple/metrics/BoardSitesOccupied.java``); one piece a cell here, so PieceNumber / cells."""
    pieces = piece_number_series(game)
    return None if pieces is None else [n / game.cells for n in pieces]


def move_distance_series(game: GameTrace) -> Series:
    """How far each piece moved, in steps across cell edges (``multiple/metrics/MoveDistance.java``).

    Ludii takes each decision that moves a piece from one site to another and the distance between
    them in its Adjacent relation. Ours: each step a move's piece takes (a knight's hop, a slide, each
    hop of a capture chain; from the cells the move touches), measured across cell edges. Placements
    move nothing: a placement game has no value (Ludii: 0).
    """
    return [float(d) for p in game.plies for d in p.distances]


def score_difference_series(game: GameTrace) -> Series | None:
    """The widest gap between two seats' running scores at the start and after each decision
    (``multiple/metrics/ScoreDifference.java``); ``None`` in a game without a running score (Ludii: 0).
    Of our games only Mynd counts points as it goes (its territory)."""
    if game.start_score_gap is None:
        return None
    return [game.start_score_gap, *(gap for p in game.plies for gap in p.score_gaps)]


def evaluations(game: GameTrace) -> np.ndarray | None:
    """Every seat's chances before each turn, by the fixed evaluator (rows: turns; columns: seats).

    >>> from boardlab.playtest.trace import GameTrace, PlyTrace
    >>> plies = [PlyTrace(t, t % 2, 2, [2], "m", None, e, [], 0, [], [], [], [], [], "p", 0.0)
    ...          for t, e in enumerate([[0.6, 0.4], [0.7, 0.3]])]
    >>> g = GameTrace("a", "v", "g", {}, "self", [], -1, 1, 2, [1.0, 0.0], "line", "win", 2, 2, 0, 0, 0, None,
    ...               "p", None, None, "evaluation", "x", 0, [1.0, 0.0], 0.0, 0.0, "", plies)
    >>> evaluations(g).tolist()
    [[0.6, 0.4], [0.7, 0.3]]
    """
    if not game.plies or any(len(p.evaluation) != game.seats for p in game.plies):
        return None
    return np.array([p.evaluation for p in game.plies], np.float64)


def drama_series(game: GameTrace) -> Series | None:
    """Per turn, how far below the best-placed seat the eventual winners stood
    (``multiple/metrics/Drama.java``): ``mean over top seats w of (max_p e_p − e_w)``.

    The top seats are those ranked first at the end (every seat in a draw: then every seat's shortfall
    is averaged). Ludii reads the ranking from a fresh context in the code we read; we take the final
    result, which is what its description means.
    """
    table = evaluations(game)
    if table is None:
        return None
    top = game.top_seats
    return [float(np.mean([row.max() - row[w] for w in top])) for row in table]


def state_evaluation_difference_series(game: GameTrace) -> Series | None:
    """The widest gap between two seats' chances in the start position and after each turn
    (``multiple/metrics/StateEvaluationDifference.java``; Ludii after each decision)."""
    table = evaluations(game)
    if table is None:
        return None
    rows = [*table, np.asarray(game.final_evaluation, np.float64)]
    return [float(row.max() - row.min()) for row in rows]


# -- aggregates of a series (multiple/MultiMetricFramework.java) ----------------------------------------


def _change_num_times(values: np.ndarray) -> float:
    changes, direction = 0, 0.0
    for before, after in itertools.pairwise(values):
        step = float(np.sign(after - before))
        if step != 0.0 and step != direction:
            changes += 1
        direction = step
    return changes / (len(values) - 1)


def aggregate(values: Series, how: str) -> float | None:
    """One number from a game's series, as Ludii's ``MultiMetricFramework`` does, except as noted.

    - ``Average`` the mean; ``Variance`` the population variance (0 for one value).
    - ``Median`` numpy's median (Ludii: the upper middle value, and 0 for a single value).
    - ``Maximum``/``Minimum`` the largest/smallest value (Ludii starts both from 0, so its Minimum of a
      positive series is 0 and its Maximum of a negative one is 0).
    - ``ChangeAverage`` ``(last − first) / (n − 1)``; ``ChangeSign`` the mean sign of the steps;
      ``ChangeLineBestFit`` the least-squares slope against the step number.
    - ``ChangeNumTimes`` the fraction of steps that go up or down and not the way the step before went
      (a flat step resets the direction, as in Ludii; Ludii divides ``1 / (n − 1)`` in ints, 0 for n > 2).
    - ``MaxIncrease``/``MaxDecrease`` the largest rise (≥ 0)/largest fall (≤ 0) between neighbours.

    ``None`` for an empty series (Ludii: 0); the change measures need two values (Ludii: 0).

    >>> [aggregate([1.0, 3.0, 2.0, 2.0, 5.0], h) for h in ("Average", "Median", "ChangeAverage", "ChangeNumTimes",
    ...                                                     "MaxIncrease", "MaxDecrease")]
    [2.6, 2.0, 1.0, 0.75, 3.0, -1.0]
    """
    if not values:
        return None
    array = np.asarray(values, np.float64)
    simple: dict[str, Callable[[np.ndarray], float]] = {
        "Average": lambda a: float(a.mean()), "Median": lambda a: float(np.median(a)),
        "Maximum": lambda a: float(a.max()), "Minimum": lambda a: float(a.min()),
        "Variance": lambda a: float(a.var()),
    }
    if how in simple:
        return simple[how](array)
    if len(array) < 2:
        return 0.0
    steps = np.diff(array)
    if how == "ChangeAverage":
        return float((array[-1] - array[0]) / (len(array) - 1))
    if how == "ChangeSign":
        return float(np.sign(steps).mean())
    if how == "ChangeLineBestFit":
        return float(np.polyfit(np.arange(len(array), dtype=np.float64), array, 1)[0])
    if how == "ChangeNumTimes":
        return _change_num_times(array)
    if how == "MaxIncrease":
        return float(max(0.0, steps.max()))
    if how == "MaxDecrease":
        return float(min(0.0, steps.min()))
    raise KeyError(f"unknown aggregate {how!r}; accepted: {', '.join(AGGREGATES)}")


AGGREGATES = ("Average", "Median", "Maximum", "Minimum", "Variance", "ChangeAverage", "ChangeSign",
              "ChangeLineBestFit", "ChangeNumTimes", "MaxIncrease", "MaxDecrease")


# -- decisions (single/complexity/) ---------------------------------------------------------------


def decision_moves(game: GameTrace) -> float | None:
    """**DecisionMoves** (``complexity/DecisionMoves.java``, one game): the fraction of decisions with more
    than one legal action."""
    series = branching_series(game)
    return None if not series else sum(d > 1 for d in series) / len(series)


def game_tree_complexity(game: GameTrace) -> float | None:
    """**GameTreeComplexity** (``complexity/GameTreeComplexity.java``, one game): ``D · log10(b̄)``, ``D``
    the decisions, ``b̄`` their mean branching factor."""
    series = branching_series(game)
    if not series:
        return None
    mean = float(np.mean(series))
    return game.moves * math.log10(mean) if mean > 0 else None


# -- the fixed evaluator's estimates (single/stateEvaluation/) ----------------------------------------


def lead_change(game: GameTrace) -> float | None:
    """**LeadChange** (``stateEvaluation/LeadChange.java``, one game): the fraction of turns after which
    the set of leading seats differs from the turn before.

    The leaders of a position are the seats the fixed evaluator gives the highest chances. Ludii
    starts from an empty set, so its first position always counts as a change, and divides by the
    number of moves; we count changes between consecutive positions and divide by their number
    (``T − 1``): a game one seat leads throughout has LeadChange 0. One turn: 0.
    """
    table = evaluations(game)
    if table is None:
        return None
    if len(table) < 2:
        return 0.0
    leaders = [frozenset(np.flatnonzero(row == row.max()).tolist()) for row in table]
    return sum(a != b for a, b in itertools.pairwise(leaders)) / (len(table) - 1)


def stability(game: GameTrace) -> float | None:
    """**Stability** (``stateEvaluation/Stability.java``, one game): ``Σ_p Var_n(e_p)``, each seat's
    chances' population variance over the positions before each turn, summed. Lower is steadier."""
    table = evaluations(game)
    return None if table is None else float(table.var(axis=0).sum())


def decisiveness_threshold(game: GameTrace) -> float | None:
    """**DecisivenessThreshold** (``decisiveness/DecisivenessThreshold.java``, one game): the highest
    chances any seat not ranked first ever had.

    ``None`` where every seat is ranked first (a draw): Ludii gives −1 there and averages it in. (As
    for Drama, Ludii's code takes the ranking from a fresh context; we take the final result.)
    """
    table = evaluations(game)
    losers = [seat for seat in range(game.seats) if seat not in game.top_seats]
    if table is None or not losers:
        return None
    return float(table[:, losers].max())


def decisiveness_moves(game: GameTrace) -> float | None:
    """**DecisivenessMoves** (``decisiveness/DecisivenessMoves.java``, one game): ``t* / T``, ``t*`` the
    first turn at which a seat ranked first has higher chances than the decisiveness threshold (``T``
    if none): how far into the game it was decided. Ludii divides two ints (0 or 1 per game); this
    is the fraction. ``None`` for draws (no threshold).
    """
    table = evaluations(game)
    threshold = decisiveness_threshold(game)
    if table is None or threshold is None:
        return None
    above = [t for t, row in enumerate(table) if any(row[w] > threshold for w in game.top_seats)]
    return (above[0] if above else len(table)) / len(table)


def clarity_narrowness(game: GameTrace) -> float | None:
    """**ClarityNarrowness** (``stateEvaluation/clarity/ClarityNarrowness.java``, one game): over turns,
    the mean fraction of legal moves valued above ``mean + 0.75 (max − mean)`` of all legal moves'
    values, each move valued by the fixed evaluator in the position after it, for the mover (Ludii's
    ``evaluateMove``). Ludii divides two ints here (0 or 1 per position); this is the fraction."""
    turns = [p.clarity[1] for p in game.plies if p.clarity]
    return float(np.mean(turns)) if turns else None


def clarity_variance(game: GameTrace) -> float | None:
    """**ClarityVariance** (``stateEvaluation/clarity/ClarityVariance.java``, one game): over turns, the
    mean population variance of every legal move's value by the fixed evaluator. With the Monte Carlo
    evaluator each value's sampling variance (at most ``p (1 − p) / move_n``) is subtracted first, or the
    noise of a few playouts a move would pass for a spread of the moves' worth."""
    turns = [p.clarity[2] for p in game.plies if p.clarity]
    return float(np.mean(turns)) if turns else None


# -- repetition and contact ---------------------------------------------------------------------


def positional_repetition(game: GameTrace) -> float:
    """**PositionalRepetition** (``stateRepetition/PositionalRepetition.java``, one game):
    ``1 − unique positions / positions``, the start included; positions compared by who stands where
    and who moves next, after each whole turn. Ludii's Java divides two ints (0 or 1 per game); this
    is the fraction it describes."""
    keys = [game.start_position, *(p.position for p in game.plies)]
    return 1.0 - len(set(keys)) / len(keys)


def first_capture(game: GameTrace) -> float | None:
    """Beyond Ludii: the turn (from 0) of the first capture; ``None`` in a game without one."""
    return None if game.first_capture is None else float(game.first_capture)


def first_contact(game: GameTrace) -> float | None:
    """Beyond Ludii: the first turn at which the mover could capture; ``None`` if it never could."""
    return None if game.first_contact is None else float(game.first_contact)


# -- the table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Metric:
    """A named measure and how its interval is made: a rate (Wilson), a mean over games or a statistic
    over games (both bootstrapped over games). ``main``: in the report's first table; ``unit``: ``rate``
    for fractions of games, ``fraction`` for other values in [0, 1], ``count`` for the rest."""

    name: str
    kind: str  # "rate", "mean" or "statistic"
    per_game: Callable[[GameTrace], float | None] | None = None
    over_games: Callable[[Games], float] | None = None
    help: str = ""
    main: bool = False
    unit: str = "count"
    estimate: bool = False  # from the fixed evaluator


def _rate(name: str, test: Callable[[GameTrace], bool], help: str, main: bool = False) -> Metric:
    return Metric(name, "rate", per_game=lambda g: float(test(g)), help=help, main=main, unit="rate")


def _multi(name: str, series: Callable[[GameTrace], Series | None], help: str, unit: str = "count",
           main: Sequence[str] = (), estimate: bool = False) -> list[Metric]:
    """Ludii's eleven aggregates of one series, named ``NAME`` + aggregate (``DramaAverage`` …)."""
    out = []
    for how in AGGREGATES:
        def per_game(game: GameTrace, how: str = how) -> float | None:
            values = series(game)
            return None if values is None else aggregate(values, how)

        words = {"Average": "mean", "Maximum": "largest", "Minimum": "smallest"}.get(how, how)
        unit_here = unit if how in ("Average", "Median", "Maximum", "Minimum") else "count"
        out.append(Metric(f"{name}{how}", "mean", per_game=per_game, help=f"{help}: {words} per game",
                          main=how in main, unit=unit_here, estimate=estimate))
    return out


METRICS: tuple[Metric, ...] = (
    _rate("AdvantageP1", won_by_first, "games won by the first player (seat 0)", main=True),
    Metric("Balance", "statistic", over_games=balance, help="1 − the largest gap between two seats' win rates",
           main=True, unit="fraction"),
    _rate("Completion", has_winner, "games with a single winner", main=True),
    _rate("Drawishness", drawn, "games drawn (not timeouts)", main=True),
    _rate("RuleDraws", drawn_by_seed_rule, "games drawn by the seed's own rules", main=True),
    _rate("AddedRuleDraws", drawn_by_added_rule, "games drawn at a rule boardlab added (a cap, a repetition draw)",
          main=True),
    _rate("Timeouts", timed_out, "games stopped by the playtest's --max-turns", main=True),
    Metric("OutcomeUniformity", "statistic", over_games=outcome_uniformity,
           help="1 − mean per-seat variance of rank utilities", unit="fraction"),
    Metric("DurationTurns", "mean", per_game=duration_turns, help="whole turns per game", main=True),
    Metric("DurationTurnsStdDev", "statistic", over_games=duration_turns_std, help="std dev of turns per game"),
    Metric("DurationTurnsNotTimeouts", "mean", per_game=duration_turns_not_timeouts,
           help="turns per game, timeouts left out"),
    Metric("DurationMoves", "mean", per_game=duration_moves, help="decisions per game", main=True),
    Metric("DurationActions", "mean", per_game=duration_actions, help="decisions + pieces captured per game"),
    Metric("BoardCoverage", "mean", per_game=board_coverage, help="cells ever occupied / cells", main=True,
           unit="fraction"),
    Metric("DecisionMoves", "mean", per_game=decision_moves, help="decisions with more than one legal action",
           main=True, unit="fraction"),
    Metric("GameTreeComplexity", "mean", per_game=game_tree_complexity, help="decisions · log10(branching factor)"),
    *_multi("BranchingFactor", branching_series, "legal actions per decision", main=("Average", "Maximum")),
    Metric("BranchingFactorPerTurn", "mean", per_game=lambda g: aggregate(turn_branching_series(g), "Average"),
           help="legal whole-turn moves per turn (not Ludii's)", main=True),
    Metric("BranchingFactorPerTurnMaximum", "mean",
           per_game=lambda g: aggregate(turn_branching_series(g), "Maximum"),
           help="most legal whole-turn moves in a turn, per game"),
    *_multi("DecisionFactor", decision_factor_series, "legal actions per decision, where more than one"),
    *_multi("PieceNumber", piece_number_series, "pieces on the board", main=("Average",)),
    *_multi("BoardSitesOccupied", board_sites_occupied_series, "share of cells occupied", unit="fraction"),
    *_multi("MoveDistance", move_distance_series, "steps a moving piece travels", main=("Average",)),
    *_multi("ScoreDifference", score_difference_series, "widest gap between running scores"),
    Metric("LeadChange", "mean", per_game=lead_change, help="turns after which the leader changes", main=True,
           unit="fraction", estimate=True),
    Metric("Stability", "mean", per_game=stability, help="variance of the chances (lower: steadier)", main=True,
           estimate=True),
    *_multi("Drama", drama_series, "how far behind the eventual winner stood", unit="fraction",
            main=("Average",), estimate=True),
    Metric("DecisivenessThreshold", "mean", per_game=decisiveness_threshold,
           help="best chances a non-winner ever had", main=True, unit="fraction", estimate=True),
    Metric("DecisivenessMoves", "mean", per_game=decisiveness_moves,
           help="share of the game before the winner passed that threshold", main=True, unit="fraction",
           estimate=True),
    *_multi("StateEvaluationDifference", state_evaluation_difference_series,
            "widest gap between two seats' chances", unit="fraction", main=("Average",), estimate=True),
    Metric("ClarityNarrowness", "mean", per_game=clarity_narrowness, help="share of legal moves near the best",
           main=True, unit="fraction", estimate=True),
    Metric("ClarityVariance", "mean", per_game=clarity_variance, help="variance of the legal moves' values",
           main=True, estimate=True),
    Metric("PositionalRepetition", "mean", per_game=positional_repetition, help="repeated positions / positions",
           unit="fraction"),
    Metric("FirstCapture", "mean", per_game=first_capture, help="turn of the first capture (games with one)",
           main=True),
    Metric("FirstContact", "mean", per_game=first_contact, help="first turn a capture was possible", main=True),
    _rate("CaptureGames", lambda g: g.first_capture is not None, "games with a capture"),
    *(_rate(f"WinsSeat{seat}", won_by(seat), f"games won by seat {seat}") for seat in range(4)),
)
NAMES = tuple(metric.name for metric in METRICS)
MAIN = tuple(metric.name for metric in METRICS if metric.main)
# Short names accepted wherever a metric is named (targets, claims): Ludii's base names mean the average.
ALIASES = {"BranchingFactor": "BranchingFactorAverage", "Drama": "DramaAverage",
           "PieceNumber": "PieceNumberAverage", "MoveDistance": "MoveDistanceAverage",
           "StateEvaluationDifference": "StateEvaluationDifferenceAverage", "DecisionFactor": "DecisionFactorAverage",
           "ScoreDifference": "ScoreDifferenceAverage", "BoardSitesOccupied": "BoardSitesOccupiedAverage"}
EXTRA = ("SkillGap",)  # measured from the skill games, not from self-play


def canonical(name: str) -> str:
    """The metric's name as the tables spell it (case-insensitive, aliases resolved); :class:`KeyError`
    names the accepted ones."""
    lowered = {n.lower(): n for n in (*NAMES, *EXTRA)}
    lowered.update({alias.lower(): target for alias, target in ALIASES.items()})
    if name.lower() not in lowered:
        raise KeyError(f"unknown metric {name!r}; accepted: {', '.join((*NAMES, *EXTRA))} "
                       f"(and {', '.join(ALIASES)} for their averages)")
    return lowered[name.lower()]


def metric(name: str) -> Metric:
    """The metric called ``name`` (case-insensitive; aliases accepted)."""
    found = canonical(name)
    for candidate in METRICS:
        if candidate.name == found:
            return candidate
    raise KeyError(f"{name!r} is measured from the skill games, not per game")


def per_game_values(games: Games, name: str) -> list[float | None]:
    """One metric's value per game (``None`` where it has none): what paired comparisons pair."""
    item = metric(name)
    if item.per_game is None:
        raise KeyError(f"{item.name} is a statistic over games, not a value per game")
    return [item.per_game(g) for g in games]


def measure(games: Games, seed: int = 0, names: Sequence[str] | None = None) -> dict[str, stats.Estimate]:
    """Every metric (or those ``names``) over ``games`` (self-play games of one variant and strength),
    each with its 95% interval."""
    out: dict[str, stats.Estimate] = {}
    wanted = set(names) if names is not None else None
    for item in METRICS:
        if wanted is not None and item.name not in wanted:
            continue
        if not games or (item.name.startswith("WinsSeat") and int(item.name[-1]) >= games[0].seats):
            out[item.name] = stats.Estimate(None, None, None, 0, "")
        elif item.kind == "rate":
            assert item.per_game is not None
            out[item.name] = stats.rate(sum(item.per_game(g) or 0.0 for g in games), len(games))
        elif item.kind == "mean":
            assert item.per_game is not None
            out[item.name] = stats.mean([item.per_game(g) for g in games], seed)
        else:
            assert item.over_games is not None
            out[item.name] = stats.bootstrap_statistic(list(games), item.over_games, seed)
    return out


def seat_results(games: Games) -> list[dict[str, stats.Estimate]]:
    """Per seat: wins, and mean score (1 win, ½ draw), with intervals."""
    if not games:
        return []
    out = []
    for seat in range(games[0].seats):
        out.append({
            "wins": stats.rate(sum(g.winner == seat for g in games), len(games)),
            "score": stats.mean([g.result[seat] for g in games], seed=seat),
        })
    return out


def skill_points(game: GameTrace) -> float:
    """The stronger agent's points in one skill game: 1 if it alone came first, ½ if it shared first
    place, 0 otherwise."""
    others = max(score for seat, score in enumerate(game.result) if seat != game.strong_seat)
    mine = game.result[game.strong_seat]
    return 1.0 if mine > others else 0.5 if mine == others else 0.0


def skill_gap(games: Games) -> stats.Estimate:
    """Beyond Ludii: the stronger agent's score (1 win, ½ draw) in the skill games, with Wilson's interval.

    A mini-match per variant, the stronger agent against the weaker with seats alternating. Near 1: skill
    pays (a sign of depth); near ½: the weaker agent does as well (a shallow game, or a drawish one).
    """
    scored = [g for g in games if g.kind == "skill" and g.strong_seat >= 0]
    if not scored:
        return stats.Estimate(None, None, None, 0, "")
    return stats.rate(sum(skill_points(g) for g in scored), len(scored))
