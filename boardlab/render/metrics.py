"""How wide a line of text is drawn, so that lines can be broken to fit a picture (SVG has no wrapping).

Widths are DejaVu Sans's own advances (the pictures' first font: Debian's fonts-dejavu-core),
read from the font files once by ``scripts/font_metrics.py`` into ``font_widths.json``.
A character the table lacks (another script) counts as a full em, so a guess errs on the safe side.

>>> round(text_width("Black to move", 10.0), 2)
71.39
>>> text_width("ab", 10.0, bold=True) > text_width("ab", 10.0)
True
>>> wrap_lines("one two three four", width=50.0, size=10.0)
['one two', 'three four']
"""

from __future__ import annotations

import json
from importlib.resources import files

UNKNOWN = 1000  # thousandths of an em
_TABLE = json.loads(files("boardlab.render").joinpath("font_widths.json").read_text(encoding="utf-8"))
_WIDTHS = {bold: dict(zip(_TABLE["chars"], _TABLE["bold" if bold else "regular"], strict=True))
           for bold in (False, True)}


def text_width(words: str, size: float, *, bold: bool = False) -> float:
    """The advance of ``words`` set in DejaVu Sans at ``size`` (same units as the size)."""
    table = _WIDTHS[bold]
    return sum(table.get(char, UNKNOWN) for char in words) * size / 1000


def wrap_lines(words: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """``words`` broken at spaces into lines no wider than ``width``; a word wider than a whole line
    is cut where it must be (a long name must not run off the picture)."""
    lines: list[str] = []
    line = ""
    for word in words.split():
        for piece in _pieces(word, width, size, bold):
            joined = f"{line} {piece}" if line else piece
            if line and text_width(joined, size, bold=bold) > width:
                lines.append(line)
                joined = piece
            line = joined
    return [*lines, line]


def _pieces(word: str, width: float, size: float, bold: bool) -> list[str]:
    pieces = [""]
    for char in word:
        if pieces[-1] and text_width(pieces[-1] + char, size, bold=bold) > width:
            pieces.append("")
        pieces[-1] += char
    return pieces
