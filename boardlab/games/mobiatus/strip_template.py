"""Möbiatus' strip to print on both sides of a sheet, cut out and glue into a Möbius strip.

The strip runs down the page in one or more pieces side by side (as many as make the squares
largest). The front side shows board F, every square named (``F12c``); the back side, printed on
the other side of the same sheet with a flip on the long edge, shows board B mirrored left to right,
so that each back square lies behind its front square (``B12c`` behind ``F12c``), as the game's
two faces of one paper square. Each piece ends in a tab:

- a *join tab* (between pieces) repeats the next piece's first column; it is glued over that
  column, front side up, so the front reads on and the back stays uncovered;
- the *twist tab* (after the last column) carries B1's names with the rows flipped (``B1e`` at row
  a): give the strip a half twist and glue it over B1, the back of the first column, letters on
  letters. Going on past F30a then leads to B1e, as the rules say ("a left-right flip").

The tabs' other sides are marked for glue. Cells carry ``data-cell`` (front and back alike).

>>> from boardlab.core.mobius import MobiusStrip
>>> template = strip_template(MobiusStrip(30, 5), 210.0, 12.0, 30.0, 186.0, 240.0)
>>> template.pieces, round(template.square, 1)
(2, 14.1)
>>> template.front.count('data-cell="F'), template.back.count('data-cell="B')
(150, 150)
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.mobius import ROW_LETTERS, MobiusStrip
from boardlab.render.svg import OKABE_ITO, element, group, label, number

GAP = 14.0  # mm between pieces (room to cut, and for the pieces' labels)
LARGEST = 20.0  # mm: bigger squares only waste paper
INK = "#000000"
NAME = "#6E6E6E"


@dataclass(frozen=True)
class StripTemplate:
    front: str
    back: str
    pieces: int
    square: float  # mm


def _layout(strip: MobiusStrip, width: float, height: float) -> tuple[int, float]:
    """The number of pieces that makes the squares largest, and that square's side (mm)."""
    best = (1, 0.0)
    for pieces in range(1, 7):
        columns = -(-strip.length // pieces)
        square = min(height / (columns + 2), (width - (pieces - 1) * GAP) / (pieces * strip.width), LARGEST)
        if square > best[1] + 0.01:
            best = (pieces, square)
    return best


def strip_template(strip: MobiusStrip, page_width: float, x: float, y: float, width: float,
                   height: float) -> StripTemplate:
    """Both sides of the strip in the box ``(x, y, width, height)`` (mm) of a page ``page_width`` wide;
    the back's coordinates are for the same page printed on the sheet's other side."""
    pieces, s = _layout(strip, width, height)
    columns = -(-strip.length // pieces)
    spans = [(start, min(start + columns, strip.length)) for start in range(0, strip.length, columns)]
    total = len(spans) * strip.width * s + (len(spans) - 1) * GAP
    left0 = x + (width - total) / 2
    top = y + s * 0.2
    front: list[str] = []
    back: list[str] = []
    size = s * 0.27

    def mirror(left: float, w: float) -> float:
        return page_width - left - w

    for number_, (start, end) in enumerate(spans):
        left = left0 + number_ * (strip.width * s + GAP)
        last = end == strip.length
        for column in range(start, end):
            cy = top + (column - start) * s
            for row in range(strip.width):
                cx = left + row * s
                front.append(_square(cx, cy, s, f"F{column + 1}{ROW_LETTERS[row]}", size, True))
                back.append(_square(mirror(cx, s), cy, s, f"B{column + 1}{ROW_LETTERS[row]}", size, True))
        tab_y = top + (end - start) * s
        if last:
            names = [f"B1{ROW_LETTERS[strip.width - 1 - row]}" for row in range(strip.width)]
            words = "twist tab: half a twist, then glue over B1 (letters on letters)"
        else:
            names = [f"F{end + 1}{ROW_LETTERS[row]}" for row in range(strip.width)]
            words = f"join tab: glue over F{end + 1}, piece {number_ + 2}"
        for row, name in enumerate(names):
            front.append(_square(left + row * s, tab_y, s, name, size, False))
        front.append(_tab_outline(left, tab_y, strip.width * s, s, last))
        back.append(_glue(mirror(left, strip.width * s), tab_y, strip.width * s, s))
        back.append(_tab_outline(mirror(left, strip.width * s), tab_y, strip.width * s, s, last))
        span_height = (end - start) * s
        for side, piece_left in ((front, left), (back, mirror(left, strip.width * s))):
            side.append(element("rect", {"x": piece_left, "y": top, "width": strip.width * s, "height": span_height,
                                         "fill": "none", "stroke": INK, "stroke-width": 0.5, "class": "cut"}))
            side.append(_vertical_text(piece_left - GAP * 0.3, top + span_height / 2, f"piece {number_ + 1}",
                                       GAP * 0.3))
        fits = (span_height + s) / (0.6 * len(words))  # the words stand beside the piece, no longer than it
        front.append(_vertical_text(left + strip.width * s + GAP * 0.35, tab_y + s, words,
                                    min(s * 0.24, GAP * 0.3, fits), anchor="start",
                                    colour=OKABE_ITO["vermillion"] if last else NAME))
        if last:
            front.append(_twist_mark(left + strip.width * s / 2, tab_y + s * 1.3, s, strip.width * s))
    return StripTemplate(group({"class": "strip-front"}, front), group({"class": "strip-back"}, back), len(spans), s)


def _square(x: float, y: float, s: float, name: str, size: float, cell: bool) -> str:
    attributes = {"class": "cell" if cell else "tab-cell", "data-cell": name if cell else None,
                  "data-covers": None if cell else name}
    return group(attributes, [
        element("rect", {"x": x, "y": y, "width": s, "height": s, "fill": "#FFFFFF" if cell else "#F2F2F2",
                         "stroke": "#9A9A9A", "stroke-width": 0.25}),
        label(x + s / 2, y + s * 0.78, name, size, {"fill": NAME})])


def _tab_outline(x: float, y: float, w: float, s: float, twist: bool) -> str:
    inset = s * 0.18  # chamfered corners, as a tab is usually cut
    d = (f"M{number(x)},{number(y)}L{number(x)},{number(y + s - inset)}L{number(x + inset)},{number(y + s)}"
         f"L{number(x + w - inset)},{number(y + s)}L{number(x + w)},{number(y + s - inset)}"
         f"L{number(x + w)},{number(y)}")
    return element("path", {"d": d, "fill": "none", "stroke": OKABE_ITO["vermillion"] if twist else INK,
                            "stroke-width": 0.5, "class": "cut twist-tab" if twist else "cut join-tab"})


def _glue(x: float, y: float, w: float, s: float) -> str:
    hatch = "".join(f"M{number(x + k * s * 0.35)},{number(y)}l{number(-s * 0.35)},{number(s * 0.35)}"
                    for k in range(1, int(w / (s * 0.35)) + 1))
    return group({"class": "glue"}, [
        element("rect", {"x": x, "y": y, "width": w, "height": s, "fill": "#FFFFFF"}),
        element("path", {"d": hatch, "stroke": "#BBBBBB", "stroke-width": 0.3, "fill": "none"}),
        label(x + w / 2, y + s / 2, "glue", s * 0.35, {"fill": INK, "font-weight": "bold"})])


def _vertical_text(x: float, y: float, words: str, size: float, *, anchor: str = "middle",
                   colour: str = NAME) -> str:
    return element("text", {"x": x, "y": y, "font-size": size, "fill": colour, "text-anchor": anchor,
                            "transform": f"rotate(-90 {number(x)} {number(y)})"}, words)


def _twist_mark(cx: float, cy: float, s: float, across: float) -> str:
    """A ribbon turning over, as wide as the strip: the twist that makes the strip a Möbius strip."""
    w, h = across / 2, s * 0.4
    d = (f"M{number(cx - w)},{number(cy - h / 2)}C{number(cx)},{number(cy - h / 2)} {number(cx)},{number(cy + h / 2)}"
         f" {number(cx + w)},{number(cy + h / 2)}M{number(cx - w)},{number(cy + h / 2)}C{number(cx)},"
         f"{number(cy + h / 2)} {number(cx)},{number(cy - h / 2)} {number(cx + w)},{number(cy - h / 2)}")
    return group({"class": "twist-mark"}, [
        element("path", {"d": d, "stroke": OKABE_ITO["vermillion"], "stroke-width": 0.6, "fill": "none"}),
        label(cx, cy + h * 0.9, "½ twist", s * 0.25, {"fill": OKABE_ITO["vermillion"]})])
