"""The errors boardlab raises: each says what was wrong and what is accepted.

Every error is a :class:`BoardlabError`, and also a :class:`ValueError`, so
callers that only care about "bad input" can catch either.

>>> import boardlab
>>> try:
...     boardlab.load("ndengrod", size=1)
... except boardlab.OptionError as error:
...     print(error)
ndengrod: option size=1 is out of range; accepted: an integer from 2 to 12
"""

from __future__ import annotations


class BoardlabError(ValueError):
    """Base of every error boardlab raises on bad input."""


class OptionError(BoardlabError):
    """An unknown game, an unknown option, or an option value that is not accepted."""


class IllegalMove(BoardlabError):
    """A move that the rules do not allow in this position (the message says why)."""


class InvalidMove(IllegalMove):
    """Text that is not a move in the game's notation at all (the message gives the notation)."""


class PositionError(BoardlabError):
    """Position text that is malformed or describes an impossible position."""


class RecordError(BoardlabError):
    """A game record that cannot be read, or whose moves do not replay."""
