"""The same games as Ray tasks: on a cluster (``--ray ADDRESS``) or a Ray started here (``--ray local``).

Each task gets a :class:`~boardlab.playtest.trace.GameJob` (plain data) and returns its trace; a
game's moves depend on its job alone, so the results equal a process pool's for the same seeds. The
machines of a cluster need boardlab installed (the same version) in the Python that Ray runs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import Any

from boardlab.errors import BoardlabError
from boardlab.playtest.trace import GameJob, GameTrace, play_traced


def play_on_ray(jobs: list[GameJob], address: str, workers: int | None = None) -> Iterator[GameTrace]:
    """Play ``jobs`` as Ray tasks and yield their traces as they finish."""
    try:
        import ray
    except ImportError:
        raise BoardlabError("--ray needs Ray: pip install 'boardlab[playtest]'") from None
    started = not ray.is_initialized()
    if started:
        try:
            if address == "local":
                ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False,
                         logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise BoardlabError(f"cannot reach a Ray cluster at {address!r}: {error}") from None
    remote: Any = ray.remote(num_cpus=1, max_retries=0)(play_traced)
    running = [remote.remote(job) for job in jobs]
    try:
        while running:
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
    finally:
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
