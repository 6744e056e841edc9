"""What stands on each cell of a board, as one seat sees it: the vocabulary renderers draw from.

A game's face lists its cells with :meth:`boardlab.Game.cell_contents` (from a :class:`~boardlab.View`,
so hidden information stays hidden): each cell's name in the game's notation, the pieces on it and
any marks (a singularity, a closed point). Drawing code reads these instead of a game's state vector.

>>> from boardlab.core.cells import CellContent, Piece
>>> CellContent("c3", (Piece(colour=0, seat=1, kind="stone"),))
CellContent('c3', (Piece(colour=0, seat=1, kind='stone'),))
>>> Piece(colour=1, seat=1, numbers={"strength": 5, "life": 11}).numbers["life"]
11
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Piece:
    """One piece (or stone, peg, circle…) on a cell.

    ``colour`` indexes the game's colours (what the piece looks like: x/o, Black/White, Red/Blue…);
    ``seat`` is the seat that owns it now (colours and seats differ after a swap), ``None`` where
    no seat owns it yet. ``kind`` is the game's own word for it; ``numbers`` carries what a piece
    shows besides its colour (Horsmeier's ``strength`` and ``life``).
    """

    colour: int
    seat: int | None
    kind: str = "piece"
    numbers: Mapping[str, int] = field(default_factory=dict, hash=False)

    def __repr__(self) -> str:
        extra = f", numbers={dict(self.numbers)!r}" if self.numbers else ""
        return f"Piece(colour={self.colour}, seat={self.seat}, kind={self.kind!r}{extra})"


@dataclass(frozen=True)
class CellContent:
    """A cell by its name in the notation, with its pieces and marks (``"singularity"``, ``"closed"``…)."""

    name: str
    pieces: tuple[Piece, ...] = ()
    marks: frozenset[str] = frozenset()

    def __repr__(self) -> str:
        marks = f", marks={set(self.marks)!r}" if self.marks else ""
        return f"CellContent({self.name!r}, {self.pieces!r}{marks})"
