"""Computer seats and hints, searched in a pool of worker processes so that no search stalls the server.

A job carries the game, its options and the moves (the record): the worker rebuilds the state,
takes the view of the seat it plays, and hands only that view to the agent.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import connection
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


PARENT_CHECK_SECONDS = 0.5  # how often a worker looks whether its server is still there
STOP_WAIT_SECONDS = 2.0  # how long a stopping server waits for a worker to end after SIGTERM, before SIGKILL


def _watch_parent(parent: int) -> None:
    """End this worker process once the server that started it (``parent``) is gone.

    A server killed outright (SIGKILL, the out-of-memory killer, uvicorn's supervisor ending a hung worker)
    cannot stop its workers, and a worker waits for jobs forever: it holds both ends of its job queue's
    pipe itself (a spawned child gets the queue whole), so it never reads an end of file. It would live
    on, searching, then idle, holding multiprocessing's resource tracker alive too (whose pipe it also
    holds). When its parent dies the worker is handed to another (init, or a subreaper), so ``getppid()``
    changes. Not ``prctl(PR_SET_PDEATHSIG)``: it fires when the *thread* that started the child ends,
    and the executor starts workers from whichever thread submits (the request pool's threads, which end
    when idle, the warm-up's), which would kill the workers of a server still running. A search returns
    to Python between batches of its kernel, so this thread gets its turn within one batch.
    """
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def _start_worker(parent: int) -> None:
    """The initializer of each worker process."""
    # Ctrl-C in a terminal sends SIGINT to the whole process group, the workers too: the server decides when
    # they end (see AIPool.shutdown), rather than each raising KeyboardInterrupt in its search or its wait.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), name="boardlab-parent-watch", daemon=True).start()


class AIPool:
    """Worker processes for searches (started fresh, not forked, as the server runs threads)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self.stopped = False  # shutdown() has ended the workers (their searches' futures fail)

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=_start_worker, initargs=(os.getpid(),))
            return self._executor

    def submit(self, function: Any, job: Job) -> Future[Any]:
        try:
            return self._pool().submit(function, job)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start a fresh pool
            with self._lock:
                self._executor = None
            return self._pool().submit(function, job)

    def shutdown(self) -> None:
        """Cancel the searches not begun, and end the worker processes now, searching or not.

        ``shutdown(wait=False)`` alone leaves the workers to the executor's own thread, which sends each an
        end-of-work message later, and waits for a search under way to finish first. A server stopped by
        SIGINT or SIGTERM does not give it that time: uvicorn raises the signal again once the app has
        shut down, and SIGTERM's default action ends the process before the messages are sent (no atexit
        hook runs), leaving the workers waiting for work forever; after SIGINT, the interpreter's exit
        waits for the executor's thread, that is for the search under way (up to its whole budget).
        """
        with self._lock:
            executor, self._executor = self._executor, None
            self.stopped = True
        if executor is None:
            return
        # The executor's own table of its processes (private; Python 3.14 has terminate_workers() for
        # this). The dict itself, not a copy: shutdown() drops the attribute, and a submit() under way may
        # still add a process to it until shutdown() has taken the executor's lock.
        processes = executor._processes if executor._processes is not None else {}
        executor.shutdown(wait=False, cancel_futures=True)
        stopping = list(processes.values())
        for process in stopping:
            process.terminate()  # a worker leaves SIGTERM's default action alone: it ends at once
        deadline = time.monotonic() + STOP_WAIT_SECONDS
        for process in stopping:
            # A worker's sentinel is readable once it has ended, whoever reaps it: the executor's thread,
            # finding its pool broken, joins the same processes meanwhile.
            if not connection.wait([process.sentinel], max(0.0, deadline - time.monotonic())):
                process.kill()
            process.join(STOP_WAIT_SECONDS)
