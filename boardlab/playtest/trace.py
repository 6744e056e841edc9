"""Play one game and keep what the measures need: per game and per turn (a whole turn, a ``Move``).

A :class:`GameJob` is plain data (game id, options, agent specs per seat, seed), so it travels to a
process pool or a Ray worker as it is; :func:`play_traced` plays it and returns a :class:`GameTrace`.

>>> job = GameJob("demo", "v0", "ndengrod", {"size": 2, "length": 3}, ("random", "random"), seed=3)
>>> trace = play_traced(job)
>>> trace.turns == len(trace.plies) and trace.turns > 0
True
>>> trace.plies[0].legal  # every cell of the side-2 hexhex is free at the start
7

Per turn: the seat that moved, how many legal moves it had, its own estimate of its chances (the value
of its best move, from a searching agent; ``None`` from a random one or a forced move), the values it
gave the moves it considered (for Ludii's clarity measures), the pieces it captured, each seat's
pieces on the board after the move, the cells the move touched (where the game says, for the heat
map) and a key of the position after it (who stands where, and who moves next) for repetition.

First capture is the first turn in which a piece was captured. First contact is the first turn at
which the mover had a capturing move available (whether or not it took one): the turn the armies met.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardlab import records
from boardlab.ai.levels import make_agent
from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.core.registry import load
from boardlab.core.state import State

# End reasons that mean a length limit stopped the game (Ludii's "timeout"), not the play itself.
LIMIT_WORDS = ("cap", "limit")
TURN_CAP_REASON = "playtest turn cap"


@dataclass(frozen=True)
class GameJob:
    """One game to play: everything a worker needs, as plain picklable data."""

    key: str  # unique in a run: which variant, which series, which game
    variant: str  # the variant's label ("size=4,length=4")
    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]  # one agent spec per seat
    seed: int
    kind: str = "self"  # "self": self-play; "skill": the stronger agent against the weaker
    strong_seat: int = -1  # in a skill game, the seat of the stronger agent
    seconds: float | None = None  # a time budget per move instead of the agents' own
    max_turns: int = 2000


@dataclass
class PlyTrace:
    """One whole turn of a traced game."""

    turn: int
    seat: int
    legal: int
    move: str
    estimate: float | None
    values: list[float]
    captures: int
    pieces: list[int]
    cells: list[str]
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
    timeout: bool
    turns: int
    moves: int  # decisions (actions): more than turns where a turn takes several steps
    cells: int  # board cells (0 where the game does not report occupancy)
    covered: int  # cells a piece stood on at some point
    start_position: str
    first_capture: int | None
    first_contact: int | None
    seconds: float
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


def position_key(game: Game, state: State) -> str:
    """Who stands where and who moves next, hashed: equal positions give equal keys."""
    owners = game.occupancy(state.data)
    raw = state.data if owners is None else np.asarray(owners, np.int64)
    digest = hashlib.blake2b(raw.tobytes(), digest_size=8)
    digest.update(str(state.to_move).encode())
    return digest.hexdigest()


def _counts(owners: np.ndarray | None, seats: int) -> list[int]:
    if owners is None:
        return [0] * seats
    return [int(np.count_nonzero(owners == seat)) for seat in range(seats)]


def _captured(before: list[int], after: list[int], mover: int) -> int:
    return sum(max(0, b - a) for seat, (b, a) in enumerate(zip(before, after, strict=True)) if seat != mover)


def _capture_available(game: Game, state: State, before: list[int]) -> bool:
    """Whether any legal move of the mover captures (a piece of another seat leaves the board)."""
    mover = state.to_move
    assert mover is not None
    for move in state.legal_moves():
        data = state.data.copy()
        for action in move.path:
            game.apply_kernel(data, game.spec, action)
        if _captured(before, _counts(game.occupancy(data), game.num_seats), mover):
            return True
    return False


def _touched(game: Game, data: np.ndarray, path: tuple[int, ...]) -> list[str]:
    """The cells a move touches, where the game says (the render layer's ``click_steps`` hook)."""
    hook = getattr(game, "click_steps", None)
    if hook is None:
        return []
    try:
        return [str(cell) for cell in hook(data, path)]
    except Exception:  # a game without the hook's support for some move: no cells, not a lost game
        return []


def play_traced(job: GameJob) -> GameTrace:
    """Play ``job`` to the end (or ``max_turns``) and trace it."""
    began = time.perf_counter()
    game = load(job.game, **job.options)
    seats = game.num_seats
    agents = [make_agent(job.agents[seat], seed=job.seed * 97 + seat, seconds=job.seconds) for seat in range(seats)]
    state = game.new_game()
    owners = game.occupancy(state.data)
    cells = 0 if owners is None else len(owners)
    covered = set() if owners is None else set(np.flatnonzero(owners >= 0).tolist())
    pieces = _counts(owners, seats)
    first_capture: int | None = None
    first_contact: int | None = None
    plies: list[PlyTrace] = []
    capturing = owners is not None
    while not state.is_over and len(plies) < job.max_turns:
        seat = state.to_move
        assert seat is not None
        turn = len(plies)
        legal = len(state.legal_moves())
        if capturing and first_contact is None and _capture_available(game, state, pieces):
            first_contact = turn
        agent = agents[seat]
        move_began = time.perf_counter()
        move = agent.choose(state.view(seat))
        spent = time.perf_counter() - move_began
        analysis = agent.last_analysis
        values = [] if analysis is None else [c.value for c in analysis.candidates if c.value is not None]
        before = state
        state = state.play(move)
        owners = game.occupancy(state.data)
        after = _counts(owners, seats)
        captures = _captured(pieces, after, seat)
        if captures and first_capture is None:
            first_capture = turn
        pieces = after
        if owners is not None:
            covered.update(np.flatnonzero(owners >= 0).tolist())
        plies.append(PlyTrace(turn, seat, legal, move.text, agent.last_estimate, [float(v) for v in values],
                              captures, list(after), _touched(game, before.data, move.path),
                              position_key(game, state), spent))
    if state.is_over:
        result = list(state.result or ())
        reason = state.end_reason or ""
    else:
        result = [0.5] * seats
        reason = TURN_CAP_REASON
    winners = [s for s, score in enumerate(result) if score == max(result)]
    timeout = len(winners) == seats and any(word in reason for word in LIMIT_WORDS)
    record = records.GameRecord.from_state(state, players=list(job.agents[:seats]), seed=job.seed,
                                           tags={"playtest": job.key})
    return GameTrace(
        key=job.key, variant=job.variant, game=game.id, options=dict(game.options), kind=job.kind,
        agents=list(job.agents[:seats]), strong_seat=job.strong_seat, seed=job.seed, seats=seats,
        result=[float(r) for r in result], end_reason=reason, timeout=timeout, turns=len(plies),
        moves=int(state.data[kernel.PLY]), cells=cells, covered=len(covered),
        start_position=position_key(game, game.new_game()), first_capture=first_capture,
        first_contact=first_contact, seconds=time.perf_counter() - began,
        record=records.dumps(record), plies=plies,
    )
