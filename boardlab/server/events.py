"""Live updates: who is watching what, and how a change reaches them.

A change is announced on a *channel* (``game:12``, ``user:3``) with no content: each watcher then
builds what it is sent from its own seat's view (see :mod:`boardlab.server.views`), so nobody is
ever handed a payload made for somebody else.

One worker: :class:`LocalNotifier` tells the :class:`Broker` after the commit. PostgreSQL (several
workers, or several servers on one database): :class:`PostgresNotifier` sends one ``NOTIFY`` a change
inside its transaction (delivered only if it commits; its payload lists the channels, space-separated),
and a listener thread in every process (the sender's too) passes it to that process's broker. A move
sends it within its UPDATE (see :func:`boardlab.server.repository.write_back`), so that it costs no round
trip of its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterable

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

log = logging.getLogger("boardlab.server")
CHANNEL = "boardlab_changes"


class Broker:
    """This worker's watchers: one queue per open stream, nudged whenever its channel changes."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[None]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self, *channels: str) -> asyncio.Queue[None]:
        """A queue nudged whenever any of ``channels`` changes (call from the event loop)."""
        queue: asyncio.Queue[None] = asyncio.Queue(maxsize=1)
        with self._lock:
            for channel in channels:
                self._queues.setdefault(channel, set()).add(queue)
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return queue

    def unsubscribe(self, queue: asyncio.Queue[None], *channels: str) -> None:
        with self._lock:
            for channel in channels:
                queues = self._queues.get(channel)
                if queues is not None:
                    queues.discard(queue)
                    if not queues:
                        del self._queues[channel]

    def watchers(self, channel: str) -> int:
        with self._lock:
            return len(self._queues.get(channel, ()))

    def deliver(self, channels: Iterable[str]) -> None:
        """Nudge the watchers of ``channels``; safe to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with self._lock:
            queues = [q for channel in channels for q in self._queues.get(channel, ())]
        if queues:
            loop.call_soon_threadsafe(_nudge, queues)


def _nudge(queues: list[asyncio.Queue[None]]) -> None:
    for queue in queues:
        if queue.empty():  # one pending nudge is enough: the watcher reads the newest state anyway
            queue.put_nowait(None)


class LocalNotifier:
    """One worker: watchers are told after the commit, in this process."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker

    def stage(self, session: Session | Connection, channels: list[str]) -> None:
        pass

    def payload(self, channels: list[str]) -> str | None:
        """What to send with a transaction's own statement instead of :meth:`stage` (``None``: nothing)."""
        return None

    def committed(self, channels: list[str]) -> None:
        self.broker.deliver(channels)

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass


class PostgresNotifier:
    """Several workers: NOTIFY goes with the transaction; every worker LISTENs and tells its broker."""

    def __init__(self, broker: Broker, url: str) -> None:
        self.broker = broker
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def stage(self, session: Session | Connection, channels: list[str]) -> None:
        session.execute(text("SELECT pg_notify(:name, :payload)"), {"name": CHANNEL, "payload": " ".join(channels)})

    def payload(self, channels: list[str]) -> str | None:
        return " ".join(channels)

    def committed(self, channels: list[str]) -> None:
        pass  # the listener hears our own NOTIFY too

    def start(self) -> None:
        self._thread = threading.Thread(target=self._listen, name="boardlab-listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _listen(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            self.broker.deliver(note.payload.split())
            except Exception as error:  # the database restarted or went away: listen again shortly
                self.listening.clear()
                log.warning("LISTEN connection lost (%s); reconnecting", error)
                self._stop.wait(1.0)
