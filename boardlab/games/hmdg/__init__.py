"""Hidden Move Double Gomoku, by teucer and Levitating Potato (2008): gomoku with hidden moves.

Source: seed ``002`` (the SF0 task completion "Public Surface", 23 March 2008); every ambiguity is
discussed under its ID in ``rules-notes.md`` §4, and ``docs/rules/hmdg.md`` states the rules as
implemented. The only game here with hidden information: boardlab is the referee that keeps each
player's stones secret and runs the reveal protocol.

Rules (defaults are the seed's, as read in the notes):

- Two players, x and o, on a ``size`` × ``size`` grid (9: rows A–H and J, columns 1–9).
- Setup (H7): player A places one x, in public; player B then chooses to be x or o. x keeps that
  stone; o moves first. (``setup=fixed``: the x sits on the centre, seat 0 is o and moves first.)
- A turn (H1): the mover secretly commits a target point and announces its row or its column. The
  responder may reveal any of their hidden stones on that line (or none). If none are revealed, the
  mover's stone lands on the target, hidden. Otherwise the target is revealed too: the move fails if
  a revealed stone stands on it, else the stone lands there, revealed. Revealed points are closed.
- Targets (H2): any point that is not closed and holds none of the mover's stones; a point holding
  a hidden enemy stone is fine, and then both stones stand there (H3, stacking).
- Win (H5): two lines of ``line_length`` (5) of one's stones, hidden or not, in any of the four
  directions, sharing at most ``max_shared`` (1) points: six in a row does not win, nine does.
- A placement that forms a new five is announced, without its place (H6).
- Added rules (H8): a mover without a legal target passes; two passes in a row draw.

Notation: points are a row letter and a column number (``e5``). Moves: the setup stone ``e5``; a
side ``x`` or ``o``; a commit ``e5/row`` or ``e5/col``; a response ``none`` or ``reveal e3 e7``;
``pass``. Other seats see a commit only as ``row e`` or ``col 5``.
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GRAVE_LEVELS, GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
# Level 4 keeps an exploration term: with none, its 20,000 iterations were no stronger than level 3's 5,000
# (29-0-31); with 0.4 it beat level 3 28-0-12 (docs/findings/ladder.md, "HMDG's level 4").
GAME = GamePackage.conventional(__name__, INFO, "HiddenMoveDoubleGomoku", narrow_layouts=("below",),
                                tuned_search=GRAVE_LEVELS, tuned_levels={4: {"exploration": 0.4}})
