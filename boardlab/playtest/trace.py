"""Play one game and keep what the measures need: per game, per turn (a whole turn, a ``Move``) and per
decision (one kernel action, Ludii's *move*).

A :class:`GameJob` is plain data (game id, options, agent specs per seat, seed, the fixed evaluator),
so it travels to a process pool or a Ray worker as it is; :func:`play_traced` plays it and returns a
:class:`GameTrace`.

>>> job = GameJob("demo", "v0", "ndengrod", {"size": 2, "length": 3}, ("random", "random"), seed=3)
>>> trace = play_traced(job)
>>> trace.turns == len(trace.plies) and trace.turns > 0
True
>>> trace.plies[0].legal, trace.plies[0].decisions  # every cell of the side-2 hexhex is free at the start
(7, [7])
>>> len(trace.plies[0].evaluation), trace.final_evaluation == trace.result
(2, True)

The game is played first, by the agents alone; then every position of it is measured, so that
nothing the measuring does (the evaluator's random playouts) can change a move. Per turn: the seat
that moved, its whole-turn legal moves and, per decision of the turn, the legal actions (Ludii's
branching factor counts decisions); the move; the agent's own estimate (kept for comparison, never
used by a metric); every seat's chances before the turn by the run's fixed evaluator
(:mod:`boardlab.playtest.evaluator`) and a summary of its values of every legal move (for Clarity);
the pieces captured, each seat's pieces after the move, the pieces on the board after each decision,
how far each piece moved, the cells the move touched (for the heat map) and a key of the position
after it (for repetition).

First capture is the first turn in which a piece was captured. First contact is the first turn at
which the mover had a capturing move available (whether or not it took one): the turn the armies met.

How a game ended (:attr:`GameTrace.ending`): ``win`` (one seat ahead), ``rule draw`` (a draw the
game's own rules make), ``added-rule draw`` (a draw at a cap or repetition rule that boardlab added to
the seed's rules; ``GameInfo.added_endings``), ``timeout`` (stopped by the playtest's ``--max-turns``:
Ludii's engine limit), or ``shared`` (several seats, not all, share first place).
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardlab import records
from boardlab.ai.levels import make_agent
from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.core.registry import load
from boardlab.core.state import State
from boardlab.playtest.evaluator import Evaluator, make_evaluator
from boardlab.render.click import move_cells

TURN_CAP_REASON = "playtest turn cap"
ENDINGS = ("win", "shared", "rule draw", "added-rule draw", "timeout")


@dataclass(frozen=True)
class GameJob:
    """One game to play: everything a worker needs, as plain picklable data."""

    key: str  # unique in a run: which variant, which strength, which series, which game
    variant: str  # the variant's label ("size=4,length=4")
    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]  # one agent spec per seat
    seed: int
    kind: str = "self"  # "self": self-play; "skill": one rung of the ladder against the rung below
    strong_seat: int = -1  # in a skill game, the seat of the stronger agent
    seconds: float | None = None  # a time budget per move instead of the agents' own
    max_turns: int = 2000
    evaluator: str = "auto"  # the fixed evaluator's spec (:mod:`boardlab.playtest.evaluator`)
    strength: str = ""  # the rung's label: the self-play agents, or "strong>weak" for a skill game
    rung: int = 0  # the rung's place on the ladder (0: the first --depth entry)


@dataclass
class PlyTrace:
    """One whole turn of a traced game."""

    turn: int
    seat: int
    legal: int  # whole-turn legal moves
    decisions: list[int]  # legal actions at each decision of the turn (Ludii's moves)
    move: str
    agent_estimate: float | None  # the mover's own estimate (its best move's value); not used by metrics
    evaluation: list[float]  # every seat's chances before the turn, by the fixed evaluator
    clarity: list[float]  # over every legal move's value: [moves, narrowness, variance] ([] if none)
    captures: int
    pieces: list[int]  # each seat's pieces on the board after the move
    board_pieces: list[int]  # pieces on the board after each decision of the turn
    distances: list[int]  # how far each piece moved (steps across cell edges), one per step of the move
    score_gaps: list[float]  # the widest gap between two seats' running scores after each decision ([]: none)
    cells: list[str]  # the cells the move was made on: the click layer's move cells (render.click.move_cells)
    position: str
    seconds: float


@dataclass
class GameTrace:
    """One finished game: its outcome, its length, its record and every turn."""

    key: str
    variant: str
    game: str
    options: dict[str, Any]
    kind: str
    agents: list[str]
    strong_seat: int
    seed: int
    seats: int
    result: list[float]
    end_reason: str
    ending: str  # one of ENDINGS
    turns: int
    moves: int  # decisions (actions): more than turns where a turn takes several steps
    cells: int  # board cells (0 where the game does not report occupancy)
    covered: int  # cells a piece stood on at some point
    start_pieces: int  # pieces on the board at the start
    start_score_gap: float | None  # the widest gap between two seats' running scores at the start (None: no scores)
    start_position: str
    first_capture: int | None
    first_contact: int | None
    evaluator: str
    strength: str
    rung: int
    final_evaluation: list[float]  # every seat's chances in the final position (its result once over)
    seconds: float  # wall time, playing and measuring
    cpu_seconds: float  # CPU time of the process that played it (what the game cost, whatever the load)
    record: str = field(repr=False)
    plies: list[PlyTrace] = field(default_factory=list, repr=False)

    @property
    def winner(self) -> int | None:
        """The one seat with the best result, or ``None`` (a draw, a shared win, a timeout)."""
        best = max(self.result)
        top = [seat for seat, score in enumerate(self.result) if score == best]
        return top[0] if len(top) == 1 and best > min(self.result) else None

    @property
    def top_seats(self) -> list[int]:
        """The seats ranked first at the end (every seat in a draw): Ludii's ``highestRankedPlayers``."""
        best = max(self.result)
        return [seat for seat, score in enumerate(self.result) if score == best]

    @property
    def timeout(self) -> bool:
        """Stopped by the playtest's turn cap, not by the rules."""
        return self.ending == "timeout"


def position_key(game: Game, state: State) -> str:
    """Who stands where and who moves next, hashed: equal positions give equal keys."""
    owners = game.occupancy(state.data)
    raw = state.data if owners is None else np.asarray(owners, np.int64)
    digest = hashlib.blake2b(raw.tobytes(), digest_size=8)
    digest.update(str(state.to_move).encode())
    return digest.hexdigest()


def classify_ending(game: Game, result: list[float], code: int | None) -> str:
    """``win``, ``shared``, ``rule draw``, ``added-rule draw`` or ``timeout`` (``code`` ``None``: the turn cap)."""
    if code is None:
        return "timeout"
    best = max(result)
    top = sum(score == best for score in result)
    if top == 1 and best > min(result):
        return "win"
    if top < len(result):
        return "shared"
    return "added-rule draw" if code in game.info.added_endings else "rule draw"


def _counts(owners: np.ndarray | None, seats: int) -> list[int]:
    if owners is None:
        return [0] * seats
    return [int(np.count_nonzero(owners == seat)) for seat in range(seats)]


def _captured(before: list[int], after: list[int], mover: int, owners_before: np.ndarray | None,
              owners_after: np.ndarray | None) -> int:
    """Pieces of other seats that left the board. A move after which every cell is occupied or empty as
    it was (a pie swap, a pass) captured nothing, though a swap changes whose pieces they are."""
    if owners_before is not None and owners_after is not None \
            and np.array_equal(owners_before >= 0, owners_after >= 0):
        return 0
    return sum(max(0, b - a) for seat, (b, a) in enumerate(zip(before, after, strict=True)) if seat != mover)


def _capture_available(game: Game, state: State, before: list[int], owners_before: np.ndarray | None) -> bool:
    """Whether any legal move of the mover captures (a piece of another seat leaves the board); ``before``
    and ``owners_before`` are the state's piece counts and occupancy."""
    mover = state.to_move
    assert mover is not None
    for move in state.legal_moves():
        data = state.data.copy()
        for action in move.path:
            game.apply_kernel(data, game.spec, action)
        owners = game.occupancy(data)
        if _captured(before, _counts(owners, game.num_seats), mover, owners_before, owners):
            return True
    return False


class _Board:
    """Distances across cell edges, by breadth-first search from each cell asked about (cached)."""

    def __init__(self, game: Game) -> None:
        self.adjacency = game.cell_adjacency()
        self.index = {name: i for i, name in enumerate(game.cell_names())}
        self._from: dict[int, list[int]] = {}

    def distance(self, a: str, b: str) -> int | None:
        if self.adjacency is None or a not in self.index or b not in self.index:
            return None
        start, goal = self.index[a], self.index[b]
        if start not in self._from:
            far = [-1] * len(self.adjacency)
            far[start] = 0
            queue = deque([start])
            while queue:
                cell = queue.popleft()
                for n in self.adjacency[cell]:
                    if far[n] < 0:
                        far[n] = far[cell] + 1
                        queue.append(n)
            self._from[start] = far
        found = self._from[start][goal]
        return found if found >= 0 else None


def clarity_summary(values: list[float], noise: float = 0.0) -> list[float]:
    """``[moves, narrowness, variance]`` of one position's move values (Ludii's ClarityNarrowness and
    ClarityVariance per position), ``[]`` where there are none.

    Narrowness: the fraction of moves valued above ``mean + 0.75 (max − mean)`` (as a fraction: Ludii's
    Java divides two ints here, which gives 0 unless every move is above); variance: the population
    variance, less ``noise`` (the mean sampling variance of a value, for a Monte Carlo evaluator: values
    estimated from a few playouts each vary by that much even where the moves are worth the same), not
    below 0.

    >>> [round(x, 4) for x in clarity_summary([0.6, 0.4, 0.2])]  # threshold .4 + .75 × .2 = .55: one of three
    [3.0, 0.3333, 0.0267]
    >>> round(clarity_summary([0.6, 0.4, 0.2], noise=0.01)[2], 4), clarity_summary([0.6, 0.4, 0.2], noise=0.05)[2]
    (0.0167, 0.0)
    """
    if not values:
        return []
    array = np.asarray(values, np.float64)
    mean, top = float(array.mean()), float(array.max())
    threshold = mean + 0.75 * (top - mean)
    variance = max(0.0, float(array.var()) - noise)
    return [float(len(array)), float(np.count_nonzero(array > threshold)) / len(array), variance]


def score_gap(game: Game, data: np.ndarray) -> float | None:
    """The widest gap between two seats' running scores (Ludii's ScoreDifference), ``None`` without scores."""
    scores = game.scores(data)
    if scores is None:
        return None
    return float(max(scores) - min(scores))


def _measure_turn(game: Game, evaluator: Evaluator, board: _Board, state: State, path: tuple[int, ...],
                  cells: list[str]) -> tuple[list[int], list[float], list[float], list[int], list[int], list[float]]:
    """Per decision: legal actions, pieces and score gap after it; the fixed evaluator's view; move distances."""
    data = np.array(state.data, np.int64)
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    decisions: list[int] = []
    board_pieces: list[int] = []
    gaps: list[float] = []
    for action in path:
        decisions.append(int(game.legal_kernel(data, game.spec, out)))
        game.apply_kernel(data, game.spec, action)
        owners = game.occupancy(data)
        board_pieces.append(-1 if owners is None else int(np.count_nonzero(owners >= 0)))
        gap = score_gap(game, data)
        if gap is not None:
            gaps.append(gap)
    evaluation = evaluator.state_values(game, state.data)
    values = evaluator.move_values(game, state.data, [move.path for move in state.legal_moves()])
    noise = float(np.mean([evaluator.move_noise(v) for v in values])) if values else 0.0
    steps = [c for c in cells if c in board.index]
    distances = [d for a, b in itertools.pairwise(steps) if a != b
                 for d in [board.distance(a, b)] if d is not None]
    return decisions, evaluation, clarity_summary(values, noise), board_pieces, distances, gaps


def play_traced(job: GameJob) -> GameTrace:
    """Play ``job`` to the end (or ``max_turns``), then measure every position of it."""
    began, cpu = time.perf_counter(), time.process_time()
    game = load(job.game, **job.options)
    seats = game.num_seats
    agents = [make_agent(job.agents[seat], seed=job.seed * 97 + seat, seconds=job.seconds) for seat in range(seats)]
    state = game.new_game()
    owners = game.occupancy(state.data)
    cells = 0 if owners is None else len(owners)
    covered = set() if owners is None else set(np.flatnonzero(owners >= 0).tolist())
    start_pieces = 0 if owners is None else int(np.count_nonzero(owners >= 0))
    pieces = _counts(owners, seats)
    first_capture: int | None = None
    first_contact: int | None = None
    played: list[tuple[State, Any, int, float | None, float, int, list[int], list[str], str]] = []
    capturing = owners is not None
    while not state.is_over and len(played) < job.max_turns:
        seat = state.to_move
        assert seat is not None
        turn = len(played)
        legal = len(state.legal_moves())
        if capturing and first_contact is None and _capture_available(game, state, pieces, owners):
            first_contact = turn
        agent = agents[seat]
        move_began = time.perf_counter()
        move = agent.choose(state.view(seat))
        spent = time.perf_counter() - move_began
        before = state
        owners_before = owners
        state = state.play(move)
        owners = game.occupancy(state.data)
        after = _counts(owners, seats)
        captures = _captured(pieces, after, seat, owners_before, owners)
        if captures and first_capture is None:
            first_capture = turn
        pieces = after
        if owners is not None:
            covered.update(np.flatnonzero(owners >= 0).tolist())
        played.append((before, move, legal, agent.last_estimate, spent, captures, list(after),
                       list(move_cells(before.view(seat), move)), position_key(game, state)))
    if state.is_over:
        result = [float(r) for r in state.result or ()]
        reason = state.end_reason or ""
        ending = classify_ending(game, result, int(state.data[kernel.END_REASON]))
    else:
        result = [0.5] * seats
        reason = TURN_CAP_REASON
        ending = "timeout"
    # Measuring comes after playing: the evaluator reseeds numba's random numbers, which the agents use.
    evaluator = make_evaluator(job.evaluator, game)
    board = _Board(game)
    plies = []
    for turn, (before, move, legal, estimate, spent, captures, after, touched, key) in enumerate(played):
        decisions, evaluation, clarity, board_pieces, distances, gaps = _measure_turn(
            game, evaluator, board, before, move.path, touched)
        plies.append(PlyTrace(turn, int(before.to_move or 0), legal, decisions, move.text, estimate, evaluation,
                              clarity, captures, after, board_pieces, distances, gaps, touched, key, spent))
    final_evaluation = evaluator.state_values(game, state.data)  # a timeout's position keeps its own value
    record = records.GameRecord.from_state(state, players=list(job.agents[:seats]), seed=job.seed,
                                           tags={"playtest": job.key})
    return GameTrace(
        key=job.key, variant=job.variant, game=game.id, options=dict(game.options), kind=job.kind,
        agents=list(job.agents[:seats]), strong_seat=job.strong_seat, seed=job.seed, seats=seats,
        result=result, end_reason=reason, ending=ending, turns=len(plies),
        moves=int(state.data[kernel.PLY]), cells=cells, covered=len(covered), start_pieces=start_pieces,
        start_score_gap=score_gap(game, game.new_game().data),
        start_position=position_key(game, game.new_game()), first_capture=first_capture,
        first_contact=first_contact, evaluator=evaluator.spec, strength=job.strength, rung=job.rung,
        final_evaluation=final_evaluation, seconds=time.perf_counter() - began,
        cpu_seconds=time.process_time() - cpu,
        record=records.dumps(record), plies=plies,
    )
