"""Horsmeier's strength race: Jos Horsmeier's untitled 11×11 game (described on Usenet in 1994).

Source: seed ``004`` (the rec.games.design article "game board design", jos@and.nl, 1994); every
ambiguity is discussed under its ID in ``rules-notes.md`` §6, and ``docs/rules/horsmeier.md`` states
the rules as implemented. The designer never built a board for it, because every piece's strength and
life span change as it plays; boardlab's board shows both.

Rules (defaults follow the rules notes):

- Two players, White and Black, on 11×11 squares, eleven pieces each: five of strength 1, three of
  2, two of 3 and one of 5, laid out as in the seed (White's home is row 1, at the bottom; J1).
  White moves first (J11; ``first_player``).
- A move takes one piece one square left, right, forward or back. Pieces are never captured.
- Physical block: a piece cannot move onto an occupied square. Strength block (J2): a move from row r
  to row r' is illegal when the opponent's strength on row r' is at least the mover's strength on row
  r (the sum over the mover's pieces there); options exempt sideways or backward moves, or count only
  the moving piece.
- After the move (J5): a piece that reaches the far row wins at once (J8). Otherwise a forward move
  may upgrade the piece one step along 1→2→3→5→8 (J3; ``upgrade_rule``), and a backward move that
  ends below row n (counted from its owner's side) degrades a strength-n piece one step (J4). The
  moved piece's life span resets to 11; every other piece of the mover loses one (J7). A piece whose
  life span reaches 0 degrades one step and starts a new life of 11; a strength-1 piece is removed
  instead (J6; ``expiry_rule``). The opponent's pieces are not touched. (``expiry_rule=never``, an
  added rule for playtests, stops the life-span clock: no piece ever expires.)
- Added rules, not in the seed: a player with no legal move passes, and all of their pieces age one
  turn (J9; ``no_move_rule``); a player with no pieces left loses. Threefold repetition of the whole
  state draws, and so does reaching ``ply_cap`` plies (J10).

Notation: squares ``a1``–``k11`` (files from the left, rows from White's side); a move ``f5-f6``
(also ``f5f6``, ``f5 f6``, or ``f5n`` with a compass direction), or ``pass``.
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GRAVE_LEVELS, GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
GAME = GamePackage.conventional(__name__, INFO, "Horsmeier", narrow_layouts=("narrow",), tuned_search=GRAVE_LEVELS)
