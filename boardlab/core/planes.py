"""Observation planes: a seat's view as a fixed-shape ``float32`` array, for learning algorithms.

``view.planes()`` has shape ``game.planes_shape == (len(game.plane_names), len(game.cell_names()))``:
one row (*plane*) per feature, one column per cell in the order :meth:`~boardlab.Game.cell_names`
lists them. Boards here are hexagons, strips with a half twist and squares, so cells stay a flat axis;
a network that wants a grid reshapes with the game's own topology.

The planes are what :meth:`~boardlab.Game.cell_contents` of the view says, the same per-seat
description the renderers draw, so nothing the seat may not know can appear in them (HMDG: the other
seat's hidden stones are absent, exactly as on that seat's screen). Each game fills them with a numba
kernel, ``planes(view_vector, spec, seat, out)``, that reads only the view's vector (what
``game.observe`` left for that seat; ``seat`` is -1 for a spectator) and writes what
:func:`planes_from_cells` builds from ``cell_contents`` (the tests hold the two equal). A game declares
what may stand on its cells with three class attributes, and the planes are, in this order:

- ``colour<c>:<kind>`` for each colour ``c`` (one per seat) and each kind in ``plane_kinds``: 1 where
  such a piece stands;
- ``mine``: 1 where a piece owned by the viewing seat stands (colours and seats differ after a swap);
- ``<number>`` for each name in ``plane_numbers``: the piece's number there (Horsmeier's strength,
  life), 0 elsewhere;
- ``mark:<mark>`` for each mark in ``plane_marks``: 1 where the cell carries it (a singularity, a
  closed point);
- ``to_move``: all 1 when the viewing seat owes the next decision, else all 0.

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=2, length=2)
>>> game.plane_names
('colour0:stone', 'colour1:stone', 'mine', 'to_move')
>>> planes = game.new_game().play("a1").view(1).planes()
>>> planes.shape == game.planes_shape, planes[0].tolist(), planes[3].tolist()
(True, [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import types

from boardlab.core.kernel import SPEC
from boardlab.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.view import View


def plane_names(game: Game) -> tuple[str, ...]:
    names = [f"colour{c}:{kind}" for c in range(game.num_seats) for kind in game.plane_kinds]
    names.append("mine")
    names.extend(game.plane_numbers)
    names.extend(f"mark:{mark}" for mark in game.plane_marks)
    names.append("to_move")
    return tuple(names)


# planes(view, spec, seat, out): a game's kernel fills ``out`` (zeros, shape ``game.planes_shape``)
# from the view's vector, all but the last plane (to_move, which the view knows).
PLANES_SIG = types.void(SPEC, SPEC, types.int64, types.float32[:, ::1])


def planes(view: View) -> np.ndarray:
    """The view's planes, filled by the game's kernel from the view's vector alone."""
    if view.game.planes_kernel is None:
        return planes_from_cells(view)
    return observed_planes(view.game, view.data, view.seat, view.to_move)


def observed_planes(game: Game, seen: np.ndarray, seat: int | None, to_move: int | None) -> np.ndarray:
    """The planes of ``seen``, a vector that ``game.observe(data, seat)`` made for ``seat`` (a view's
    own vector): what :meth:`View.planes` gives, for callers that step vectors (the PettingZoo
    adapter) and would not make a state and a view for every observation."""
    out = np.zeros(game.planes_shape, np.float32)
    game.planes_kernel(seen, game.spec, -1 if seat is None else seat, out)  # type: ignore[misc]
    if seat is not None and to_move == seat:
        out[-1] = 1
    return out


def planes_from_cells(view: View) -> np.ndarray:
    """The view's planes built in Python from ``cell_contents`` (the definition the kernels follow)."""
    game = view.game
    kinds, numbers, marks = game.plane_kinds, game.plane_numbers, game.plane_marks
    seats = game.num_seats
    mine = seats * len(kinds)
    number_at = mine + 1
    mark_at = number_at + len(numbers)
    cells = game.cell_contents(view)
    out = np.zeros((mark_at + len(marks) + 1, len(cells)), np.float32)
    for column, cell in enumerate(cells):
        for piece in cell.pieces:
            if piece.kind not in kinds or not 0 <= piece.colour < seats:
                raise BoardlabError(f"{game.id}: a {piece.kind!r} of colour {piece.colour} has no plane")
            out[piece.colour * len(kinds) + kinds.index(piece.kind), column] = 1
            if view.seat is not None and piece.seat == view.seat:
                out[mine, column] = 1
            for name, value in piece.numbers.items():
                out[number_at + numbers.index(name), column] += value
        for mark in cell.marks:
            out[mark_at + marks.index(mark), column] = 1
    if view.seat is not None and view.to_move == view.seat:
        out[-1, :] = 1
    return out
