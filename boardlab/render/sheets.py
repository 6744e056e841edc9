"""Sheets to write on: ruled tables (HMDG's record sheets) and notes.

Everything here is drawn in millimetres from a given corner, for a printed page.

>>> svg, bottom = table(10.0, 20.0, 100.0, [("Ply", 1.0), ("Move", 3.0)], rows=3, row_height=6.0)
>>> svg.count('class="row"'), bottom
(3, 47.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.render.svg import element, group, label
from boardlab.render.text import wrap

INK = "#000000"
RULE = "#7A7A7A"


def table(x: float, y: float, width: float, columns: Sequence[tuple[str, float]], rows: int,
          row_height: float, *, numbered: bool = True) -> tuple[str, float]:
    """A ruled table: a header row of column titles (widths in proportion to their weights) and
    ``rows`` empty rows, the first column numbered 1, 2 … when ``numbered``. Returns the SVG and
    the ``y`` of its bottom edge."""
    total = sum(weight for _, weight in columns)
    widths = [width * weight / total for _, weight in columns]
    size = row_height * 0.42
    header_height = row_height * 1.5
    parts = [element("rect", {"x": x, "y": y, "width": width, "height": header_height, "fill": "#E6E6E6"})]
    left = x
    for (title, _), column_width in zip(columns, widths, strict=True):
        lines = wrap(title, column_width - 1.0, size)[:2]
        for index, words in enumerate(lines):
            offset = (index - (len(lines) - 1) / 2) * size * 1.1
            parts.append(label(left + column_width / 2, y + header_height / 2 + offset, words, size,
                               {"fill": INK, "font-weight": "bold"}))
        left += column_width
    top = y + header_height
    for row in range(rows):
        row_top = top + row * row_height
        cells = [element("line", {"x1": x, "y1": row_top + row_height, "x2": x + width, "y2": row_top + row_height,
                                  "stroke": RULE, "stroke-width": 0.2})]
        if numbered:
            cells.append(label(x + widths[0] / 2, row_top + row_height / 2, str(row + 1), size, {"fill": RULE}))
        parts.append(group({"class": "row"}, cells))
    bottom = top + rows * row_height
    left = x
    for column_width in [0.0, *widths]:
        left += column_width
        parts.append(element("line", {"x1": left, "y1": y, "x2": left, "y2": bottom, "stroke": INK,
                                      "stroke-width": 0.25}))
    parts.append(element("rect", {"x": x, "y": y, "width": width, "height": bottom - y, "fill": "none",
                                  "stroke": INK, "stroke-width": 0.4}))
    return group({"class": "record-table"}, parts), bottom



def note(x: float, y: float, width: float, words: str, size: float) -> tuple[str, float]:
    """A wrapped paragraph; returns the SVG and the ``y`` below it."""
    parts = []
    for line in wrap(words, width, size):
        parts.append(element("text", {"x": x, "y": y + size, "font-size": size, "fill": INK}, line))
        y += size * 1.3
    return group({"class": "note"}, parts), y

