"""The Möbius strip as a board: paper squares, their two faces, and steps that wrap along the loop.

A strip of ``length`` × ``width`` paper squares, twisted once and taped into a loop, has one side,
yet every paper square has two *faces*, the two sides of the paper. Pieces stand on faces. In
*double-cover coordinates* the faces form a loop ``2·length`` long and ``width`` wide: face
``(x, y)`` with ``x`` in ``0 … 2·length − 1`` (wrapping) and ``y`` in ``0 … width − 1`` (never
wrapping: the strip's edge is real). Paper square ``(i, j)`` has its front face at ``(i, j)`` and
its back face at ``(length + i, width − 1 − j)``, so the *opposite* face, the other side of the same
paper, is ``length`` steps further along with the width mirrored, and ``opposite(opposite(f)) == f``.

The same surface drawn as *two parallel boards* (the seed's picture): a front board ``F`` and a
back board ``B``, each ``length`` columns by ``width`` rows, where ``B(i, j)`` is the back of paper
square ``(i, j)``. A face and its opposite sit at the same column and row of the two boards.
Stepping off either end of one board lands on the other board with the row mirrored ("a left-right
flip when moving over the edge"). Faces are numbered ``x · width + y``:

>>> strip = MobiusStrip(30, 5)
>>> strip.faces, strip.face(0, 0), strip.opposite(strip.face(0, 0)) == strip.face(30, 4)
(300, 0, True)
>>> strip.picture(strip.face(31, 4)), strip.name(strip.face(31, 4))
(('B', 1, 0), 'B2a')
>>> strip.name(strip.step(strip.from_picture("F", 29, 0), 1, 0))  # off the front's end, row flipped
'B1e'

Steps are given as ``(dx, dy)``; :data:`KNIGHT_STEPS` and :data:`ORTHOGONAL_STEPS` list the usual
ones, :func:`leaper_steps` any ``(m, n)`` leaper's (the knight is ``(1, 2)``), and
:meth:`MobiusStrip.table` turns any list into a neighbour table (``-1`` off the width) that rules
kernels index directly. Nothing here knows any game's rules.

>>> leaper_steps(1, 2) == KNIGHT_STEPS
True
>>> leaper_steps(1, 3)[:2]
((1, 3), (3, 1))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardlab.core.topology import Topology

Steps = tuple[tuple[int, int], ...]


def leaper_steps(m: int, n: int) -> Steps:
    """The leaps of an ``(m, n)`` leaper, ``0 < m < n``: ``m`` squares one way and ``n`` at right
    angles, each sign and order, clockwise from ``(m, n)`` (the knight's order for ``(1, 2)``)."""
    if not 0 < m < n:
        raise ValueError(f"a leaper needs 0 < m < n, not ({m}, {n})")
    return ((m, n), (n, m), (n, -m), (m, -n), (-m, -n), (-n, -m), (-n, m), (-m, n))


# (dx, dy) in double-cover coordinates: x along the loop, y across the width.
KNIGHT_STEPS: Steps = leaper_steps(1, 2)
ORTHOGONAL_STEPS: Steps = ((1, 0), (0, 1), (-1, 0), (0, -1))

BOARDS = ("F", "B")
ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class MobiusStrip:
    """A twisted strip of ``length`` × ``width`` paper squares, as a loop of ``2·length·width`` faces."""

    length: int
    width: int

    def __post_init__(self) -> None:
        if self.length < 1 or not 1 <= self.width <= len(ROW_LETTERS):
            raise ValueError(
                f"a Möbius strip needs length ≥ 1 and width from 1 to {len(ROW_LETTERS)}, "
                f"not {self.length} × {self.width}"
            )

    @property
    def loop(self) -> int:
        """Faces along the loop (``2 · length``): the range of ``x``."""
        return 2 * self.length

    @property
    def faces(self) -> int:
        return 2 * self.length * self.width

    @property
    def squares(self) -> int:
        """Paper squares (each has two faces)."""
        return self.length * self.width

    # -- double-cover coordinates -----------------------------------------------------------------

    def face(self, x: int, y: int) -> int:
        """The face at ``(x, y)``; ``x`` wraps around the loop, ``y`` must lie within the width."""
        if not 0 <= y < self.width:
            raise ValueError(f"y = {y} is off the strip; accepted: 0 to {self.width - 1}")
        return (x % self.loop) * self.width + y

    def coords(self, face: int) -> tuple[int, int]:
        """``(x, y)`` of ``face``."""
        return divmod(face, self.width)

    def opposite(self, face: int) -> int:
        """The other side of the same paper square: ``length`` along, the width mirrored."""
        x, y = self.coords(face)
        return self.face(x + self.length, self.width - 1 - y)

    def step(self, face: int, dx: int, dy: int) -> int | None:
        """The face ``(dx, dy)`` away, wrapping along the loop; ``None`` if it leaves the width."""
        x, y = self.coords(face)
        if not 0 <= y + dy < self.width:
            return None
        return self.face(x + dx, y + dy)

    def table(self, steps: Steps) -> np.ndarray:
        """A read-only ``faces × len(steps)`` table of the face each step reaches (``-1``: off the width)."""
        table = np.full((self.faces, len(steps)), -1, dtype=np.int64)
        for face in range(self.faces):
            for k, (dx, dy) in enumerate(steps):
                target = self.step(face, dx, dy)
                if target is not None:
                    table[face, k] = target
        table.setflags(write=False)
        return table

    def topology(self, steps: Steps = ORTHOGONAL_STEPS) -> Topology:
        """The faces as a core :class:`Topology` (coordinates ``(x, y)``) whose neighbours wrap along the loop."""
        coords = tuple(self.coords(face) for face in range(self.faces))
        index = {coord: face for face, coord in enumerate(coords)}
        return Topology(f"mobius{self.length}x{self.width}", coords, steps, self.table(steps), index)

    # -- paper squares and the two parallel boards ------------------------------------------------

    def square(self, face: int) -> int:
        """The paper square of ``face`` (numbered ``column · width + row`` as on the front board)."""
        _, column, row = self.picture(face)
        return column * self.width + row

    def is_front(self, face: int) -> bool:
        return face < self.squares

    def picture(self, face: int) -> tuple[str, int, int]:
        """Where ``face`` is drawn on the two parallel boards: ``("F" or "B", column, row)``, 0-based."""
        x, y = self.coords(face)
        if x < self.length:
            return "F", x, y
        return "B", x - self.length, self.width - 1 - y

    def from_picture(self, board: str, column: int, row: int) -> int:
        """The face drawn at ``column``, ``row`` (0-based) of board ``"F"`` or ``"B"``."""
        if board not in BOARDS or not 0 <= column < self.length or not 0 <= row < self.width:
            raise ValueError(
                f"no square {board!r} column {column} row {row}: boards are F and B, columns 0 to "
                f"{self.length - 1}, rows 0 to {self.width - 1}"
            )
        if board == "F":
            return self.face(column, row)
        return self.face(self.length + column, self.width - 1 - row)

    def name(self, face: int) -> str:
        """The face's name on the two parallel boards: board, column from 1, row letter (``F12c``)."""
        board, column, row = self.picture(face)
        return f"{board}{column + 1}{ROW_LETTERS[row]}"

    def parse_name(self, text: str) -> int | None:
        """The face called ``text`` (``F12c``, ``b3a``; case is ignored); ``None`` if there is none."""
        word = text.strip()
        if not 3 <= len(word) <= 8 or not (word[1:-1].isascii() and word[1:-1].isdecimal()):
            return None
        board, column, row = word[0].upper(), int(word[1:-1]) - 1, word[-1].lower()
        if board not in BOARDS or row not in ROW_LETTERS[: self.width] or not 0 <= column < self.length:
            return None
        return self.from_picture(board, column, ROW_LETTERS.index(row))

    def __repr__(self) -> str:
        return f"<MobiusStrip {self.length}×{self.width}: {self.faces} faces>"
