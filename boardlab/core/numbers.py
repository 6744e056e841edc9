"""Numbers read from text that comes from outside (position text, records, pasted moves).

Every number is checked against the largest value the board allows *before* it is converted or
used: a run-length of ``10**9`` empty cells, or a ply of ``2**63``, must be a one-line
:class:`~boardlab.errors.PositionError`, not a gigabyte list, a ``MemoryError`` or an
``OverflowError`` from numpy.

>>> whole_number("12", 30, "row a's run of empty cells")
12
>>> whole_number("9" * 5000, 30, "row a's run of empty cells")
Traceback (most recent call last):
...
boardlab.errors.PositionError: row a's run of empty cells is 9999999999…, more than 30
"""

from __future__ import annotations

from boardlab.errors import PositionError

# The largest ply any position text may give: far past every game's ply cap, and small enough that
# ply arithmetic in the kernels (int64) can never overflow.
MAX_PLY = 10**6


def whole_number(token: str, most: int, what: str, least: int = 0) -> int:
    """``token`` (ASCII digits) as an int from ``least`` to ``most``; else a PositionError naming ``what``."""
    if not (token.isascii() and token.isdecimal()):
        raise PositionError(f"{what} is {token[:12]!r}; expected a whole number in ASCII digits")
    digits = token.lstrip("0") or "0"
    if len(digits) > len(str(most)) or int(digits) > most:
        shown = digits if len(digits) <= 10 else digits[:10] + "…"
        raise PositionError(f"{what} is {shown}, more than {most}")
    value = int(digits)
    if value < least:
        raise PositionError(f"{what} is {value}, less than {least}")
    return value
