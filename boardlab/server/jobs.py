"""The computer's searches as jobs in the database, for ``boardlab ai-worker`` processes on any machine.

With ``boardlab serve --ai-queue`` (PostgreSQL) a server does not search the computer's moves itself: it
puts a row in ``search_jobs`` (one per game whose turn is the computer's: the game's version and ply,
the seat, the agent, the seed), and ``boardlab ai-worker --db URL`` processes, started wherever there are
cores, take them (lichess's fishnet is the model). A worker claims the oldest job nobody holds with
``SELECT … FOR UPDATE SKIP LOCKED`` (workers never wait for each other) and a *lease*: the job is its
own until ``lease_until``, which it moves on while it searches. A worker that dies (killed, its machine
gone) stops renewing; once the lease has run out, the next worker to look takes the job again. The move is
then made like anyone's (:meth:`GameService.move` with the game's version: a takeback or a resignation
meanwhile makes the answer stale, and it is dropped), and the job deleted in the same breath.

Where a job stands in the queue (:func:`queue_place`) is what the game page shows: 0 while a worker
searches it, else how many jobs are ahead of it plus one.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text

from boardlab.server.errors import Conflict
from boardlab.server.status import GameStatus

if TYPE_CHECKING:
    from boardlab.server.service import GameService

log = logging.getLogger("boardlab.server")
LEASE = timedelta(seconds=30)  # a job whose worker has not renewed it for this long is taken again
MAX_ATTEMPTS = 3  # a job taken this many times without an answer is dropped (it fails whoever takes it)

JOBS_CHANNEL = "boardlab_jobs"  # NOTIFYed when a job is queued: idle workers LISTEN on it
# Queue (or replace an older version's job) and wake the idle workers, in one statement.
_QUEUE = text(f"""
WITH queued AS (
    INSERT INTO search_jobs (game_id, version, ply, seat, agent, seed, queued_at, lease_until, worker, attempts)
    VALUES (:game_id, :version, :ply, :seat, :agent, :seed, :at, NULL, NULL, 0)
    ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, ply = excluded.ply, seat = excluded.seat,
        agent = excluded.agent, seed = excluded.seed, queued_at = excluded.queued_at, lease_until = NULL,
        worker = NULL, attempts = 0
    WHERE search_jobs.version <> excluded.version
    RETURNING id)
SELECT pg_notify('{JOBS_CHANNEL}', '') FROM queued
""")
_CLAIM = text("""
UPDATE search_jobs SET lease_until = :until, worker = :worker, attempts = attempts + 1
WHERE id = (SELECT id FROM search_jobs WHERE lease_until IS NULL OR lease_until < :at
            ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id, game_id, version, ply, seat, agent, seed, attempts
""")
_RENEW = text("UPDATE search_jobs SET lease_until = :until WHERE id = :id AND worker = :worker AND version = :version")
_DONE = text("DELETE FROM search_jobs WHERE id = :id AND version = :version")
_PLACE = text("""
SELECT j.lease_until >= :at AS searching,
       (SELECT count(*) FROM search_jobs o WHERE (o.lease_until IS NULL OR o.lease_until < :at)
            AND (o.queued_at, o.id) < (j.queued_at, j.id)) AS ahead
FROM search_jobs j WHERE j.game_id = :game_id
""")


@dataclass(frozen=True)
class Claimed:
    id: int
    game_id: int
    version: int
    ply: int
    seat: int
    agent: str
    seed: int
    attempts: int


def queue(connection: Connection, game_id: int, version: int, ply: int, seat: int, agent: str, seed: int,
          at: datetime) -> None:
    """Queue the computer's turn at ``version`` (in the caller's transaction); a job for an older version of
    the game is replaced, one for this version kept as it is (held or not)."""
    connection.execute(_QUEUE, {"game_id": game_id, "version": version, "ply": ply, "seat": seat, "agent": agent,
                                "seed": seed, "at": at})


def claim(connection: Connection, worker: str, at: datetime, lease: timedelta = LEASE) -> Claimed | None:
    """The oldest job no live worker holds, now ``worker``'s until ``at + lease`` (``None``: none waiting)."""
    found = connection.execute(_CLAIM, {"until": at + lease, "worker": worker, "at": at}).first()
    return Claimed(*found) if found is not None else None


def renew(connection: Connection, job: Claimed, worker: str, until: datetime) -> bool:
    """Keep holding ``job``; ``False`` if it is no longer this worker's (its lease ran out and another took it)."""
    return connection.execute(_RENEW, {"until": until, "id": job.id, "worker": worker,
                                       "version": job.version}).rowcount == 1


def done(connection: Connection, job: Claimed) -> None:
    connection.execute(_DONE, {"id": job.id, "version": job.version})


def queue_place(connection: Connection, game_id: int, at: datetime) -> int | None:
    """``None``: no job for the game; 0: a worker is searching it; n: the n-th in the queue."""
    found = connection.execute(_PLACE, {"game_id": game_id, "at": at}).first()
    if found is None:
        return None
    return 0 if found.searching else int(found.ahead) + 1


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Worker:
    """``boardlab ai-worker``: take jobs one at a time, search them here, make the moves."""

    def __init__(self, service: GameService, lease: timedelta = LEASE, idle_seconds: float = 0.2) -> None:
        self.service = service
        self.lease = lease
        self.idle_seconds = idle_seconds
        self.name = worker_name()
        self.stop = threading.Event()

    def run(self, jobs: int | None = None) -> int:
        """Work until stopped (or ``jobs`` are done); how many moves it made."""
        from boardlab.server import warmup

        warmup.prepare_search()
        made = 0
        listener = self._listen()
        try:
            while not self.stop.is_set() and (jobs is None or made < jobs):
                job = self._claim()
                if job is None:
                    self._idle(listener)
                    continue
                made += self._attempt(job)
        finally:
            if listener is not None:
                listener.close()
        return made

    def _listen(self) -> Any:
        """A connection LISTENing for new jobs (``None`` if it cannot be had: then the queue is polled)."""
        import psycopg

        try:
            listener = psycopg.connect(self.service.db.engine.url.set(drivername="postgresql")
                                       .render_as_string(hide_password=False), autocommit=True)
            listener.execute(f"LISTEN {JOBS_CHANNEL}")
            return listener
        except Exception as error:
            log.warning("cannot LISTEN for new jobs (%s): looking for them every %g s", error, self.idle_seconds)
            return None

    def _idle(self, listener: Any) -> None:
        """Until a job is queued (a NOTIFY), or a second has passed (a dead worker's lease may run out)."""
        if listener is None:
            self.stop.wait(self.idle_seconds)
            return
        try:
            for _ in listener.notifies(timeout=1.0, stop_after=1):
                pass
        except Exception:  # the database restarted: poll until the worker is started again
            log.exception("the LISTEN connection was lost")
            self.stop.wait(self.idle_seconds)

    def _attempt(self, job: Claimed) -> int:
        log.info("job %s: game %s ply %s (%s), attempt %s", job.id, job.game_id, job.ply, job.agent, job.attempts)
        try:
            return self._work(job)
        except Exception:  # its lease runs out and it is tried again, up to MAX_ATTEMPTS times
            log.exception("job %s of game %s failed", job.id, job.game_id)
            return 0

    def _claim(self) -> Claimed | None:
        from boardlab.server import clocks

        with self.service.db.write_core() as connection:
            job = claim(connection, self.name, clocks.now(), self.lease)
            if job is not None and job.attempts > MAX_ATTEMPTS:  # it fails whoever takes it: say so, drop it
                log.error("job %s of game %s failed %s times: dropped (a server's sweep queues the turn again "
                          "when the game's own lease runs out)", job.id, job.game_id, MAX_ATTEMPTS)
                done(connection, job)
                return None
            return job

    def _work(self, job: Claimed) -> int:
        from boardlab.server import ai, repository

        service = self.service
        with service.db.read() as session:
            row = repository.find_game(session, job.game_id)
            if row is None or row.status != GameStatus.ACTIVE or row.version != job.version:
                row = None
            else:
                search = ai.Job(row.game, dict(row.options), row.start, repository.move_texts(session, job.game_id),
                                job.seat, job.agent, job.seed)
        if row is None:  # the game moved on (or is gone): whoever moved it queued what comes next
            with service.db.write_core() as connection:
                done(connection, job)
            return 0
        held = threading.Event()
        renewing = threading.Thread(target=self._renew, args=(job, held), daemon=True)
        renewing.start()
        try:
            began = time.monotonic()
            move = ai.choose(search)
            log.info("game %s ply %s: %s searched %s in %.1f s", job.game_id, job.ply, job.agent, move,
                     time.monotonic() - began)
        finally:
            held.set()
            renewing.join()
        try:
            service.move_for_computer(job.game_id, job.ply, move, job.version)
        except Conflict:
            log.info("game %s changed during the search: its move at ply %s is dropped", job.game_id, job.ply)
        with service.db.write_core() as connection:
            done(connection, job)
        return 1

    def _renew(self, job: Claimed, finished: threading.Event) -> None:
        from boardlab.server import clocks

        every = self.lease.total_seconds() / 3
        while not finished.wait(every):
            try:
                with self.service.db.write_core() as connection:
                    if not renew(connection, job, self.name, clocks.now() + self.lease):
                        log.warning("job %s of game %s was taken by another worker", job.id, job.game_id)
                        return
            except Exception:  # the database is restarting: try again at the next beat
                log.exception("could not renew the lease of job %s", job.id)
