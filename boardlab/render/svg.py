"""SVG building blocks: escaped elements, grid geometry, piece shapes and colour-blind-safe palettes.

Elements are strings built with the standard library's XML escaping, so any text (a player's name,
a reason) is safe inside the picture:

>>> element("text", {"x": 1.5, "y": 2, "font-size": 3}, "a < b & c")
'<text x="1.5" y="2" font-size="3">a &lt; b &amp; c</text>'
>>> element("circle", {"r": 4.0, "fill": None})
'<circle r="4"/>'

Colours follow Okabe and Ito's palette for colour-blind readers; every seat's pieces also differ by
shape or fill, so a board reads in grey as well.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]
Attributes = Mapping[str, object]

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision deficiency.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
# Paul Tol's "YlOrBr" sequential scheme (light to dark): heat maps that read in grey too.
HEAT_STOPS = ("#FFFFE5", "#FEE391", "#FEC44F", "#FB9A29", "#EC7014", "#CC4C02", "#8C2D04")


def number(value: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros.

    >>> number(3.0), number(2.456), number(-0.001)
    ('3', '2.46', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attribute_text(attributes: Attributes) -> str:
    parts = []
    for name, value in attributes.items():
        if value is None or value is False:
            continue
        if isinstance(value, float):
            value = number(value)
        parts.append(f" {name}={quoteattr(str(value))}")
    return "".join(parts)


def element(tag: str, attributes: Attributes | None = None, *children: str, text: bool = True) -> str:
    """``<tag …>children</tag>``; attributes that are ``None`` or ``False`` are left out.

    A child given as plain text is escaped; pass ``text=False`` when the children are elements.
    """
    opening = f"<{tag}{_attribute_text(attributes or {})}"
    if not children:
        return opening + "/>"
    body = "".join(escape(child) for child in children) if text else "".join(children)
    return f"{opening}>{body}</{tag}>"


def group(attributes: Attributes | None, children: Iterable[str]) -> str:
    """A ``<g>`` holding ready-made elements."""
    return element("g", attributes, *children, text=False)


def points_text(points: Sequence[Point]) -> str:
    return " ".join(f"{number(x)},{number(y)}" for x, y in points)


def polygon(points: Sequence[Point], attributes: Attributes | None = None) -> str:
    return element("polygon", {"points": points_text(points), **(attributes or {})})


def label(x: float, y: float, words: str, size: float, attributes: Attributes | None = None) -> str:
    """Centred text (``text-anchor`` middle, vertically centred on ``y``)."""
    base = {"x": x, "y": y, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central"}
    return element("text", {**base, **(attributes or {})}, words)


# -- geometry -----------------------------------------------------------------------------------


def hex_corners(cx: float, cy: float, radius: float) -> list[Point]:
    """A pointy-top hexagon's corners (circumradius ``radius``), clockwise from the top."""
    return [(cx + radius * math.sin(math.pi / 3 * k), cy - radius * math.cos(math.pi / 3 * k)) for k in range(6)]


def square_corners(cx: float, cy: float, half: float) -> list[Point]:
    return [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)]


def shrink(points: Sequence[Point], centre: Point, factor: float) -> list[Point]:
    """``points`` pulled toward ``centre`` (factor 1: unchanged)."""
    cx, cy = centre
    return [(cx + (x - cx) * factor, cy + (y - cy) * factor) for x, y in points]


def centroid(points: Sequence[Point]) -> Point:
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


# -- shapes -------------------------------------------------------------------------------------

SHAPES = ("circle", "square", "diamond", "triangle", "cross")


def shape(kind: str, cx: float, cy: float, radius: float, attributes: Attributes | None = None) -> str:
    """A piece outline of ``kind`` (one of :data:`SHAPES`) of about ``radius``, centred on ``(cx, cy)``."""
    attributes = attributes or {}
    if kind == "circle":
        return element("circle", {"cx": cx, "cy": cy, "r": radius, **attributes})
    if kind == "square":
        half = radius * 0.86
        return element("rect", {"x": cx - half, "y": cy - half, "width": 2 * half, "height": 2 * half,
                                "rx": half * 0.18, **attributes})
    if kind == "diamond":
        r = radius * 1.12
        return polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], attributes)
    if kind == "triangle":
        r = radius * 1.15
        return polygon([(cx, cy - r), (cx + r * 0.93, cy + r * 0.62), (cx - r * 0.93, cy + r * 0.62)], attributes)
    if kind == "cross":
        r = radius * 0.72
        d = f"M{number(cx - r)},{number(cy - r)}L{number(cx + r)},{number(cy + r)}" \
            f"M{number(cx + r)},{number(cy - r)}L{number(cx - r)},{number(cy + r)}"
        return element("path", {"d": d, "fill": "none", "stroke-linecap": "round", **attributes})
    raise ValueError(f"unknown shape {kind!r}; accepted: {', '.join(SHAPES)}")


@dataclass(frozen=True)
class PieceStyle:
    """How one colour's pieces look: fill, outline, the ink written on them, and a shape."""

    name: str
    fill: str
    stroke: str
    ink: str
    shape: str = "circle"

    def draw(self, cx: float, cy: float, radius: float, *, dashed: bool = False, hollow: bool = False,
             width: float | None = None) -> str:
        """The piece (``hollow``: only its outline in its fill colour, as a ring; ``dashed``: a dashed outline)."""
        stroke_width = width if width is not None else max(radius * 0.12, 0.6)
        if self.shape == "cross":
            return shape("cross", cx, cy, radius, {"stroke": self.fill, "stroke-width": radius * 0.34,
                                                  "stroke-dasharray": _dash(radius) if dashed else None})
        if hollow:
            attributes: dict[str, object] = {"fill": "none", "stroke": self.fill, "stroke-width": radius * 0.26}
        else:
            attributes = {"fill": self.fill, "stroke": self.stroke, "stroke-width": stroke_width}
        if dashed:
            attributes["stroke-dasharray"] = _dash(radius)
        return shape(self.shape, cx, cy, radius, attributes)


def _dash(radius: float) -> str:
    return f"{number(radius * 0.32)} {number(radius * 0.22)}"


def heat_colour(fraction: float) -> str:
    """The heat-map colour for ``fraction`` in [0, 1], interpolated between :data:`HEAT_STOPS`.

    >>> heat_colour(0.0), heat_colour(1.0)
    ('#ffffe5', '#8c2d04')
    """
    fraction = min(max(fraction, 0.0), 1.0) * (len(HEAT_STOPS) - 1)
    low = min(int(fraction), len(HEAT_STOPS) - 2)
    t = fraction - low
    a, b = _rgb(HEAT_STOPS[low]), _rgb(HEAT_STOPS[low + 1])
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
