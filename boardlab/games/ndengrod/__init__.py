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

from boardlab.core.info import GameInfo, Variant
from boardlab.core.options import read_options
from boardlab.core.package import GRAVE_LEVELS, GamePackage, Samples

INFO = GameInfo(
    id="ndengrod",
    name="Ndengrod",
    designer="Cameron Browne (Ludi)",
    year=2007,
    players=(2,),
    rules_version="1",
    summary="Make a line of five on a hex board; groups without freedom are captured.",
    source="seed 001: pbmserv announcement, 27 Aug 2008",
    options=read_options(__name__),  # options.toml
    variants=(
        Variant("pbmserv_revised", {"self_capture": False, "swap": True},
                "pbmserv's later help page: no suicide, first-move swap"),
        Variant("pentalath", {"self_capture": False, "swap": True, "board": "trapezoid"},
                "the published Pentalath: 70-cell trapezoid, no suicide, swap"),
        Variant("ludii", {"self_capture": False, "board": "trapezoid"},
                "Ludii's Pentalath.lud: 70-cell trapezoid, no suicide, no swap"),
    ),
    end_reasons={1: "line", 2: "repetition", 3: "ply cap", 4: "passes"},
    added_endings={2: "repetition (N6)", 3: "ply_cap (N6)", 4: "passes (N6)"},
)


GAME = GamePackage.conventional(
    __name__,
    INFO,
    "Ndengrod",
    tuned_search=GRAVE_LEVELS,
    samples=Samples(
        quick=({"size": 3, "length": 3, "ply_cap": 9},),
        clicked=({"size": 3, "length": 3, "swap": True},),
        drawn=({}, {"board": "trapezoid", "size": 4, "length": 4}, {"swap": True}),
        largest=({}, {"size": 8}),
    ),
)
