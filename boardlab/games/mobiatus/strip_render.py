"""The Möbius strip in perspective: a loop of paper with one half twist, drawn from above and turned over.

The centre line is a circle of radius 1; across it the strip's direction turns from pointing outward
to pointing inward over a short stretch (the twist), so the rest of the loop lies flat and its cells
stay wide. Paper square ``(column, row)`` spans an arc of the loop and a band of the width. Of its two
faces, the front ``(column, row)`` and the back (``column + length``, mirrored row, in double-cover
coordinates), the picture shows the one whose side of the paper faces the camera; the second
picture shows the strip turned over (about the left–right axis), where the other faces are up.
Squares are painted far to near.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardlab.core.cells import CellContent
from boardlab.core.mobius import MobiusStrip
from boardlab.render.picture import Cell, CellDrawing, Marks, Picture, Theme
from boardlab.render.svg import OKABE_ITO, element, label

Vector = tuple[float, float, float]

ELEVATION = math.radians(52)  # the camera's height above the strip's plane, as an angle
DISTANCE = 6.0  # camera distance (perspective strength), in ring radii
TWIST_AT = 1.5 * math.pi  # the twist faces the viewer, at the front of the loop
TWIST_SPREAD = 1.15  # half the arc (radians) over which the strip turns over
SCALE = 260.0  # user units per ring radius on screen


def draw_strip(strip: MobiusStrip, contents: list[CellContent], marks: Marks, theme: Theme,
               cell_drawing: Callable[[Cell, CellContent, Theme], CellDrawing]) -> Picture:
    views = [_project(strip, turned) for turned in (False, True)]
    xs = [x for view in views for quad in view for x, _ in quad[2]]
    ys = [[y for quad in view for _, y in quad[2]] for view in views]
    pad, caption = 64.0, 30.0
    width = max(xs) - min(xs) + 2 * pad
    heights = [max(y) - min(y) for y in ys]
    picture = Picture(width, sum(heights) + 2 * (pad + caption) + pad, theme)
    names = [content.name for content in contents]
    drawings: list[CellDrawing] = []
    top = pad
    for turned, view, y_values, height in zip((False, True), views, ys, heights, strict=True):
        dx, dy = pad - min(xs), top + caption - min(y_values)
        heading = "Seen from above" if not turned else "The same strip turned over: the other faces"
        picture.above.append(element("text", {"x": pad, "y": top + caption * 0.6, "font-size": 20,
                                              "font-weight": "bold", "fill": theme.text}, heading))
        for face, _, outline, centre, radius in view:
            moved = tuple((x + dx, y + dy) for x, y in outline)
            cell = Cell(names[face], (centre[0] + dx, centre[1] + dy), moved, radius)
            drawings.append(cell_drawing(cell, contents[face], theme))
        _seam_and_labels(picture, strip, turned, dx, dy, theme)
        top += caption + height + pad
    picture.add_cells(drawings, marks)
    return picture


def _twist(u: float) -> float:
    t = min(max((u - (TWIST_AT - TWIST_SPREAD)) / (2 * TWIST_SPREAD), 0.0), 1.0)
    return math.pi * t * t * (3 - 2 * t)


def _point(u: float, v: float, turned: bool) -> Vector:
    theta = _twist(u)
    radial = (math.cos(u), math.sin(u), 0.0)
    across = (math.cos(theta) * radial[0], math.cos(theta) * radial[1], math.sin(theta))
    x, y, z = (radial[k] + v * across[k] for k in range(3))
    return (x, -y, -z) if turned else (x, y, z)


def _camera() -> tuple[Vector, Vector, Vector, Vector]:
    eye = (0.0, -DISTANCE * math.cos(ELEVATION), DISTANCE * math.sin(ELEVATION))
    forward = (0.0, math.cos(ELEVATION), -math.sin(ELEVATION))
    up = (0.0, math.sin(ELEVATION), math.cos(ELEVATION))
    return eye, forward, (1.0, 0.0, 0.0), up


def _screen(point: Vector) -> tuple[float, float, float]:
    eye, forward, right, up = _camera()
    rel = tuple(point[k] - eye[k] for k in range(3))
    depth = sum(rel[k] * forward[k] for k in range(3))
    focal = DISTANCE * SCALE
    return (focal * sum(rel[k] * right[k] for k in range(3)) / depth,
            -focal * sum(rel[k] * up[k] for k in range(3)) / depth, depth)


def _half_width(strip: MobiusStrip) -> float:
    return min(math.pi * strip.width / strip.length, 0.45)


def _normal(u: float, v: float, turned: bool) -> Vector:
    """The front side's normal at ``(u, v)``: the derivative along the loop × across the strip."""
    du = [q - p for p, q in zip(_point(u - 1e-3, v, turned), _point(u + 1e-3, v, turned), strict=True)]
    dv = [q - p for p, q in zip(_point(u, v - 1e-3, turned), _point(u, v + 1e-3, turned), strict=True)]
    return du[1] * dv[2] - du[2] * dv[1], du[2] * dv[0] - du[0] * dv[2], du[0] * dv[1] - du[1] * dv[0]


def _front_faces_camera(u: float, v: float, turned: bool) -> bool:
    eye, point, normal = _camera()[0], _point(u, v, turned), _normal(u, v, turned)
    return sum(normal[k] * (eye[k] - point[k]) for k in range(3)) > 0


def _project(strip: MobiusStrip, turned: bool) -> list[tuple[int, float, tuple[tuple[float, float], ...],
                                                             tuple[float, float], float]]:
    """Per paper square: the face shown, its depth, its outline, centre and piece radius, far to near.

    The turned-over picture shows exactly the faces the first does not, edge-on squares included.
    """
    length, width = strip.length, strip.width
    half = _half_width(strip)
    quads = []
    for column in range(length):
        u0, u1 = 2 * math.pi * column / length, 2 * math.pi * (column + 1) / length
        um = (u0 + u1) / 2
        for row in range(width):
            v0, v1 = -half + 2 * half * row / width, -half + 2 * half * (row + 1) / width
            vm = (v0 + v1) / 2
            front = strip.face(column, row)
            shows_front = _front_faces_camera(um, vm, False) != turned
            face = front if shows_front else strip.opposite(front)
            corners = [_point(u, v, turned) for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
            sx, sy, depth = _screen(_point(um, vm, turned))
            spans = [math.dist(_screen(_point(um, v0, turned))[:2], _screen(_point(um, v1, turned))[:2]),
                     math.dist(_screen(_point(u0, vm, turned))[:2], _screen(_point(u1, vm, turned))[:2])]
            quads.append((face, depth, tuple(_screen(c)[:2] for c in corners), (sx, sy), 0.42 * min(spans)))
    quads.sort(key=lambda quad: -quad[1])
    return quads


def _seam_and_labels(picture: Picture, strip: MobiusStrip, turned: bool, dx: float, dy: float, theme: Theme) -> None:
    half = _half_width(strip)
    a, b = (_screen(_point(0.0, v, turned))[:2] for v in (-half * 1.12, half * 1.12))
    picture.above.append(element("line", {"x1": a[0] + dx, "y1": a[1] + dy, "x2": b[0] + dx, "y2": b[1] + dy,
                                          "stroke": OKABE_ITO["purple"], "stroke-width": 4,
                                          "stroke-dasharray": "7 4", "class": "seam"}))
    picture.above.append(label(a[0] + dx - 24, a[1] + dy, "seam", 15, {"fill": OKABE_ITO["purple"]}))
    for column in range(strip.length):
        if column and (column + 1) % 5:
            continue
        u = 2 * math.pi * (column + 0.5) / strip.length
        outward = math.cos(_twist(u)) >= 0
        v = half * 1.3 * (1 if outward else -1)
        x, y, _ = _screen(_point(u, v, turned))
        board = "F" if _front_faces_camera(u, 0.0, False) != turned else "B"
        picture.above.append(label(x + dx, y + dy, f"{board}{column + 1}", 15, {"fill": theme.muted}))

