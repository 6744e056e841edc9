"""Paper and pages: sizes in millimetres, margins, and pictures placed to fit.

A page is an SVG document whose user unit is the millimetre (``viewBox`` = the paper, ``width`` and
``height`` in ``mm``), so cairosvg makes a PDF page of exactly the paper's size. A board drawn by
:mod:`boardlab.render` is embedded as a nested ``<svg>`` scaled to the room left, keeping its
proportions; :meth:`Page.place` says the scale it got, in millimetres per user unit, so pieces to
cut out can be drawn at the size of the printed cells.

>>> page = Page(PAPERS["a4"], "Test")
>>> box = page.place('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><g/></svg>', page.top)
>>> round(box.scale, 2), round(box.width, 1), round(box.height, 1)
(1.86, 186.0, 93.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardlab.errors import BoardlabError
from boardlab.render.svg import element, number

MARGIN = 12.0  # mm: inside every printer's unprintable border
TITLE_SIZE = 6.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float


PAPERS = {"a4": Paper("a4", 210.0, 297.0), "letter": Paper("letter", 215.9, 279.4)}


def paper_named(name: str) -> Paper:
    if name.lower() not in PAPERS:
        raise BoardlabError(f"--paper {name}: unknown paper; accepted: {', '.join(PAPERS)}")
    return PAPERS[name.lower()]


@dataclass(frozen=True)
class Box:
    """Where a picture went: its top left corner, size (mm) and scale (mm per user unit)."""

    x: float
    y: float
    width: float
    height: float
    scale: float


_VIEWBOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def view_box(svg: str) -> tuple[float, float]:
    """The width and height of a standalone SVG's ``viewBox`` (those boardlab draws start at 0 0)."""
    found = _VIEWBOX.search(svg)
    if found is None:
        raise ValueError("an SVG without a viewBox starting at 0 0")
    return float(found.group(1)), float(found.group(2))


class Page:
    """One page of ``paper`` with a title; drawn on in millimetres from the top left corner."""

    def __init__(self, paper: Paper, title: str, *, kind: str = "page", landscape: bool = False) -> None:
        self.paper, self.title, self.kind, self.landscape = paper, title, kind, landscape
        # a long title is set smaller rather than run off the page
        size = min(TITLE_SIZE, (self.width - 2 * MARGIN) / (0.62 * max(len(title), 1)))
        self.parts: list[str] = [element("text", {"x": MARGIN, "y": MARGIN + size * 0.8, "font-size": size,
                                                  "font-weight": "bold", "class": "page-title"}, title)]
        self.top = MARGIN + TITLE_SIZE * 1.6
        self.footer = ""

    @property
    def width(self) -> float:
        return self.paper.height if self.landscape else self.paper.width

    @property
    def height(self) -> float:
        return self.paper.width if self.landscape else self.paper.height

    @property
    def inner_width(self) -> float:
        return self.width - 2 * MARGIN

    @property
    def bottom(self) -> float:
        return self.height - MARGIN

    def add(self, svg: str) -> None:
        self.parts.append(svg)

    def place(self, svg: str, y: float, *, max_height: float | None = None, max_width: float | None = None,
              x: float | None = None) -> Box:
        """A standalone SVG as large as fits from ``y`` down (centred unless ``x`` is given)."""
        width, height = view_box(svg)
        room_w = max_width if max_width is not None else self.inner_width
        room_h = max_height if max_height is not None else self.bottom - y
        scale = min(room_w / width, room_h / height)
        box = Box(x if x is not None else (self.width - width * scale) / 2, y, width * scale, height * scale, scale)
        opening = svg.index(">", svg.index("<svg")) + 1
        inner = svg[opening:svg.rindex("</svg>")]
        self.parts.append(element("svg", {"x": box.x, "y": box.y, "width": box.width, "height": box.height,
                                          "viewBox": f"0 0 {number(width)} {number(height)}"}, inner, text=False))
        return box

    def svg(self) -> str:
        """The page as a standalone SVG document of the paper's size."""
        root = {"xmlns": "http://www.w3.org/2000/svg", "width": f"{number(self.width)}mm",
                "height": f"{number(self.height)}mm", "viewBox": f"0 0 {number(self.width)} {number(self.height)}",
                "font-family": FONT, "data-page": self.kind}
        background = element("rect", {"width": self.width, "height": self.height, "fill": "#FFFFFF"})
        footer = element("text", {"x": self.width / 2, "y": self.height - MARGIN / 2, "font-size": 2.6,
                                  "fill": "#6E6E6E", "text-anchor": "middle", "class": "footer"}, self.footer)
        return element("svg", root, background, *self.parts, footer, text=False) + "\n"
