"""Threads of their own for slow work (hashing passwords, replaying uploaded records), at a lower
priority than the requests' threads."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

PASSWORD_THREADS = max(1, (os.cpu_count() or 2) // 2)
SLOW_WORK_NICENESS = 10  # added to the server's own
_T = TypeVar("_T")


def _yield_the_cpu() -> None:
    """Lower this thread's scheduling priority (Linux: a thread's own nice value), so that the cores go to
    the event loop's requests first and to slow work (hashing, replaying) when they are idle."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SLOW_WORK_NICENESS)


class SlowPool:
    """Threads of their own for one kind of slow work, started when first needed (and again after a
    shutdown: an app's lifespan may start more than once, as tests' clients start it), at a lower
    priority than the requests' threads."""

    def __init__(self, threads: int, name: str) -> None:
        self.threads, self.name = threads, name
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def submit(self, work: Callable[..., _T], *args: Any) -> Future[_T]:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix=self.name,
                                                    initializer=_yield_the_cpu)
            return self._executor.submit(work, *args)

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """``work(*args)`` in these threads, awaited on the event loop (holding no thread of the request pool)."""
        return await asyncio.wrap_future(self.submit(work, *args))
