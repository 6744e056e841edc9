"""Live updates: who is watching what, and how a change reaches them.

A change is announced on a *channel* (``game:12``, ``user:3``) with no content: each watcher then
builds what it is sent from its own seat's view (see :mod:`boardlab.server.views`), so nobody is
ever handed a payload made for somebody else.

One worker: :class:`LocalNotifier` tells the :class:`Broker` after the commit. PostgreSQL (several
workers, or several servers on one database): :class:`PostgresNotifier` sends one ``NOTIFY`` a change
inside its transaction (delivered only if it commits; its payload lists the channels, space-separated,
after the sending process's token), and a listener on every process's event loop passes it to that
process's broker; the sender's own process tells its broker after the commit, as one worker does, and its
listener passes over the notifications that carry its own token. A move sends it within its UPDATE (see
:func:`boardlab.server.repository.write_back`), so that it costs no round trip of its own.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from collections.abc import Iterable
from typing import Any

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
        queues = self._watching(channels)
        if queues:
            loop.call_soon_threadsafe(_nudge, queues)

    def deliver_here(self, channels: Iterable[str]) -> None:
        """:meth:`deliver`, called on the event loop's own thread (no trip through its queue of calls)."""
        _nudge(self._watching(channels))

    def _watching(self, channels: Iterable[str]) -> list[asyncio.Queue[None]]:
        with self._lock:
            return [q for channel in channels for q in self._queues.get(channel, ())]


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

    async def ready(self, seconds: float = 10.0) -> bool:
        return True

    def stop(self) -> None:
        pass


class PostgresNotifier:
    """Several workers: NOTIFY goes with the transaction; every worker LISTENs and tells its broker of the
    others' changes, and tells it of its own after the commit (:meth:`committed`).

    The listening connection is read on the event loop, when its socket has something to read: a thread of
    its own, woken for every change (this process's own too), took the GIL from the requests' threads each
    time, and with it a share of every move's CPU time. A payload starts with the sending process's token
    (``@`` and 16 hex digits): the listener passes over its own process's (told already, by :meth:`committed`,
    at the commit and not a trip through the database later) without decoding or splitting them; a
    listener of an older version takes the token for a channel nobody watches."""

    def __init__(self, broker: Broker, url: str) -> None:
        self.broker = broker
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._task: asyncio.Task[None] | None = None
        self.listening = threading.Event()
        self.token = f"@{secrets.token_hex(8)}"
        self._own = f"{self.token} ".encode()

    def stage(self, session: Session | Connection, channels: list[str]) -> None:
        session.execute(text("SELECT pg_notify(:name, :payload)"), {"name": CHANNEL, "payload": self.payload(channels)})

    def payload(self, channels: list[str]) -> str | None:
        return " ".join((self.token, *channels))

    def committed(self, channels: list[str]) -> None:
        self.broker.deliver(channels)  # the listener passes over this process's own NOTIFY

    def start(self) -> None:
        """Listen, on the running event loop (call from it: the app's lifespan)."""
        self._task = asyncio.get_running_loop().create_task(self._listen(), name="boardlab-listen")

    async def ready(self, seconds: float = 10.0) -> bool:
        """Wait (at most ``seconds``) until the LISTEN is in place. A server that answered before it
        listened showed its first watchers none of the moves made meanwhile through another server, not
        until the next move; a two-server test saw it once under load."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not self.listening.is_set():
            if loop.time() > deadline:
                log.warning("not listening for other servers' moves after %.0f s; answering anyway", seconds)
                return False
            await asyncio.sleep(0.005)
        return True

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    await self._hear(connection.pgconn)
            except Exception as error:  # the database restarted or went away: listen again shortly
                self.listening.clear()
                log.warning("LISTEN connection lost (%s); reconnecting", error)
                await asyncio.sleep(1.0)

    async def _hear(self, pgconn: Any) -> None:
        """Pass on each notification as it arrives, until the connection fails (its error is raised)."""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()
        own = self._own

        def readable() -> None:
            try:
                pgconn.consume_input()
                while (note := pgconn.notifies()) is not None:
                    if not note.extra.startswith(own):  # this process's own: told at its commit
                        words = note.extra.decode().split()
                        self.broker.deliver_here(words[1:] if words and words[0].startswith("@") else words)
            except Exception as error:  # the server closed the connection
                if not lost.done():
                    lost.set_exception(error)

        socket = pgconn.socket
        loop.add_reader(socket, readable)
        try:
            readable()  # anything that came with the LISTEN's answer
            await lost
        finally:
            loop.remove_reader(socket)
