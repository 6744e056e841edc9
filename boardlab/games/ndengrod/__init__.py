"""Ndengrod, by Cameron Browne's program Ludi (2007), announced on pbmserv in 2008; later sold as Pentalath.

Source: seed ``001`` (the pbmserv-users announcement and help text of 27 August 2008); every
ambiguity is discussed under its ID in ``rules-notes.md`` §3, and ``docs/rules/ndengrod.md`` states
the rules as implemented.

Rules (defaults are the seed's):

- Two players, x and o, on a hexagonal board of hexagonal cells, ``size`` cells a side (5: 61 cells),
  initially empty. x moves first (N4).
- On a turn a player places one stone of their colour on any empty cell.
- Then every enemy group (stones of one colour joined along cell edges) with no *freedom* (no
  adjacent empty cell) is removed; then the mover's own group, if it has none (N1, N7). So a move
  may create its own freedom by capturing; a placement that leaves its own group without freedom
  is legal and removes that group (``self_capture=False``: such a placement is illegal).
- After the removals, a line of ``length`` (5) or more of the mover's stones along any of the three
  axes wins (N2, N3).
- Added rules (N6), not in the seed: threefold repetition of a position (stones and player to move)
  is a draw; so is reaching ``ply_cap`` plies. Where no placement is legal (only possible with
  ``self_capture=False`` or superko) the player passes; two passes in a row draw.
- Option ``swap`` (N5): on their first turn the second player may swap colours instead of placing.

Notation (pbmserv): rows ``a``, ``b``, … from the top; cells numbered along the ``/`` diagonals, so
``d3`` is row d, diagonal 3. Also ``pass`` and ``swap``.
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GRAVE_LEVELS, GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
GAME = GamePackage.conventional(__name__, INFO, "Ndengrod", tuned_search=GRAVE_LEVELS)
