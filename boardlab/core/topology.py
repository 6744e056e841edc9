"""Boards as graphs of cells: coordinates, neighbours in named directions, and a drawing layout.

A :class:`Topology` numbers its cells ``0 … n-1`` and gives a neighbour table that rules kernels
index directly (``-1`` where a step leaves the board). Games add their notation on top.

Hex boards use pbmserv's coordinates: ``row`` counts from the top (``a`` = 0) and ``diagonal``
counts the ``/`` diagonals from the left (``1`` = 0). On a hexhex of side 3::

       1 2 3
      / / / 4
  a- . . . / 5
 b- . . . . /
c- . . . . .
 d- . . . .
  e- . . .

Rows run ``—``, the ``/`` diagonals keep ``diagonal`` fixed, and the ``\\`` diagonals step row and
diagonal together. Those are the three axes lines are counted along.

Square boards use ``(row, column)`` with row 0 at the top; :data:`SQUARE_DIRECTIONS` lists the
eight compass steps, orthogonal ones first, so the first four are the 4-neighbourhood.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# (d_row, d_diagonal) for the six hex directions; direction k and k + 3 are opposite.
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))
HEX_AXES = 3

# (d_row, d_column) on square boards, row 0 at the top: N, E, S, W, then NE, SE, SW, NW.
# Direction k and (k + 2) % 4 (orthogonal) or 4 + (k - 4 + 2) % 4 (diagonal) are opposite.
SQUARE_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0), (0, 1), (1, 0), (0, -1), (-1, 1), (1, 1), (1, -1), (-1, -1),
)


@dataclass(frozen=True, eq=False)
class Topology:
    """Cells with integer coordinates and a neighbour table over fixed directions."""

    name: str
    coords: tuple[tuple[int, int], ...]
    directions: tuple[tuple[int, int], ...]
    neighbours: np.ndarray = field(repr=False)
    _index: dict[tuple[int, int], int] = field(repr=False)

    @classmethod
    def from_coords(
        cls, name: str, coords: list[tuple[int, int]], directions: tuple[tuple[int, int], ...]
    ) -> Topology:
        index = {coord: cell for cell, coord in enumerate(coords)}
        table = np.full((len(coords), len(directions)), -1, dtype=np.int64)
        for cell, (row, col) in enumerate(coords):
            for k, (dr, dc) in enumerate(directions):
                table[cell, k] = index.get((row + dr, col + dc), -1)
        table.setflags(write=False)
        return cls(name, tuple(coords), directions, table, index)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.coords)

    def cell(self, row: int, col: int) -> int | None:
        """The cell at ``(row, col)``, or ``None`` if that is off the board."""
        return self._index.get((row, col))

    def __repr__(self) -> str:
        return f"<Topology {self.name}: {self.size} cells>"


def hexhex(side: int) -> Topology:
    """A hexagon of hexagons with ``side`` cells along each edge (side 5: 61 cells)."""
    span = 2 * side - 1
    coords = [
        (row, diag) for row in range(span) for diag in range(span) if abs(row - diag) <= side - 1
    ]
    return Topology.from_coords(f"hexhex{side}", coords, HEX_DIRECTIONS)


def hex_trapezoid(side: int) -> Topology:
    """The top half of a hexhex of ``side``, middle row included (side 7: the 70-cell Pentalath board)."""
    coords = [(row, diag) for row in range(side) for diag in range(row + side)]
    return Topology.from_coords(f"trapezoid{side}", coords, HEX_DIRECTIONS)


def square(height: int, width: int | None = None) -> Topology:
    """A rectangle of ``height`` rows and ``width`` columns (default square), 8 directions.

    >>> board = square(3)
    >>> board.size, board.cell(1, 1), [int(n) for n in board.neighbours[board.cell(0, 0)]]
    (9, 4, [-1, 1, 3, -1, -1, 4, -1, -1])
    """
    columns = height if width is None else width
    coords = [(row, column) for row in range(height) for column in range(columns)]
    return Topology.from_coords(f"square{height}x{columns}", coords, SQUARE_DIRECTIONS)


def hex_layout(topology: Topology) -> list[tuple[int, int]]:
    """Text-grid positions ``(line, column)`` for drawing a hex board with rows offset by half a cell."""
    top = max(diag - row for row, diag in topology.coords)
    return [(row, 2 * diag - row + top) for row, diag in topology.coords]
