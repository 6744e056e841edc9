"""Where a run's games are played: in this process, with a process pool beside it, or as Ray tasks.

One :class:`Players` serves a whole run: its helpers (a pool's processes, or a Ray) start once, at the
first batch with more than one game, and stay for every later batch of a sequential run.

This process plays too, except on a Ray cluster: it has the lab loaded already, so it plays from the
first second while its helpers start (a pool's fork server imports numpy, numba and the lab once, some
1 s of CPU on the project's machine, and each process then loads the kernels its games use, some 0.2 s;
a Ray started here, without the processes a one-machine run does not use, some 3 s of CPU more:
:func:`boardlab.playtest.ray_tasks.start_here`), and a run of ``workers`` uses
``workers`` processes, not ``workers`` and an idle one. A thread of this process hands the helpers
their games (two queued a helper) the moment one of theirs finishes; between its own games this
process stores what they finished. On a cluster (``--ray HOST:PORT``) every game is a Ray task and this
process only collects them.

A stop loses the games being played and those finished while this process played its last one; every
stored game is whole. A game's moves depend on its job alone, so every way plays the same games.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_all_start_methods, get_context
from multiprocessing.context import BaseContext
from types import TracebackType
from typing import Any, Protocol

from boardlab.errors import BoardlabError
from boardlab.playtest.trace import GameJob, GameTrace, play_traced
from boardlab.workers import abandon as abandon_pool
from boardlab.workers import die_with_parent


class Helpers(Protocol):
    """Somewhere other than this process that plays games: a process pool or Ray."""

    capacity: int  # games it runs at once

    def submit(self, job: GameJob) -> Future[GameTrace]: ...

    def cancel(self, future: Future[GameTrace]) -> None: ...

    def close(self, abandon: bool = False) -> None: ...


def _pool_context() -> BaseContext:
    """Worker processes forked from one server that has imported the lab already (where the system has
    fork), so that the import of numpy, numba and the kernels (1.5 s of CPU on the project's machine)
    is paid once, not once per worker; else fresh interpreters. Never a fork of this process, whose
    threads (a progress bar, a Ray starting) a fork would copy in whatever state they are."""
    if "forkserver" in get_all_start_methods():
        context = get_context("forkserver")
        context.set_forkserver_preload(["boardlab.playtest.trace"])
        return context
    return get_context("spawn")


class PoolHelpers:
    """``processes`` worker processes of this machine."""

    def __init__(self, processes: int) -> None:
        self.capacity = processes
        self._pool = ProcessPoolExecutor(max_workers=processes, mp_context=_pool_context(),
                                         initializer=die_with_parent)
        # Start the processes now, in the thread that starts the helpers: a pool starts them at its first
        # games, and the first start waits for the fork server's imports (1.2 s in which the thread that
        # plays here, had it handed out those games, played nothing).
        for started in [self._pool.submit(os.getpid) for _ in range(processes)]:
            started.result()

    def submit(self, job: GameJob) -> Future[GameTrace]:
        return self._pool.submit(play_traced, job)

    def cancel(self, future: Future[GameTrace]) -> None:
        future.cancel()

    def close(self, abandon: bool = False) -> None:
        """Stop the processes: after their games (``abandon``: at once, their games lost)."""
        if abandon:
            abandon_pool(self._pool)
        else:
            self._pool.shutdown(wait=True, cancel_futures=True)


class RayHelpers:
    """Ray tasks on a cluster, or on a Ray started here with ``cpus`` CPUs (``address`` ``"local"``); a
    Ray already started by the caller is used as it is and left running."""

    def __init__(self, address: str, cpus: int | None) -> None:
        from boardlab.playtest.ray_tasks import connect

        self._stop_ray = connect(address, cpus)
        import ray

        self._ray: Any = ray
        self._remote: Any = ray.remote(num_cpus=1, max_retries=0)(play_traced)
        self._refs: dict[Future[GameTrace], Any] = {}
        self.capacity = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def submit(self, job: GameJob) -> Future[GameTrace]:
        ref = self._remote.remote(job)
        future: Future[GameTrace] = ref.future()
        self._refs[future] = ref
        future.add_done_callback(lambda done: self._refs.pop(done, None))
        return future

    def cancel(self, future: Future[GameTrace]) -> None:
        ref = self._refs.pop(future, None)
        if ref is not None:
            self._ray.cancel(ref, force=True)

    def close(self, abandon: bool = False) -> None:
        for ref in list(self._refs.values()):
            self._ray.cancel(ref, force=True)
        self._refs.clear()
        if self._stop_ray is not None:
            self._stop_ray()


class Players:
    """Plays a run's games: ``workers`` processes of this machine (default one per core; 1 plays them all
    here), or Ray (``ray_address``: ``"local"`` starts one here with ``workers − 1`` CPUs beside this
    process, ``HOST:PORT`` a cluster's)."""

    def __init__(self, workers: int | None = None, ray_address: str | None = None) -> None:
        if workers is not None and workers < 1:
            raise BoardlabError(f"--workers {workers}: accepted: a positive number")
        if ray_address and importlib.util.find_spec("ray") is None:
            raise BoardlabError("--ray needs Ray: pip install 'boardlab[playtest]'")
        self.workers = workers or os.cpu_count() or 1
        self.ray_address = ray_address
        self.on_cluster = bool(ray_address) and ray_address != "local"
        self._helpers: Helpers | None = None
        self._keeper: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._abandon = False
        self._start_error: BaseException | None = None

    def __enter__(self) -> Players:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close(abandon=error is not None)

    def close(self, abandon: bool = False) -> None:
        """Stop the helpers; ``abandon`` (a run stopped by an error, Ctrl-C or SIGTERM) does not wait for
        the games they are playing."""
        if self._keeper is not None:
            self._abandon = abandon
            self._stop.set()
            self._keeper.join()
            self._keeper = None
        self._helpers = None

    def _keep_helpers(self) -> None:
        """Start the helpers, then keep them until :meth:`close`. Ray ties the processes it starts to the
        thread that started them (they get ``PR_SET_PDEATHSIG``), so this thread lives as long as they do."""
        try:
            if self.ray_address:
                cpus = None if self.on_cluster else max(1, self.workers - 1)
                self._helpers = RayHelpers(self.ray_address, cpus)
            else:
                self._helpers = PoolHelpers(self.workers - 1)
        except BaseException as error:  # re-raised in the thread that plays, at every batch
            self._start_error = error
            return
        finally:
            self._ready.set()
        self._stop.wait()
        self._helpers.close(abandon=self._abandon)

    def _start_helpers(self) -> None:
        """Start the helpers in the background, once."""
        if self._keeper is None:
            self._keeper = threading.Thread(target=self._keep_helpers, name="playtest-helpers", daemon=True)
            self._keeper.start()

    def _wait_helpers(self) -> Helpers:
        """The helpers, once they have started (or the error that stopped them)."""
        self._ready.wait()
        if self._start_error is not None:
            raise self._start_error
        assert self._helpers is not None
        return self._helpers

    def play(self, jobs: list[GameJob]) -> Iterator[GameTrace]:
        """Every job's trace, in the order they finish."""
        here_only = not self.ray_address and (self.workers == 1 or len(jobs) <= 1)
        if here_only:
            for job in jobs:
                yield play_traced(job)
            return
        plays_here = not self.on_cluster and (self.workers > 1 or self.ray_address is None)
        self._start_helpers()
        share = _Share(jobs)
        threading.Thread(target=self._feed, args=(share,), name="playtest-feeder", daemon=True).start()
        try:
            for _ in jobs:
                finished = share.next_finished(block=False)
                if finished is None and plays_here:
                    mine = share.take()
                    if mine is not None:
                        yield self._play_here(mine)
                        continue
                if finished is None:
                    finished = share.next_finished(block=True)
                assert finished is not None
                yield finished.result()
        finally:
            share.close()

    def _play_here(self, job: GameJob) -> GameTrace:
        return play_traced(job)

    def _feed(self, share: _Share) -> None:
        """The feeder thread: hands the helpers their games as theirs finish, whatever this thread plays."""
        try:
            helpers = self._wait_helpers()
            share.feed(helpers, limit=1 << 62 if self.on_cluster else 2 * helpers.capacity)
        except BaseException as error:  # re-raised in the thread that plays
            share.fail(error)


class _Share:
    """One batch's jobs, shared by the thread that plays here (one job at a time, :meth:`take`) and the
    helpers, fed by their own thread of this process (:meth:`feed`) the moment one of their games
    finishes, so a helper never waits for this process to finish a game of its own (with 2 games a
    helper queued, it ran dry when both were shorter than this process's game: 15% of its time at
    level 1). Finished helper games wait in a queue for the thread that plays, which stores them."""

    def __init__(self, jobs: list[GameJob]) -> None:
        self._jobs = deque(jobs)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._finished: queue.SimpleQueue[Future[GameTrace] | BaseException] = queue.SimpleQueue()
        self._running: set[Future[GameTrace]] = set()
        self._helpers: Helpers | None = None
        self._closed = False

    def take(self) -> GameJob | None:
        """The next job for this process, or ``None`` when every job is handed out."""
        with self._lock:
            return self._jobs.popleft() if self._jobs else None

    def next_finished(self, block: bool) -> Future[GameTrace] | None:
        """A game the helpers finished (waiting for one if ``block``), else ``None``."""
        try:
            item = self._finished.get(block=block)
        except queue.Empty:
            return None
        if isinstance(item, BaseException):
            raise item
        return item

    def feed(self, helpers: Helpers, limit: int) -> None:
        """Keep ``limit`` games with ``helpers`` until no job is left or the batch is closed."""
        while True:
            self._wake.clear()
            handed: list[Future[GameTrace]] = []
            with self._lock:
                if self._closed:
                    return
                self._helpers = helpers
                while len(self._running) < limit and self._jobs:
                    future = helpers.submit(self._jobs.popleft())
                    self._running.add(future)
                    handed.append(future)
                left = bool(self._jobs)
            for future in handed:
                future.add_done_callback(self._done)
            if not left:
                return
            self._wake.wait()

    def _done(self, future: Future[GameTrace]) -> None:
        with self._lock:
            self._running.discard(future)
        self._finished.put(future)
        self._wake.set()

    def fail(self, error: BaseException) -> None:
        self._finished.put(error)

    def close(self) -> None:
        """Hand out nothing more and cancel the helpers' unfinished games."""
        with self._lock:
            self._closed = True
            running, self._running = self._running, set()
            helpers = self._helpers
        self._wake.set()
        if helpers is not None:
            for future in running:
                helpers.cancel(future)
