"""Computer seats and hints, searched in a pool of worker processes so that no search stalls the server.

A job carries the game, its options and the moves (the record): the worker rebuilds the state,
takes the view of the seat it plays, and hands only that view to the agent.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from boardlab.core.registry import load

# The default opponent's search (level 3): level 2's is a beginner's (GTBM: one ply deep, blind to a recapture).
HINT_AGENT = "level3"
HINTS = 3


@dataclass(frozen=True)
class Job:
    game: str
    options: dict[str, Any]
    start: str | None
    moves: list[str]
    seat: int
    agent: str
    seed: int


def _view(job: Job) -> Any:
    game = load(job.game, **job.options)
    state = game.from_text(job.start) if job.start else game.new_game()
    for text in job.moves:
        state = state.play(text)
    return state.view(job.seat)


def choose(job: Job) -> str:
    """The move the agent plays (runs in a worker process)."""
    from boardlab.ai.levels import make_agent  # in the worker: the server's own process never compiles it

    return make_agent(job.agent, seed=job.seed).choose(_view(job)).text


def analyse(job: Job) -> dict[str, Any]:
    """The agent's best moves for the seat, with its expected line (runs in a worker process)."""
    from boardlab.ai.levels import make_agent

    analysis = make_agent(job.agent, seed=job.seed).analyse(_view(job))
    return {
        "candidates": [{"move": c.move.text, "visits": c.visits, "value": c.value, "depth": c.depth}
                       for c in analysis.candidates[:HINTS]],
        "line": [m.text for m in analysis.principal_variation],
    }


class AIPool:
    """Worker processes for searches (started fresh, not forked, as the server runs threads)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            return self._executor

    def submit(self, function: Any, job: Job) -> Future[Any]:
        try:
            return self._pool().submit(function, job)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start a fresh pool
            with self._lock:
                self._executor = None
            return self._pool().submit(function, job)

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
