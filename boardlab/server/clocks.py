"""Time: correspondence games (days per move), live games (minutes plus increment), and untimed games
(the default against the computer: nobody waits for the one person playing).

The server keeps one deadline per game, the moment the seat to move runs out of time; a sweep
finds games past their deadline and ends them, whether or not anybody is connected. Times are
naive UTC ``datetime`` values, as the database stores them.

>>> control = TimeControl.correspondence(3)
>>> control.describe()
'correspondence, 3 days a move'
>>> TimeControl.live(5, 3).describe()
'live, 5 min + 3 s'
>>> TimeControl.untimed().describe()
'untimed'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from boardlab.errors import BoardlabError


def now() -> datetime:
    """The current time (naive UTC). Tests replace this to move time forward."""
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class TimeControl:
    kind: str  # "correspondence", "live" or "untimed"
    days_per_move: int | None = None
    base_seconds: float | None = None
    increment_seconds: float | None = None

    @classmethod
    def correspondence(cls, days: int) -> TimeControl:
        if not 1 <= days <= 60:
            raise BoardlabError(f"days per move {days} is not accepted; accepted: 1 to 60")
        return cls("correspondence", days_per_move=days)

    @classmethod
    def untimed(cls) -> TimeControl:
        return cls("untimed")

    @classmethod
    def live(cls, minutes: float, increment: float) -> TimeControl:
        if not 0.05 <= minutes <= 600:
            raise BoardlabError(f"minutes {minutes} is not accepted; accepted: 0.05 to 600")
        if not 0 <= increment <= 600:
            raise BoardlabError(f"increment {increment} is not accepted; accepted: 0 to 600 seconds")
        return cls("live", base_seconds=minutes * 60, increment_seconds=increment)

    def describe(self) -> str:
        if self.kind == "untimed":
            return "untimed"
        if self.kind == "correspondence":
            return f"correspondence, {self.days_per_move} day{'s' if self.days_per_move != 1 else ''} a move"
        minutes = (self.base_seconds or 0) / 60
        return f"live, {minutes:g} min + {self.increment_seconds or 0:g} s"

    def deadline(self, turn_started: datetime, remaining: float | None) -> datetime | None:
        """When the seat to move, whose turn began at ``turn_started``, runs out of time (never: ``None``)."""
        if self.kind == "untimed":
            return None
        if self.kind == "correspondence":
            return turn_started + timedelta(days=self.days_per_move or 1)
        return turn_started + timedelta(seconds=remaining or 0.0)

    def after_move(self, remaining: float | None, spent: float) -> float | None:
        """The mover's clock after a move that took ``spent`` seconds (live games only)."""
        if self.kind != "live" or remaining is None:
            return None
        return max(0.0, remaining - spent) + (self.increment_seconds or 0.0)


def seconds_between(start: datetime | None, end: datetime) -> float:
    return 0.0 if start is None else max(0.0, (end - start).total_seconds())
