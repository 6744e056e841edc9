"""Ludii's game metrics, as pure functions over traced games, with their 95% intervals.

Names and definitions follow Ludii's Evaluation module (``Evaluation/src/metrics/single/…`` and
``metrics/multiple/…`` in the Ludii repository), so that designers can set our figures beside
published Ludii ones. Where our data differ from Ludii's, each docstring says so. The differences
that matter everywhere:

- **Turns and moves.** Ludii's *move* is one decision and its *turn* one player's go. Our traces hold
  one row per whole turn (a :class:`~boardlab.Move`, which may take several decisions: a capture
  chain); ``moves`` counts decisions. Per-step measures (branching factor, decision moves, the
  estimates) are taken per whole turn, over the whole turn's legal moves.
- **Estimates.** Ludii asks a UCT search for every player's value of every state. We keep what the
  playing agents said: after its search, the mover's estimate of its chances in [0, 1] (a draw ½).
  With two seats the other seat's is ``1 − e``; with more, each seat's last own estimate is carried
  until it moves again. Every seat starts at ``1/seats``. Turns without an estimate (a forced move, a
  random agent) carry the previous values. A game in which no agent estimated anything has no value
  for these measures. Ludii's values are in [−1, 1] (unsure: its UCT utilities are): variances
  (Stability, ClarityVariance) on our [0, 1] scale are a quarter of theirs, thresholds differ by the
  map ``v ↦ 2v − 1``.
- **Integer division.** Three of Ludii's metrics divide two ``int`` counts in Java and so can only
  give 0 or 1 per game (PositionalRepetition, DecisivenessMoves, ClarityNarrowness). We compute the
  fraction they describe; the docstrings say where.

>>> from boardlab.playtest.trace import GameTrace, PlyTrace
>>> def ply(seat, legal=2): return PlyTrace(0, seat, legal, "m", None, [], 0, [0, 0], [], "p", 0.0)
>>> games = [GameTrace("a", "v", "g", {}, "self", ["x", "x"], -1, 1, 2, [1.0, 0.0], "win", False, 2, 2, 0, 0,
...                    "p", None, None, 0.0, "", [ply(0), ply(1)])]
>>> advantage_p1(games), completion(games), drawishness(games)
(1.0, 1.0, 0.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from boardlab.playtest import stats
from boardlab.playtest.trace import GameTrace

Games = Sequence[GameTrace]


# -- outcomes -------------------------------------------------------------------------------------


def advantage_p1(games: Games) -> float:
    """**AdvantageP1**: the fraction of games won by the first player (seat 0).

    ``AdvantageP1 = #{games whose single winner is seat 0} / #games``. A shared win or draw is no win.
    """
    return sum(g.winner == 0 for g in games) / len(games)


def seat_win_rates(games: Games) -> list[float]:
    """Each seat's fraction of games won outright."""
    seats = games[0].seats
    return [sum(g.winner == seat for g in games) / len(games) for seat in range(seats)]


def balance(games: Games) -> float:
    """**Balance**: ``1 − max over seat pairs (a, b) of |rate_a − rate_b|``, ``rate_s`` = seat ``s``'s win rate.

    1 when every seat wins equally often (draws count for nobody, as in Ludii).
    """
    rates = seat_win_rates(games)
    worst = max((abs(a - b) for i, a in enumerate(rates) for b in rates[i + 1 :]), default=0.0)
    return 1.0 - worst


def completion(games: Games) -> float:
    """**Completion**: the fraction of games with a single winner (not a draw nor a timeout)."""
    return sum(g.winner is not None for g in games) / len(games)


def drawishness(games: Games) -> float:
    """**Drawishness**: the fraction of games that end without a winner *within* the length limits.

    Ludii: no winner and turns ≤ its turn limit and moves ≤ its move limit. Ours: no single winner and
    not a timeout (see :func:`timeouts`).
    """
    return sum(g.winner is None and not g.timeout for g in games) / len(games)


def timeouts(games: Games) -> float:
    """**Timeouts**: the fraction of games that end without a winner because a length limit was reached.

    Ludii's limits are its engine's turn and move caps. Ours are the rules' own caps (end reasons with
    "cap" or "limit" in them: Ndengrod's ply cap, Möbiatus' move-pair limit, GTBM's no-capture limit,
    …) and the playtest's ``--max-turns``, whenever every seat scores the same. Unsure: Ludii would
    count GTBM's no-capture draw as a natural draw if the game's own rules end it; we call it a
    timeout because it is a length limit.
    """
    return sum(g.winner is None and g.timeout for g in games) / len(games)


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
    """**OutcomeUniformity**: ``1 − (1/P) Σ_p Var_n(u_p)``, ``u_p`` seat ``p``'s rank utility per game.

    ``Var_n`` is the population variance (divide by n). 1 when every game ends the same way.
    """
    table = np.array([utilities(g.result) for g in games], np.float64)
    return float(1.0 - table.var(axis=0).mean())


# -- length and board -------------------------------------------------------------------------------


def duration_turns(game: GameTrace) -> float:
    """**DurationTurns** (one game): its number of whole turns. The metric is the mean over games."""
    return float(game.turns)


def duration_turns_std(games: Games) -> float:
    """**DurationTurnsStdDev**: the population standard deviation of the turn count over games."""
    return float(np.std([g.turns for g in games]))


def duration_moves(game: GameTrace) -> float:
    """**DurationMoves** (one game): its number of decisions (Ludii's real moves: our kernel actions).

    Equal to DurationTurns in games whose turns are one decision each.
    """
    return float(game.moves)


def board_coverage(game: GameTrace) -> float | None:
    """**BoardCoverageDefault / Full / Used** (one game): the fraction of cells a piece stood on at some point.

    ``covered cells / board cells``, the start position included. Ludii tells apart the default site
    type (cells, vertices or edges), all sites, and the sites the game uses; every board here has one
    kind of site (cells or points; Möbiatus' faces), so the three are equal. ``None`` where the game does
    not report who stands where.
    """
    return game.covered / game.cells if game.cells else None


# -- decisions ----------------------------------------------------------------------------------------


def decision_moves(game: GameTrace) -> float | None:
    """**DecisionMoves** (one game): the fraction of turns where the mover had more than one legal move."""
    if not game.plies:
        return None
    return sum(p.legal > 1 for p in game.plies) / len(game.plies)


def branching_factor(game: GameTrace) -> float | None:
    """**BranchingFactor** (Ludii's BranchingFactorAvg, one game): the mean number of legal moves per turn.

    Legal moves are whole turns (a capture chain is one move); Ludii counts the decisions at each step.
    """
    if not game.plies:
        return None
    return float(np.mean([p.legal for p in game.plies]))


def game_tree_complexity(game: GameTrace) -> float | None:
    """**GameTreeComplexity** (one game): ``T · log10(b̄)``, ``T`` turns, ``b̄`` the mean legal moves per turn.

    Ludii uses its move count and the branching of each move; we use whole turns throughout.
    """
    factor = branching_factor(game)
    if factor is None or factor <= 0:
        return None
    return game.turns * math.log10(factor)


# -- estimates -------------------------------------------------------------------------------------


def estimates(game: GameTrace) -> np.ndarray | None:
    """Every seat's estimated chances before each turn (rows: turns; columns: seats), or ``None``.

    >>> from boardlab.playtest.trace import GameTrace, PlyTrace
    >>> plies = [PlyTrace(t, t % 2, 2, "m", e, [], 0, [], [], "p", 0.0) for t, e in enumerate([0.6, None, 0.3])]
    >>> g = GameTrace("a", "v", "g", {}, "self", [], -1, 1, 2, [0.0, 1.0], "win", False, 3, 3, 0, 0, "p",
    ...               None, None, 0.0, "", plies)
    >>> estimates(g).tolist()
    [[0.6, 0.4], [0.6, 0.4], [0.3, 0.7]]
    """
    if not any(p.estimate is not None for p in game.plies):
        return None
    seats = game.seats
    current = [1.0 / seats] * seats
    rows = []
    for ply in game.plies:
        if ply.estimate is not None:
            current[ply.seat] = ply.estimate
            if seats == 2:
                current[1 - ply.seat] = 1.0 - ply.estimate
        rows.append(list(current))
    return np.array(rows, np.float64)


def lead_change(game: GameTrace) -> float | None:
    """**LeadChange** (one game): ``changes / T``: how often the set of leading seats changes per turn.

    Before each turn the leaders are the seats with the highest estimate; a change is a turn whose
    leaders differ from the previous turn's. As in Ludii, the set before the first turn is empty, so
    the first turn always counts as a change.
    """
    table = estimates(game)
    if table is None:
        return None
    changes, previous = 0, frozenset[int]()
    for row in table:
        leaders = frozenset(np.flatnonzero(row == row.max()).tolist())
        changes += leaders != previous
        previous = leaders
    return changes / len(table)


def stability(game: GameTrace) -> float | None:
    """**Stability** (one game): ``Σ_p Var_n(e_p)``: each seat's estimates' population variance, summed.

    Ludii's name notwithstanding, lower is more stable.
    """
    table = estimates(game)
    return None if table is None else float(table.var(axis=0).sum())


def drama(game: GameTrace) -> float | None:
    """**Drama** (Ludii's DramaAverage, one game): ``mean over turns of mean over winners w of (max_p e_p − e_w)``.

    How far behind the eventual winners (the seats ranked first at the end: every seat in a draw) were
    estimated, on average.
    """
    table = estimates(game)
    if table is None:
        return None
    top = game.top_seats
    return float(np.mean([np.mean([row.max() - row[w] for w in top]) for row in table]))


def decisiveness_threshold(game: GameTrace) -> float | None:
    """**DecisivenessThreshold** (one game): the highest estimate any seat not ranked first ever had.

    ``−1`` where every seat is ranked first (a draw), as in Ludii.
    """
    table = estimates(game)
    if table is None:
        return None
    losers = [seat for seat in range(game.seats) if seat not in game.top_seats]
    return float(table[:, losers].max()) if losers else -1.0


def decisiveness_moves(game: GameTrace) -> float | None:
    """**DecisivenessMoves** (one game): ``t* / T``, ``t*`` the first turn at which a winner's estimate
    exceeds the decisiveness threshold (``T`` if none): how late in the game it was decided.

    Ludii divides two ints here (so each game gives 0 or 1); this is the fraction it describes.
    """
    table = estimates(game)
    threshold = decisiveness_threshold(game)
    if table is None or threshold is None:
        return None
    above = [t for t, row in enumerate(table) if any(row[w] > threshold for w in game.top_seats)]
    return (above[0] if above else len(table)) / len(table)


def _clarity(game: GameTrace, per_turn: Callable[[np.ndarray], float]) -> float | None:
    turns = [np.asarray(p.values, np.float64) for p in game.plies if len(p.values) >= 1]
    if not turns:
        return None
    return float(np.mean([per_turn(values) for values in turns]))


def clarity_narrowness(game: GameTrace) -> float | None:
    """**ClarityNarrowness** (one game): mean over turns of the fraction of moves valued above
    ``mean + 0.75 (max − mean)`` of the values the mover's search gave its moves.

    Ludii values every legal move with a UCT search; we use the values the agent's own search gave
    (the moves it tried; turns where it searched nothing are left out). Ludii divides two ints (0 or 1
    per turn); this is the fraction it describes.
    """

    def narrowness(values: np.ndarray) -> float:
        threshold = values.mean() + 0.75 * (values.max() - values.mean())
        return float(np.count_nonzero(values > threshold) / len(values))

    return _clarity(game, narrowness)


def clarity_variance(game: GameTrace) -> float | None:
    """**ClarityVariance** (one game): mean over turns of the population variance of the move values."""
    return _clarity(game, lambda values: float(values.var()))


# -- repetition and contact -------------------------------------------------------------------------


def positional_repetition(game: GameTrace) -> float:
    """**PositionalRepetition** (one game): ``1 − unique positions / positions``, the start included.

    Positions are compared by who stands where and who moves next. Ludii's Java divides two ints
    here (so each game gives 0 or 1); this is the fraction it describes.
    """
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
    over games (both bootstrapped over games)."""

    name: str
    kind: str  # "rate", "mean" or "statistic"
    per_game: Callable[[GameTrace], float | None] | None = None
    over_games: Callable[[Games], float] | None = None
    help: str = ""


def _rate(name: str, test: Callable[[GameTrace], bool], help: str) -> Metric:
    return Metric(name, "rate", per_game=lambda g: float(test(g)), help=help)


METRICS: tuple[Metric, ...] = (
    _rate("AdvantageP1", lambda g: g.winner == 0, "games won by the first player (seat 0)"),
    Metric("Balance", "statistic", over_games=balance, help="1 − the largest gap between two seats' win rates"),
    _rate("Completion", lambda g: g.winner is not None, "games with a single winner"),
    _rate("Drawishness", lambda g: g.winner is None and not g.timeout, "games drawn within the length limits"),
    _rate("Timeouts", lambda g: g.winner is None and g.timeout, "games stopped by a length limit"),
    Metric("OutcomeUniformity", "statistic", over_games=outcome_uniformity,
           help="1 − mean per-seat variance of rank utilities"),
    Metric("DurationTurns", "mean", per_game=duration_turns, help="whole turns per game"),
    Metric("DurationTurnsStdDev", "statistic", over_games=duration_turns_std, help="std dev of turns per game"),
    Metric("DurationMoves", "mean", per_game=duration_moves, help="decisions per game"),
    Metric("BoardCoverageDefault", "mean", per_game=board_coverage, help="cells ever occupied / cells"),
    Metric("BoardCoverageFull", "mean", per_game=board_coverage, help="the same here: one kind of site"),
    Metric("BoardCoverageUsed", "mean", per_game=board_coverage, help="the same here: one kind of site"),
    Metric("DecisionMoves", "mean", per_game=decision_moves, help="turns with more than one legal move"),
    Metric("BranchingFactor", "mean", per_game=branching_factor, help="legal moves per turn"),
    Metric("GameTreeComplexity", "mean", per_game=game_tree_complexity, help="turns · log10(branching factor)"),
    Metric("LeadChange", "mean", per_game=lead_change, help="changes of the estimated leader per turn"),
    Metric("Stability", "mean", per_game=stability, help="variance of estimates (lower: steadier)"),
    Metric("Drama", "mean", per_game=drama, help="how far behind the eventual winner was estimated"),
    Metric("DecisivenessThreshold", "mean", per_game=decisiveness_threshold,
           help="best estimate a non-winner ever had"),
    Metric("DecisivenessMoves", "mean", per_game=decisiveness_moves,
           help="fraction of the game before the winner passed that threshold"),
    Metric("ClarityNarrowness", "mean", per_game=clarity_narrowness, help="share of moves near the best"),
    Metric("ClarityVariance", "mean", per_game=clarity_variance, help="variance of the move values"),
    Metric("PositionalRepetition", "mean", per_game=positional_repetition, help="repeated positions / positions"),
    Metric("FirstCapture", "mean", per_game=first_capture, help="turn of the first capture (games with one)"),
    Metric("FirstContact", "mean", per_game=first_contact, help="first turn a capture was possible"),
    _rate("CaptureGames", lambda g: g.first_capture is not None, "games with a capture"),
)
NAMES = tuple(metric.name for metric in METRICS)


def metric(name: str) -> Metric:
    """The metric called ``name`` (case-insensitive); :class:`KeyError` names the accepted ones."""
    for candidate in METRICS:
        if candidate.name.lower() == name.lower():
            return candidate
    raise KeyError(f"unknown metric {name!r}; accepted: {', '.join(NAMES)}")


def measure(games: Games, seed: int = 0) -> dict[str, stats.Estimate]:
    """Every metric over ``games`` (self-play games of one variant), each with its 95% interval."""
    out: dict[str, stats.Estimate] = {}
    for item in METRICS:
        if not games:
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
    """Per seat: wins, draws (no single winner) and mean score (1 win, ½ draw), with intervals."""
    if not games:
        return []
    out = []
    for seat in range(games[0].seats):
        out.append({
            "wins": stats.rate(sum(g.winner == seat for g in games), len(games)),
            "score": stats.mean([g.result[seat] for g in games], seed=seat),
        })
    return out


def skill_gap(games: Games) -> stats.Estimate:
    """Beyond Ludii: the stronger agent's score (1 win, ½ draw) in the skill games, with Wilson's interval.

    A mini-match per variant, the stronger agent against the weaker with seats alternating. Near 1: skill
    pays (a sign of depth); near ½: the weaker agent does as well (a shallow game, or a drawish one).
    """
    scored = [g for g in games if g.kind == "skill" and g.strong_seat >= 0]
    if not scored:
        return stats.Estimate(None, None, None, 0, "")
    points = 0.0
    for g in scored:
        others = max(score for seat, score in enumerate(g.result) if seat != g.strong_seat)
        mine = g.result[g.strong_seat]
        points += 1.0 if mine > others else 0.5 if mine == others else 0.0
    return stats.rate(points, len(scored))
