"""Worker processes that end with the run that started them.

A run stopped by Ctrl-C stops its workers too (the terminal signals the whole process group); one stopped
by SIGTERM (``kill``, ``timeout``, a scheduler) or SIGKILL signals only the run's own process, and each
worker would play its game to the end, minutes at level 3, with nobody left to store it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """A pool's initializer: Linux sends this process SIGTERM when its parent ends (elsewhere: nothing)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the request took hold
        os._exit(1)


def abandon(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` at once: its running games are lost, nothing waits for them."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):  # CPython's own record of them
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
