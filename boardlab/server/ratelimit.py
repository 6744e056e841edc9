"""A per-client token bucket, for requests that cost the server real work (a hint runs a search).

Each client (an address) may make ``burst`` requests at once, then one more every ``60 / per_minute``
seconds; a request beyond that is refused with 429 and a ``Retry-After`` of the seconds until the
next is allowed. The buckets live in the process: with ``--workers N`` a client may have N times the
allowance (the login limit, which must hold across workers, counts its failures in the database).

>>> limit = RateLimit("hint requests", burst=2, per_minute=6)
>>> limit.take("a", at=0.0); limit.take("a", at=1.0)
>>> try:
...     limit.take("a", at=2.0)
... except TooManyRequests as refused:
...     print(refused.retry_after, "|", refused)
8 | too many hint requests from your address: at most 2 at once, then 6 a minute; try again in 8 seconds
>>> limit.take("b", at=2.0); limit.take("a", at=10.0)
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from boardlab.server import clocks
from boardlab.server.errors import TooManyRequests

MAX_CLIENTS = 10_000  # beyond this, the buckets of clients that have waited long enough to be full are dropped


@dataclass
class _Bucket:
    tokens: float
    at: float  # seconds, when ``tokens`` was counted


class RateLimit:
    """``burst`` requests at once per client, refilled at ``per_minute``; ``what`` names them in the refusal."""

    def __init__(self, what: str, burst: int, per_minute: float) -> None:
        if burst < 1 or per_minute <= 0:
            raise ValueError(f"a rate limit needs burst >= 1 and per_minute > 0, not {burst} and {per_minute}")
        self.what, self.burst, self.per_second = what, burst, per_minute / 60
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def take(self, client: str, at: float | None = None) -> None:
        """Count one request from ``client`` (at ``at`` seconds; default now), or refuse it (429)."""
        now = clocks.now().timestamp() if at is None else at
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                if len(self._buckets) >= MAX_CLIENTS:
                    self._forget_full(now)
                bucket = self._buckets[client] = _Bucket(float(self.burst), now)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.per_second)
            bucket.at = now
            if bucket.tokens < 1:
                wait = max(1, math.ceil((1 - bucket.tokens) / self.per_second))
                raise TooManyRequests(
                    f"too many {self.what} from your address: at most {self.burst} at once, then "
                    f"{self.per_second * 60:g} a minute; try again in {wait} seconds", retry_after=wait)
            bucket.tokens -= 1

    def _forget_full(self, now: float) -> None:
        full = [key for key, b in self._buckets.items() if b.tokens + (now - b.at) * self.per_second >= self.burst]
        for key in full:
            del self._buckets[key]
