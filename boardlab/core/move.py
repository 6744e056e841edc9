"""Moves: one player's whole decision, with its canonical text.

A :class:`Move` pairs the canonical notation (``str(move)``) with its ``path``, the kernel actions
that make it up: one for a placement, several for a turn made of steps (a capture chain).
Moves come from :meth:`boardlab.State.legal_moves` or :meth:`boardlab.State.parse_move`; the repr
pastes back into a test.

>>> from boardlab import Move
>>> Move("d3", (19,))
Move('d3', (19,))
>>> str(Move("d3", (19,)))
'd3'
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """A move in canonical notation, with the kernel actions it consists of."""

    text: str
    path: tuple[int, ...]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r}, {self.path!r})"


_new = object.__new__
_set_text = Move.__dict__["text"].__set__
_set_path = Move.__dict__["path"].__set__


def fast_move(text: str, path: tuple[int, ...]) -> Move:
    """``Move(text, path)`` without the frozen dataclass's checks: for the engine's move lists
    (hundreds a position), where the arguments are known to be a ``str`` and a tuple of ints."""
    move = _new(Move)
    _set_text(move, text)
    _set_path(move, path)
    return move
