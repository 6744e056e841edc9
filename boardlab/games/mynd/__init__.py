"""Mynd, by Mike Reddy (2013, #1GAM): growth, pushes and territory for 2 to 4 players on a Go board.

Source: seed ``000`` (the designer's blog post, part 2, "Mynd" is Welsh for "go"); every ambiguity
is discussed under its ID in ``rules-notes.md`` §2, and ``docs/rules/mynd.md`` states the rules as
implemented, with the options for every other reading.

Rules (defaults in brackets):

- 2, 3 or 4 players (``players``), one colour each: black, white, red, green, on a board of
  ``size`` x ``size`` points (11; the seed also names 16 and 19). Each starts with one *peg* on a
  corner (3 players: bottom-left, top-middle, bottom-right); play goes clockwise from bottom-left
  (M7). Each player has a supply of pieces, the peg included (M8): two thirds of the board, shared.
- On a turn a player does one of:
  *grow the twig*: place a piece on an empty point next to (diagonals too) one of their pieces,
  where it has an empty neighbour (M2); *sow a seed*: place anywhere, only with ``sowing`` (M1);
  *push* (extend the branch): move a whole row or column run of touching pieces one point along
  its line, if the mover's pieces in it outnumber the others' and nothing would leave the board
  (M4, M10); or *pass* (M9).
- A diagonal pair of one player's pieces is a link that walls; where two players' links cross in a
  2x2 block, the older one is cut ("cutting the bark", M3).
- A region of points walled off by a player's pieces and the edges is theirs if it touches no edge,
  or if it touches the edge, borders their *trunk* (the pieces joined to their peg) and holds no
  other peg (M5). Only empty points score; points claimed by several players score for nobody.
- No move may repeat an earlier position (positional superko). The game ends when every player has
  passed in succession, or, as an added rule, at ``ply_cap`` plies (M9); the territory is scored,
  the top score wins, seats tied on top each get a draw.

Notation (Go): columns ``a``-``z`` without ``i``, rows ``1`` up from the bottom: ``d4`` places; a
push names its pieces from rear to front and its direction, ``d4-d6^`` (``^ > v <``: up, right,
down, left), ``d4^`` for one piece; ``pass``.
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GRAVE_LEVELS, GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
GAME = GamePackage.conventional(__name__, INFO, "Mynd", tuned_search=GRAVE_LEVELS)
