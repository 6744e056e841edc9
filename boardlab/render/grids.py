"""Square boards two ways: squares that pieces stand in (GTBM, Horsmeier) and points where lines
cross (Mynd, HMDG, as on a Go board). Both give each cell its centre, outline and room for a piece."""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.render.picture import Cell, Picture
from boardlab.render.svg import element, square_corners


def square_cells(names: Sequence[str], rows: int, columns: int, unit: float, left: float, top: float) -> list[Cell]:
    """Cells in row-major order from the top left, each a ``unit`` square whose corner grid starts at
    ``(left, top)``."""
    cells = []
    for index, name in enumerate(names):
        row, column = divmod(index, columns)
        centre = (left + (column + 0.5) * unit, top + (row + 0.5) * unit)
        cells.append(Cell(name, centre, tuple(square_corners(*centre, unit / 2)), unit * 0.42))
    return cells


def point_cells(names: Sequence[str], rows: int, columns: int, unit: float, left: float, top: float) -> list[Cell]:
    """Points in row-major order, the first at ``(left, top)``; each owns the ``unit`` square around it."""
    cells = []
    for index, name in enumerate(names):
        row, column = divmod(index, columns)
        centre = (left + column * unit, top + row * unit)
        cells.append(Cell(name, centre, tuple(square_corners(*centre, unit / 2)), unit * 0.42))
    return cells


def grid_lines(picture: Picture, rows: int, columns: int, unit: float, left: float, top: float) -> None:
    """The lines of a Go-style board through the points, with a border."""
    right, bottom = left + (columns - 1) * unit, top + (rows - 1) * unit
    pad = unit * 0.6
    picture.below.append(element("rect", {"x": left - pad, "y": top - pad, "width": right - left + 2 * pad,
                                          "height": bottom - top + 2 * pad, "fill": picture.theme.board,
                                          "rx": unit * 0.15}))
    d = "".join(f"M{left:.2f},{top + r * unit:.2f}H{right:.2f}" for r in range(rows))
    d += "".join(f"M{left + c * unit:.2f},{top:.2f}V{bottom:.2f}" for c in range(columns))
    picture.below.append(element("path", {"d": d, "stroke": picture.theme.line, "stroke-width": unit * 0.04,
                                          "fill": "none"}))
    picture.below.append(element("rect", {"x": left, "y": top, "width": right - left, "height": bottom - top,
                                          "fill": "none", "stroke": picture.theme.line,
                                          "stroke-width": unit * 0.08}))


def edge_coordinates(picture: Picture, cells: Sequence[Cell], rows: int, columns: int, unit: float,
                     row_labels: Sequence[str], column_labels: Sequence[str], gap: float) -> None:
    """Column labels above and below the board, row labels left and right, ``gap`` from the outer cells."""
    candidates = []
    for column, words in enumerate(column_labels):
        x = cells[column].centre[0]
        candidates.append((x, cells[column].centre[1] - gap, words))
        candidates.append((x, cells[(rows - 1) * columns + column].centre[1] + gap, words))
    for row, words in enumerate(row_labels):
        y = cells[row * columns].centre[1]
        candidates.append((cells[row * columns].centre[0] - gap, y, words))
        candidates.append((cells[row * columns + columns - 1].centre[0] + gap, y, words))
    picture.labels(candidates, unit * 0.42, 0.0)
