"""Hex board diagrams as test data (sgfmill style): read a drawn board back into position text.

The diagram is what ``str(state)`` prints: a line per row, ``a-`` then the cells (``.``, ``x``,
``o``); diagonal numbers and ``/`` marks are ignored, so a diagram may be copied from the output.
"""

from __future__ import annotations

import re
import textwrap

from boardlab.core.facekit import write_row

ROW = re.compile(r"\s*([a-z])-\s(.*)")


def board_field(diagram: str) -> str:
    """The board part of the position text for a drawn board."""
    rows = []
    for line in textwrap.dedent(diagram).splitlines():
        match = ROW.match(line)
        if not match:
            continue
        cells = [token for token in match.group(2).split() if token in (".", "x", "o")]
        rows.append(write_row(cells))
    return "/".join(rows)


def position(diagram: str, to_move: str = "x", ply: int | None = None, *flags: str) -> str:
    """Position text for a drawn board, with the colour to move and the ply (by default one that
    fits the colour to move: the first player's turns fall on even plies)."""
    if ply is None:
        ply = 41 if to_move in ("o", "w") else 40
    return " ".join([board_field(diagram), to_move, str(ply), *flags])
