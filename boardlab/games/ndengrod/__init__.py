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
from boardlab.core.options import Option
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
    options=(
        Option("size", 5, "cells along each side of the board (the trapezoid defaults to 7)", minimum=2,
               maximum=12),
        Option("length", 5, "stones in a row needed to win (a longer line also wins)", minimum=2,
               maximum=23, ambiguity="N3"),
        Option("self_capture", True,
               "true: a placement that leaves its own group without freedom is legal and removes that "
               "group (the seed); false: it is illegal (Pentalath, Ludii)", ambiguity="N1"),
        Option("win_check", "after_captures",
               "when a line is looked for", choices=("after_captures", "before_self_capture"),
               ambiguity="N2",
               choice_help={"after_captures": "after all removals: a self-captured line does not win",
                            "before_self_capture": "after enemy removals, before the mover's own"}),
        Option("board", "hexhex", "board shape", choices=("hexhex", "trapezoid"), ambiguity="N3",
               choice_help={"hexhex": "a hexagon of side `size` (the seed)",
                            "trapezoid": "the top half of a hexhex of side `size`, middle row included: "
                                         "70 cells at size 7 (original Ludi board, Ludii's default)"}),
        Option("swap", False, "the second player may swap colours instead of making the second move",
               ambiguity="N5"),
        Option("repetition", "draw", "what repeating a position does (added rule)",
               choices=("draw", "superko", "off"), ambiguity="N6", added=True,
               choice_help={"draw": "the third occurrence of a position (stones, player to move) draws",
                            "superko": "a placement may not recreate an earlier position",
                            "off": "no repetition rule (the ply cap still ends the game)"}),
        Option("ply_cap", 300, "the game is drawn when this many plies have been played (added rule)",
               minimum=1, maximum=10000, ambiguity="N6", added=True),
    ),
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
