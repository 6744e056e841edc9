"""Get thee behind me… (GTBM), by Mike Reddy (2013), a #1GAM game for a draughts board.

Source: seed ``000`` (the blog post "Two #1GAM board games – 'Mynd' and 'Get thee behind me…'",
January 2013), first part; every ambiguity is discussed under its ID in ``rules-notes.md`` §1, and
``docs/rules/gtbm.md`` states the rules as implemented.

Rules (defaults are the seed's):

- Two players, Black and White, on an 8×8 board (option ``size``: any even N from 4 to 26, N pieces
  each; the seed allows 16×16). Each starts with a full home row: Black on rank 1 at the bottom,
  White on rank N at the top. Black moves first (G7).
- A move is one step onto an empty square: diagonally forward-left or forward-right, or straight
  back (G2). Nothing jumps and nothing is promoted: on the far row a piece can only step back (G4).
- A diagonal step that lands directly behind an enemy piece, i.e. the enemy stands beside the start
  square on the side the mover steps toward, removes it (G1); a straight-back step never captures
  ("no backstabbing"). Options: ``capture_reach=column`` and ``diagonal_also`` read the capture wider;
  ``mandatory_capture`` makes taking compulsory (G3).
- The player to move who has no legal move (having no pieces included) loses if the opponent could
  move, else the game is drawn (G5; ``stuck_check`` for the alternative reading).
- Added rules (G6), not in the seed: threefold repetition draws; so do ``no_capture_limit`` plies in a
  row without a capture (``cap_adjudication=most_pieces``: the player with more pieces wins then).

Notation: squares as in chess (files ``a``… from Black's left, ranks ``1``… from Black's side); a
move ``c3-d4``, a capture ``c3-d4xd3`` (naming the square of the piece taken).
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
# Its levels search by alpha-beta (search_algorithm), which none of the MCTS enhancements apply to;
# levels 2-5 keep a transposition table, measured at equal time against the levels of 2026
# (docs/findings/search.md, GTBM).
GAME = GamePackage.conventional(__name__, INFO, "Gtbm", tuned_search={"table": True})
