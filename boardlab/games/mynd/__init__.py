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

from boardlab.core.info import GameInfo, Variant
from boardlab.core.options import Option
from boardlab.core.package import GRAVE_LEVELS, GamePackage, Samples

INFO = GameInfo(
    id="mynd",
    name="Mynd",
    designer="Mike Reddy",
    year=2013,
    players=(2, 3, 4),
    rules_version="1",
    summary="Grow, push and wall in territory on a Go board, for 2 to 4 players.",
    source="seed 000: the designer's #1GAM blog post, January 2013 (part 2)",
    options=(
        Option("size", 11, "points along each side of the square board (the seed: 11, 16 or 19)", minimum=5,
               maximum=25),
        Option("players", 2, "number of players, each with one colour and one starting peg", minimum=2,
               maximum=4, ambiguity="M7"),
        Option("supply", "two_thirds_total", "pieces each player has, the starting peg included",
               choices=("two_thirds_total", "fixed_table", "unlimited"), ambiguity="M8",
               choice_help={"two_thirds_total": "two thirds of the board in all, split equally: "
                                                "round(2·size²/3 ÷ players) (40 each on 11×11)",
                            "fixed_table": "round(2·size²/3 ÷ 4) each, whatever the number of players "
                                           "(the seed's 20/43/60)",
                            "unlimited": "as many as the board has points"}),
        Option("sowing", False, "case 1, sowing a seed: a piece may also be placed on any empty point",
               ambiguity="M1"),
        Option("sowing_needs_liberty", False,
               "with sowing: a sown piece, too, needs an empty neighbour (no effect without sowing)",
               ambiguity="M1"),
        Option("liberty_neighbourhood", "8",
               "the neighbours where a grown piece needs an empty point", choices=("8", "4"),
               ambiguity="M2", choice_help={"8": "orthogonal and diagonal", "4": "orthogonal only"}),
        Option("diagonal_links", "chrono_cut", "whether a diagonal pair of one colour walls",
               choices=("chrono_cut", "mutual_cut", "always", "none"), ambiguity="M3",
               choice_help={"chrono_cut": "it walls unless crossed by another colour's later link",
                            "mutual_cut": "it walls unless crossed by another colour's link",
                            "always": "it always walls, crossed or not",
                            "none": "it never walls: only orthogonal walls"}),
        Option("push_mode", "whole_run", "which pieces a push moves", choices=("whole_run", "from_pusher"),
               ambiguity="M4",
               choice_help={"whole_run": "the whole run of touching pieces along the line",
                            "from_pusher": "from one of the mover's pieces (the rear) to the run's end"}),
        Option("push_majority", "combined", "whose pieces the mover's must outnumber in a push",
               choices=("combined", "each_opponent"), ambiguity="M4",
               choice_help={"combined": "all other players' pieces together",
                            "each_opponent": "each other player's pieces separately"}),
        Option("slide", "run_of_one", "whether a single piece may leave its run",
               choices=("run_of_one", "any_own_piece"), ambiguity="M4",
               choice_help={"run_of_one": "only a lone piece slides (a push of a run of one)",
                            "any_own_piece": "also an end piece of a run may step out of it"}),
        Option("push_pegs", True, "starting pegs may be pushed like any piece", ambiguity="M10"),
        Option("territory_rule", "trunk_anchored", "which walled regions are a player's territory",
               choices=("trunk_anchored", "peg_adjacent", "go_area", "smaller_side"), ambiguity="M5",
               choice_help={"trunk_anchored": "interior regions; edge regions beside the trunk without "
                                              "another peg",
                            "peg_adjacent": "as trunk_anchored, but an edge region must touch the peg itself",
                            "go_area": "regions holding no other colour's pieces (as Go area)",
                            "smaller_side": "every region but the largest"}),
        Option("nested", "void", "a point claimed by several players",
               choices=("void", "inner_owner"), ambiguity="M5",
               choice_help={"void": "scores for nobody (the seed)",
                            "inner_owner": "scores for the player whose claiming region is smallest"}),
        Option("lock_on_enclose", False,
               "territory is banked as soon as it is walled and closed to other players", ambiguity="M6"),
        Option("start_layout_2p", "opposite", "where two players' pegs start",
               choices=("opposite", "adjacent"), ambiguity="M7",
               choice_help={"opposite": "bottom-left and top-right", "adjacent": "bottom-left and bottom-right"}),
        Option("edge_midpoint", "left", "on an even board, the middle point of the top edge (3 players)",
               choices=("left", "right"), ambiguity="M7"),
        Option("first_player", 0, "the seat (0-based, clockwise from bottom-left) that moves first",
               minimum=0, maximum=3, ambiguity="M7"),
        Option("superko", "positional", "repeating an earlier position",
               choices=("positional", "situational", "off"), ambiguity="M9",
               choice_help={"positional": "no move may recreate an earlier board",
                            "situational": "no move may recreate an earlier board with the same player to move",
                            "off": "allowed; the third occurrence (with the player to move) is a draw"}),
        Option("end_on", "all_pass_once", "passes that end the game", choices=("all_pass_once", "all_pass_twice"),
               ambiguity="M9",
               choice_help={"all_pass_once": "every player passes in succession",
                            "all_pass_twice": "every player passes twice in succession"}),
        Option("ply_cap", 363, "the game ends and is scored after this many plies; default 3 per point "
                               "(363 on 11×11) (added rule)", minimum=1, maximum=10000, ambiguity="M9",
               added=True),
    ),
    variants=(
        Variant("three_players", {"players": 3}, "three players: pegs bottom-left, top-middle, bottom-right"),
        Variant("four_players", {"players": 4}, "four players, one peg in each corner"),
        Variant("simple", {"diagonal_links": "mutual_cut", "territory_rule": "go_area"},
                "the simplest reading of walls and territory (stateless links, Go-like areas), for "
                "first AI experiments"),
    ),
    end_reasons={1: "passes", 2: "ply cap", 3: "repetition"},
    added_endings={2: "ply_cap (M9)"},
)


GAME = GamePackage.conventional(
    __name__,
    INFO,
    "Mynd",
    tuned_search=GRAVE_LEVELS,
    samples=Samples(
        quick=({"size": 5, "players": 3, "ply_cap": 20},),
        clicked=({"size": 6, "players": 3},),
        drawn=({"size": 7}, {"size": 7, "players": 4}, {"size": 7, "lock_on_enclose": True}),
        largest=({}, {"players": 3}, {"players": 4}),
    ),
)
