"""A board picture being drawn: themes, marks, cells that carry ``data-cell``, and the SVG they make.

Every game's renderer lays out its cells (a polygon and a centre each), says what stands on each,
and adds its own labels and legends; this module draws what all boards share the same way: the
cell groups a browser maps clicks from, the heat map and its legend, and the marks (last move,
selection, targets, flags), which differ by shape as well as colour:

- last move: a frame inside the cell;  selected: a double frame;  target: a dot (a ring round a
  piece);  flagged: a triangle with ``!`` (its reason in the tooltip).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from boardlab.errors import BoardlabError
from boardlab.render.metrics import wrap_lines
from boardlab.render.svg import (
    OKABE_ITO,
    Point,
    element,
    group,
    heat_colour,
    label,
    number,
    polygon,
    shrink,
)


class RenderError(BoardlabError):
    """A drawing request that cannot be met: an unknown layout or theme, marks on cells that do not exist."""


@dataclass(frozen=True)
class Theme:
    """The colours and type of a picture. ``default`` is for screens; ``print`` for paper (white, ink-light)."""

    name: str
    background: str
    board: str
    board_alt: str
    line: str
    text: str
    muted: str
    last: str = OKABE_ITO["orange"]
    selected: str = OKABE_ITO["blue"]
    target: str = OKABE_ITO["blue"]
    flag: str = OKABE_ITO["vermillion"]
    font: str = "DejaVu Sans, Verdana, Arial, sans-serif"
    # The width in CSS pixels a page shows the picture at (None: not known, print): captions are set at
    # least CAPTION_PX there, where a phone would shrink them out of reach.
    shown_at: float | None = None
    # Whether a board that lists the game's moves beside it (HMDG's announcements) does so: a page with
    # a move list of its own asks it not to repeat them.
    moves_listed: bool = True
    # Whether the board's own text (coordinates, a piece's numbers) grows to BOARD_TEXT_PX at shown_at:
    # in the layouts made for phones, which leave room for it.
    board_text_floor: bool = False


CAPTION_PX = 14.0
BOARD_TEXT_PX = 12.5  # the smallest type on a board itself (coordinates, a piece's numbers) where shown_at is known
THEMES = {
    "default": Theme("default", background="#FBF8F1", board="#EBD6AE", board_alt="#D8BB88", line="#4A3B27",
                     text="#1F1F1F", muted="#6E6A60"),
    "print": Theme("print", background="#FFFFFF", board="#FFFFFF", board_alt="#E6E6E6", line="#000000",
                   text="#000000", muted="#555555"),
}


def theme_named(theme: Theme | str) -> Theme:
    if isinstance(theme, Theme):
        return theme
    if theme not in THEMES:
        raise RenderError(f"unknown theme {theme!r}; accepted: {', '.join(THEMES)}")
    return THEMES[theme]


@dataclass(frozen=True)
class Marks:
    """What to mark on a board, by cell name (as in ``data-cell``).

    ``last``: the last move's cells (``None``: taken from the view's last move; ``()``: none).
    ``selected``: cells clicked so far. ``targets``: where the selection may go next.
    ``flagged``: cells to point out, each with its reason. ``heat``: a value per cell, drawn as
    shading with a legend titled ``heat_title`` (values are scaled to the largest).
    """

    last: tuple[str, ...] | None = None
    selected: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    flagged: Mapping[str, str] = field(default_factory=dict, hash=False)
    heat: Mapping[str, float] | None = field(default=None, hash=False)
    heat_title: str = "share of moves"

    def names(self) -> set[str]:
        """Every cell these marks name."""
        return {*(self.last or ()), *self.selected, *self.targets, *self.flagged, *(self.heat or {})}


@dataclass(frozen=True)
class Cell:
    """A drawn cell: its name, centre, outline, and the radius a piece on it may take."""

    name: str
    centre: Point
    outline: tuple[Point, ...]
    radius: float


@dataclass
class CellDrawing:
    """What a renderer puts in one cell: a fill (``None``: transparent, a point on a grid), the
    piece elements (already wrapped with ``data-piece``), and words for the tooltip."""

    cell: Cell
    fill: str | None
    pieces: str = ""
    title: str = ""
    under: str = ""


def piece_group(kind: str, seat: int | None, colour_name: str, body: str) -> str:
    """A piece's elements in a ``<g>`` carrying ``data-piece`` (its colour and kind) and ``data-seat``."""
    return group({"class": "piece", "data-piece": f"{colour_name} {kind}".strip(), "data-seat": seat}, [body])


class Picture:
    """An SVG in the making: ``width`` × ``height`` user units; the cells, and what lies below and above."""

    def __init__(self, width: float, height: float, theme: Theme) -> None:
        self.width, self.height, self.theme = width, height, theme
        self.below: list[str] = []
        self.above: list[str] = []
        self._cells: list[str] = []
        self._heat: tuple[str, float] | None = None
        self.names: list[str] = []

    # -- cells ----------------------------------------------------------------------------------

    def add_cells(self, drawings: Sequence[CellDrawing], marks: Marks) -> None:
        """Draw every cell with the marks; marks naming no cell of the board are refused."""
        known = {drawing.cell.name for drawing in drawings}
        unknown = sorted(marks.names() - known)
        if unknown:
            sample = ", ".join(sorted(known)[:4])
            raise RenderError(f"marks name cells this board does not have: {', '.join(unknown[:5])}; "
                              f"cells are named as in the notation, such as {sample}")
        heat = dict(marks.heat or {})
        top = max((v for v in heat.values() if v > 0), default=0.0)
        for drawing in drawings:
            self.names.append(drawing.cell.name)
            self._cells.append(self._cell(drawing, marks, heat.get(drawing.cell.name), top))
        if marks.heat is not None:
            self._heat = (marks.heat_title, top)

    def _cell(self, drawing: CellDrawing, marks: Marks, heat: float | None, top: float) -> str:
        cell, theme = drawing.cell, self.theme
        name, r, outline = cell.name, cell.radius, cell.outline
        title = [drawing.title or name]
        parts = [polygon(outline, {"class": "cell-area", "fill": drawing.fill or "#FFFFFF",
                                   "fill-opacity": None if drawing.fill else 0,
                                   "stroke": theme.line if drawing.fill else None,
                                   "stroke-width": r * 0.04 if drawing.fill else None})]
        if heat is not None:
            fraction = heat / top if top else 0.0
            parts.append(polygon(shrink(outline, cell.centre, 0.94),
                                 {"class": "heat", "fill": heat_colour(fraction), "fill-opacity": 0.85}))
            title.append(f"{marks.heat_title}: {number(heat)}")
        parts.append(drawing.under)
        if name in (marks.last or ()):
            parts.append(self._frame(cell, 0.84, theme.last, "mark-last", r * 0.16))
            title.append("last move")
        if name in marks.selected:
            parts.append(self._frame(cell, 0.9, theme.selected, "mark-selected", r * 0.1))
            parts.append(self._frame(cell, 0.7, theme.selected, "", r * 0.1))
            title.append("selected")
        parts.append(drawing.pieces)
        if name in marks.targets:
            cx, cy = cell.centre
            if drawing.pieces:
                parts.append(element("circle", {"class": "mark-target", "cx": cx, "cy": cy, "r": r * 0.95,
                                                "fill": "none", "stroke": theme.target, "stroke-width": r * 0.14}))
            else:
                parts.append(element("circle", {"class": "mark-target", "cx": cx, "cy": cy, "r": r * 0.3,
                                                "fill": theme.target, "fill-opacity": 0.8}))
            title.append("a possible move")
        if name in marks.flagged:
            parts.append(self._flag(cell, marks.flagged[name]))
            title.append(marks.flagged[name])
        return group({"class": "cell", "data-cell": name}, [element("title", None, "; ".join(title)), *parts])

    def _frame(self, cell: Cell, factor: float, colour: str, css: str, width: float) -> str:
        return polygon(shrink(cell.outline, cell.centre, factor),
                       {"class": css or None, "fill": "none", "stroke": colour, "stroke-width": width,
                        "stroke-linejoin": "round"})

    def _flag(self, cell: Cell, reason: str) -> str:
        cx, cy = cell.centre
        r = cell.radius
        x, y = cx + r * 0.55, cy - r * 0.55
        s = r * 0.5
        triangle = polygon([(x, y - s), (x + s * 0.95, y + s * 0.7), (x - s * 0.95, y + s * 0.7)],
                           {"fill": self.theme.flag, "stroke": "#FFFFFF", "stroke-width": r * 0.05})
        bang = label(x, y + s * 0.15, "!", s * 1.1, {"fill": "#FFFFFF", "font-weight": "bold"})
        return group({"class": "mark-flag"}, [element("title", None, reason), triangle, bang])

    # -- legends and text -----------------------------------------------------------------------

    def _heat_legend(self, title: str, top: float) -> None:
        """Seven swatches from none to the most, under everything else; grows the picture to make room."""
        y = self.height
        unit = min(self.width / 14, 24.0)
        x0 = (self.width - 7 * unit) / 2
        size = unit * 0.5
        parts = [label(self.width / 2, y + size * 0.7, title, size, {"fill": self.theme.text})]
        for step in range(7):
            parts.append(element("rect", {"x": x0 + step * unit, "y": y + size * 1.6, "width": unit,
                                          "height": unit * 0.6, "fill": heat_colour(step / 6),
                                          "stroke": self.theme.muted, "stroke-width": 0.3}))
        low_high = y + size * 1.6 + unit * 0.6 + size * 0.8
        parts.append(label(x0, low_high, "0", size * 0.9, {"fill": self.theme.text}))
        parts.append(label(x0 + 7 * unit, low_high, number(top), size * 0.9, {"fill": self.theme.text}))
        self.above.append(group({"class": "heat-legend"}, parts))
        self.height = low_high + size * 1.2

    def labels(self, candidates: Iterable[tuple[float, float, str]], size: float, gap: float) -> None:
        """Coordinate labels, in order of priority: one that would stand within ``gap`` of a label
        already placed is left out (two edges of a hex board meet at a corner)."""
        placed: list[tuple[float, float]] = []
        parts = []
        size = self.legible(size)
        for x, y, words in candidates:
            if any((x - px) ** 2 + (y - py) ** 2 < gap * gap for px, py in placed):
                continue
            placed.append((x, y))
            parts.append(label(x, y, words, size, {"fill": self.theme.muted}))
        self.above.append(group({"class": "coordinates"}, parts))

    def text_lines(self, x: float, y: float, lines: Iterable[str], size: float, *, anchor: str = "start",
                   css: str = "") -> float:
        """Lines of text from ``(x, y)`` down, broken to end half a line's height before the picture's
        right edge (measured in the picture's font, :mod:`.metrics`); returns the ``y`` below the last.
        Never smaller than :meth:`readable` allows."""
        size = max(size, self.readable())
        room = self.width - x - size * 0.5
        wrapped = [piece for line in lines for piece in (wrap_lines(line, room, size) if anchor == "start" else [line])]
        parts = []
        for line in wrapped:
            parts.append(element("text", {"x": x, "y": y + size, "font-size": size, "text-anchor": anchor,
                                          "fill": self.theme.text}, line))
            y += size * 1.35
        self.above.append(group({"class": css or None}, parts))
        return y

    def legible(self, size: float) -> float:
        """``size`` (user units), or larger, so that it shows at :data:`BOARD_TEXT_PX` at least where the
        theme says how wide the picture is shown (a phone)."""
        if not self.theme.shown_at or not self.theme.board_text_floor:
            return size
        return max(size, BOARD_TEXT_PX * self.width / self.theme.shown_at)

    def readable(self) -> float:
        """The smallest type (user units) that reads as :data:`CAPTION_PX` where the theme says how wide
        the picture is shown (0: not known)."""
        return CAPTION_PX * self.width / self.theme.shown_at if self.theme.shown_at else 0.0

    def caption(self, lines: Iterable[str], *, css: str = "status", gap: float = 0.0) -> None:
        """Lines under everything drawn so far, growing the picture to hold them, in type sized to the
        picture's width, and at least :data:`CAPTION_PX` where the theme says how wide it is shown."""
        size = max(self.width / 34, self.readable())
        self.height = self.text_lines(size * 0.8, self.height + gap, lines, size, css=css) + size * 0.5

    # -- the whole --------------------------------------------------------------------------------

    def svg(self, title: str, description: str, size: float | str | None = None) -> str:
        """The standalone SVG: scalable (``viewBox``), ``role="img"`` with a title and a description.

        ``size``: the width (a number of pixels, or a length such as ``"180mm"``); the height keeps
        the proportions. ``None``: no size, the picture fills its container's width.
        """
        if self._heat is not None:
            self._heat_legend(*self._heat)
            self._heat = None
        width, height = self.width, self.height
        sizes: dict[str, object] = {}
        if size is not None:
            amount, unit = _split_length(size)
            sizes = {"width": f"{number(amount)}{unit}", "height": f"{number(amount * height / width)}{unit}"}
        root = {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {number(width)} {number(height)}",
                **sizes, "role": "img", "aria-label": title, "font-family": self.theme.font,
                "class": "boardlab-board"}
        background = element("rect", {"width": width, "height": height, "fill": self.theme.background})
        body = [element("title", None, title), element("desc", None, description), background,
                group({"class": "below"}, self.below), group({"class": "cells"}, self._cells),
                group({"class": "above"}, self.above)]
        return element("svg", root, *body, text=False) + "\n"


def _split_length(size: float | str) -> tuple[float, str]:
    if isinstance(size, int | float):
        if size <= 0:
            raise RenderError(f"size={size}: a picture's width must be positive")
        return float(size), ""
    text = size.strip()
    digits = text.rstrip("abcdefghijklmnopqrstuvwxyz%")
    try:
        amount = float(digits)
    except ValueError:
        raise RenderError(f"size={size!r}: expected a positive number of pixels or a length such as "
                          f"'180mm', '7in', '20cm'") from None
    if amount <= 0 or text[len(digits):] not in ("", "px", "mm", "cm", "in", "pt", "%"):
        raise RenderError(f"size={size!r}: expected a positive number with px, mm, cm, in, pt or %")
    return amount, text[len(digits):]
