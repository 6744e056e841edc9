"""Plain-Python referees, written apart from the kernels from the seeds' texts, for the differential tests.

Each game's package names its referee's module (``GamePackage.reference``; boardlab's six games point
here, as the referees are for the tests, not for people who install boardlab). The module has
``referee(game)``: a :class:`Referee` of the game's rules with ``game``'s options, at the start.
``tests/test_every_referee.py`` plays random games of every registered game against its referee;
each game's ``tests/test_<game>_reference.py`` compares more (boards, counts) in chosen positions.
"""

from __future__ import annotations

from typing import Any, Protocol


class Referee(Protocol):
    """What every referee answers, in the kernels' words (move texts, results by seat, end-reason names)."""

    @property
    def result(self) -> tuple[float, ...] | None:
        """Each seat's score once the game is over (as ``State.result``); ``None`` while it goes on."""

    @property
    def reason(self) -> str | None:
        """Why the game ended, as ``State.end_reason`` names it; ``None`` while it goes on."""

    def legal_moves(self) -> list[str]:
        """The text of every legal move (whole turns), sorted; none once the game is over."""

    def play(self, move: str) -> None:
        """Play the move of that text (one of ``legal_moves()``)."""


class ByText:
    """A :class:`Referee` over a referee whose moves are objects of its own: each seen through its text.

    Subclasses give ``moves()``: (text, the referee's own move) for each legal move."""

    def __init__(self, ref: Any) -> None:
        self.ref = ref

    def moves(self) -> list[tuple[str, Any]]:
        raise NotImplementedError

    @property
    def result(self) -> tuple[float, ...] | None:
        return self.ref.result

    @property
    def reason(self) -> str | None:
        return self.ref.reason

    def legal_moves(self) -> list[str]:
        return sorted(text for text, _ in self.moves())

    def play(self, move: str) -> None:
        self.ref.play(next(own for text, own in self.moves() if text == move))
