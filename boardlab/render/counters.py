"""Pieces to cut out, drawn as on the screen board, on a grid of cut lines at the printed cell size.

A game that is played with pieces names a counters module in its package
(:attr:`boardlab.core.package.GamePackage.counters`) with ``pitch(game)``, the distance between
neighbouring cells' centres in its renderer's units, and ``counters(view)``, its pieces drawn by its
own renderer centred on 0,0 (and, optionally, ``NOTE``, a sentence for the page of counters). They
are scaled like the printed board, so a cut-out piece fits a printed cell. Games played with pencil
marks (Möbiatus, HMDG) have none.

>>> import boardlab
>>> pieces = counters(boardlab.load("gtbm").new_game().view(None))
>>> len(pieces), sorted({p.colour for p in pieces})
(16, ['Black', 'White'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from boardlab.core.cells import Piece
from boardlab.core.registry import package
from boardlab.core.view import View
from boardlab.render.svg import element, group, number

CUT = {"stroke": "#9A9A9A", "stroke-width": 0.2, "stroke-dasharray": "1.2 0.8", "fill": "none"}


@dataclass(frozen=True)
class Counter:
    """A piece to cut out: its colour's name, its kind, and its picture centred on 0,0 in board units."""

    colour: str
    kind: str
    body: str


def pitch(game_id: str) -> float:
    """The distance between neighbouring cells' centres on the game's board, in its SVG units (0: no counters)."""
    from boardlab.core.registry import load

    module = package(game_id).counters_module()
    return 0.0 if module is None else float(module.pitch(load(game_id)))


def counters(view: View) -> list[Counter]:
    """The pieces ``view``'s game needs, drawn (none for a game played with pencil marks)."""
    module = package(view.game.id).counters_module()
    return [] if module is None else list(module.counters(view))


def counters_note(game_id: str) -> str:
    """What the game's counters page says besides how many there are and where to cut ('' if nothing)."""
    module = package(game_id).counters_module()
    return str(getattr(module, "NOTE", "")) if module is not None else ""


def board_pieces(view: View) -> list[Piece]:
    """The pieces on the board as ``view`` shows them, in board order."""
    return [piece for content in view.game.cell_contents(view) for piece in content.pieces]


def in_print_order(pieces: Iterable[Piece]) -> list[Piece]:
    """By colour, pegs first; within a colour in the order given (board order: Horsmeier's numbers follow it)."""
    return sorted(pieces, key=lambda piece: (piece.colour, piece.kind != "peg"))


def counter_grid(items: Sequence[Counter], size: float, scale: float, x: float, y: float,
                 columns: int) -> str:
    """``items`` in rows of ``columns`` cells ``size`` mm square from ``(x, y)``, each drawn at ``scale``
    (mm per board unit), with dashed cut lines between them."""
    parts = []
    rows = -(-len(items) // columns)
    for index, item in enumerate(items):
        row, column = divmod(index, columns)
        cx, cy = x + (column + 0.5) * size, y + (row + 0.5) * size
        parts.append(element("g", {"transform": f"translate({number(cx)} {number(cy)}) scale({scale:.5f})",
                                   "class": "counter", "data-counter": f"{item.colour} {item.kind}"},
                             item.body, text=False))
    in_row = [min(columns, len(items) - k * columns) for k in range(rows)]
    lines = "".join(f"M{number(x)},{number(y + r * size)}h{number(max(in_row[max(r - 1, 0):r + 1]) * size)}"
                    for r in range(rows + 1))
    lines += "".join(f"M{number(x + c * size)},{number(y)}v{number(sum(n >= max(c, 1) for n in in_row) * size)}"
                     for c in range(max(in_row, default=0) + 1))
    parts.append(element("path", {"d": lines, **CUT, "class": "cut-lines"}))
    return group({"class": "counters"}, parts)

