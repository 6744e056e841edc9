"""Mynd's rules, from the seed (000, second part) and the rules notes (§2, IDs M1–M10).

Positions are ASCII diagrams as ``str(state)`` prints them (sgfmill style): :func:`board_field`
reads one back, so expected boards are drawn, not spelled as position text.
"""

from __future__ import annotations

import re
import textwrap

import pytest

import boardlab
from boardlab.cli.main import main
from boardlab.games.mynd.face import Mynd

ROW = re.compile(r"\s*(\d+) (.*)")


def board_field(diagram: str) -> str:
    """The board part of the position text for a drawn board (territory letters read as empty)."""
    rows = []
    for line in textwrap.dedent(diagram).splitlines():
        match = ROW.fullmatch(line.rstrip())
        if not match:
            continue
        tokens = re.findall(r"[BWRG]\*?|[.bwrg?]", match.group(2))
        text = "".join("." if token in ".bwrg?" else token for token in tokens)
        rows.append(re.sub(r"\.+", lambda run: str(len(run.group())), text))
    return "/".join(rows)


def reachable_ply(board: str, to_move: str) -> int:
    """The first ply from 20 on at which ``to_move`` moves (the first player is seat 0) and every
    player has had a turn for each piece placed besides its peg: the position checks ask for both."""
    letters = [letter for letter in "BWRG" if letter + "*" in board]
    seat = "bwrg".index(to_move)
    for ply in range(20, 1000):
        turns = [(ply - owner + len(letters) - 1) // len(letters) for owner in range(len(letters))]
        if ply % len(letters) == seat and all(board.count(letter) - 1 <= turns[owner]
                                              for owner, letter in enumerate(letters)):
            return ply
    raise ValueError(f"no ply fits {board}")


def position(diagram: str, to_move: str = "b", ply: int | None = None, *fields: str) -> str:
    """Position text for a drawn board, with the player to move (b, w, r, g) and the ply (by default
    one the rules can reach, from ``reachable_ply``)."""
    board = board_field(diagram)
    ply = reachable_ply(board, to_move) if ply is None else ply
    return " ".join([board, to_move, str(ply), *fields])


def mynd(**options: object) -> Mynd:
    game = boardlab.load("mynd", **options)
    assert isinstance(game, Mynd)
    return game


def play(state: boardlab.State, moves: str) -> boardlab.State:
    for move in moves.split():
        state = state.play(move)
    return state


def moves_of(state: boardlab.State) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def board_of(state: boardlab.State) -> str:
    return state.to_text().split()[0]


# -- the start: pegs, supply, seats (M7, M8) -------------------------------------------------------


def test_two_players_start_in_opposite_corners_with_40_pieces_each() -> None:
    state = mynd().new_game()
    assert str(state) == textwrap.dedent("""\
           a b c d e f g h j k l
        11 . . . . . . . . . . W*
        10 . . . . . . . . . . .
         9 . . . . . . . . . . .
         8 . . . . . . . . . . .
         7 . . . . . . . . . . .
         6 . . . . . . . . . . .
         5 . . . . . . . . . . .
         4 . . . . . . . . . . .
         3 . . . . . . . . . . .
         2 . . . . . . . . . . .
         1 B*. . . . . . . . . .
           a b c d e f g h j k l
        black 39 in hand, white 39 in hand""")
    assert state.to_text() == "10W*/11/11/11/11/11/11/11/11/11/B*10 b 0"
    assert state.to_move == 0 and state.seat_label(0) == "black"


@pytest.mark.parametrize("options, pegs, hand", [
    ({"start_layout_2p": "adjacent"}, "11/11/11/11/11/11/11/11/11/11/B*9W*", 39),
    ({"players": 3}, "5W*5/11/11/11/11/11/11/11/11/11/B*9R*", 26),
    ({"players": 3, "size": 10}, "4W*5/10/10/10/10/10/10/10/10/B*8R*", 21),
    ({"players": 3, "size": 10, "edge_midpoint": "right"}, "5W*4/10/10/10/10/10/10/10/10/B*8R*", 21),
    ({"players": 4}, "W*9R*/11/11/11/11/11/11/11/11/11/B*9G*", 19),
    ({"players": 4, "supply": "fixed_table"}, "W*9R*/11/11/11/11/11/11/11/11/11/B*9G*", 19),
    ({"players": 3, "supply": "fixed_table"}, "5W*5/11/11/11/11/11/11/11/11/11/B*9R*", 19),
    ({"supply": "unlimited", "size": 5}, "4W*/5/5/5/B*4", 24),
])
def test_start_layouts_and_supplies(options: dict, pegs: str, hand: int) -> None:
    state = mynd(**options).new_game()
    assert board_of(state) == pegs
    assert str(state).endswith(f"{hand} in hand")
    assert state.game.num_seats == options.get("players", 2)


def test_seed_supply_figures_per_player() -> None:
    # "20 for each player for 11×11, 43 for 16×16, 60 for 19×19": the four-player split of 2/3 of the board.
    for size, each in ((11, 20), (16, 43), (19, 60)):
        assert mynd(size=size, players=4).supply == each
        assert mynd(size=size, supply="fixed_table").supply == each
    assert [mynd(size=n).supply for n in (11, 16, 19)] == [40, 85, 120]
    assert [mynd(size=n, players=3).supply for n in (11, 16, 19)] == [27, 57, 80]


# -- growing the twig and sowing (M1, M2) ----------------------------------------------------------


def test_growth_goes_next_to_an_own_piece_diagonals_included() -> None:
    assert moves_of(mynd(size=5).new_game()) == ["a2", "b2", "b1", "a1^", "a1>", "pass"]


CROWDED = """
   a b c d e
 5 . . . . W*
 4 . . . . .
 3 W W W . .
 2 . W W . .
 1 B*B W . .
"""


def test_a_grown_piece_needs_an_empty_neighbour() -> None:
    state = mynd(size=5).from_text(position(CROWDED, "b"))
    assert [m for m in moves_of(state) if m[-1].isdigit()] == []  # a2 is black's only neighbour
    with pytest.raises(boardlab.IllegalMove, match="a piece on a2 would have no empty neighbour"):
        state.play("a2")
    with pytest.raises(boardlab.IllegalMove, match="d4 is not next to a black piece"):
        state.play("d4")


NO_LIBERTY = """
   a b c d e
 5 . . . . W*
 4 W W . . .
 3 B . W . .
 2 W W W . .
 1 B*. . . .
"""


def test_the_empty_neighbour_is_counted_in_the_liberty_neighbourhood() -> None:
    # b3's only empty neighbour is diagonal: none, orthogonally.
    state = mynd(size=5).from_text(position(NO_LIBERTY, "b"))
    assert "b3" in moves_of(state)
    state4 = mynd(size=5, liberty_neighbourhood="4").from_text(position(NO_LIBERTY, "b"))
    assert "b3" not in moves_of(state4)
    with pytest.raises(boardlab.IllegalMove, match="b3 would have no empty neighbour"):
        state4.play("b3")


def test_sowing_places_anywhere_only_with_the_option() -> None:
    with pytest.raises(boardlab.IllegalMove, match=r"c3 is not next to a black piece.*sowing=false"):
        mynd(size=5).new_game().play("c3")
    state = mynd(size=5, sowing=True).new_game()
    assert len([m for m in moves_of(state) if m[-1].isdigit()]) == 23
    assert board_of(state.play("c3")) == "4W*/5/2B2/5/B*4"


def test_sowing_needs_liberty_keeps_the_empty_neighbour_rule() -> None:
    text = position(NO_LIBERTY, "b")
    state = mynd(size=5, sowing=True, sowing_needs_liberty=True, liberty_neighbourhood="4").from_text(text)
    assert "b3" not in moves_of(state) and "d3" in moves_of(state)
    assert "b3" in moves_of(mynd(size=5, sowing=True, liberty_neighbourhood="4").from_text(text))


def test_an_empty_hand_leaves_pushes_and_passing() -> None:
    state = mynd(size=5, supply="fixed_table").new_game()  # 4 pieces each: the peg and 3
    state = play(state, "b2 d4 c3 c4 d2 b4")
    assert "black 0 in hand" in str(state)
    assert all(not m[-1].isdigit() for m in moves_of(state))
    with pytest.raises(boardlab.IllegalMove, match="black has no pieces left in hand"):
        state.play("e1")


# -- pushing (M4, M10) -------------------------------------------------------------------------------

RUN = """
   a b c d e
 5 . . . . W*
 4 . . . . .
 3 . B B W .
 2 . . . . .
 1 B*. . . .
"""


def test_a_push_moves_the_whole_run_when_the_mover_outnumbers_the_others() -> None:
    state = mynd(size=5).from_text(position(RUN, "b"))
    assert {"b3-d3>", "d3-b3<"} <= set(moves_of(state))
    assert board_of(state.play("b3-d3>")) == board_field("""
        5 . . . . W*
        4 . . . . .
        3 . . B B W
        2 . . . . .
        1 B*. . . .
    """)
    assert board_of(state.play("d3-b3<")) == board_field("""
        5 . . . . W*
        4 . . . . .
        3 B B W . .
        2 . . . . .
        1 B*. . . .
    """)


def test_an_outnumbered_push_is_refused() -> None:
    state = mynd(size=5).from_text(position(RUN, "w"))
    assert not [m for m in moves_of(state) if m[-1] in "<>" and "3" in m]  # d3 slides up and down only
    with pytest.raises(boardlab.IllegalMove, match=r"white's pieces in b3-d3 \(1\) do not outnumber the others' \(2\)"):
        state.play("b3-d3>")


def test_a_push_that_would_leave_the_board_is_refused() -> None:
    state = mynd(size=5).from_text(position(RUN, "b")).play("b3-d3>").play("pass")
    assert "c3-e3>" not in moves_of(state)
    with pytest.raises(boardlab.IllegalMove, match="c3-e3 would be pushed off the board"):
        state.play("c3-e3>")
    assert "e3-c3<" not in moves_of(state)  # back again would repeat the position (superko)


def test_a_lone_piece_slides_and_a_piece_inside_a_run_does_not() -> None:
    state = mynd(size=5).from_text(position(RUN, "b"))
    assert {"b3^", "b3v", "c3^", "c3v"} <= set(moves_of(state))  # alone in their columns
    with pytest.raises(boardlab.IllegalMove, match=r"the whole run moves .*: d3-b3<"):
        state.play("c3<")  # c3 is inside the run b3-d3


def test_slide_any_own_piece_lets_an_end_piece_step_out() -> None:
    state = mynd(size=5, slide="any_own_piece").from_text(position(RUN, "b"))
    assert "b3<" in moves_of(state)
    assert board_of(state.play("b3<")) == "4W*/5/B1BW1/5/B*4"
    with pytest.raises(boardlab.IllegalMove, match="only an end piece may step out"):
        state.play("c3<")


THREE_COLOURS = """
   a b c d e f g
 7 . . . W*. . .
 6 . . . . . . .
 5 . . . . . . .
 4 . B B W R . .
 3 . . . . . . .
 2 . . . . . . .
 1 B*. . . . . R*
"""


def test_push_majority_each_opponent_counts_the_opponents_separately() -> None:
    text = position(THREE_COLOURS, "b")
    assert "b4-e4>" not in moves_of(mynd(size=7, players=3).from_text(text))  # 2 against 2
    with pytest.raises(boardlab.IllegalMove, match=r"\(2\) do not outnumber the others' \(2\)"):
        mynd(size=7, players=3).from_text(text).play("b4-e4>")
    state = mynd(size=7, players=3, push_majority="each_opponent").from_text(text)
    assert {"b4-e4>", "e4-b4<"} <= set(moves_of(state))  # 2 against 1 and 1


def test_push_mode_from_pusher_moves_the_pieces_ahead_of_the_rear() -> None:
    state = mynd(size=7, players=3, push_mode="from_pusher").from_text(position(THREE_COLOURS, "b"))
    # b4-e4> and c4-e4> are outnumbered; from c4 leftwards only c4 and b4 move.
    assert [m for m in moves_of(state) if "4" in m and m[-1] in "<>"] == ["b4<", "c4-b4<"]
    assert board_of(state.play("c4-b4<")) == board_field("""
        7 . . . W*. . .
        6 . . . . . . .
        5 . . . . . . .
        4 B B . W R . .
        3 . . . . . . .
        2 . . . . . . .
        1 B*. . . . . R*
    """)
    with pytest.raises(boardlab.IllegalMove, match="rear piece of a push must be black's"):
        state.play("d4-e4>")


def test_starting_pegs_can_be_pushed_and_stay_pegs() -> None:
    state = mynd(size=5).new_game().play("a1>").play("pass")
    assert board_of(state) == "4W*/5/5/5/1B*3"
    with pytest.raises(boardlab.IllegalMove, match="pegs may not be pushed"):
        mynd(size=5, push_pegs=False).new_game().play("a1>")


# -- diagonal links and cutting the bark (M3) --------------------------------------------------------

DIAMOND = """
   a b c d e f g
 7 . . . . . . W*
 6 . . . B W . .
 5 . . B . B . .
 4 . B . . . B .
 3 . . B . B . .
 2 . . . B . . .
 1 B*. . . . . .
"""
DIAMOND_CUT = """
   a b c d e f g
 7 . . . . . . W*
 6 . . . B W . .
 5 . . B W B . .
 4 . B . . . B .
 3 . . B . B . .
 2 . . . B . . .
 1 B*. . . . . .
"""


def test_a_diagonal_wall_encloses_an_interior_region() -> None:
    state = mynd(size=7).from_text(position(DIAMOND, "w"))
    assert state.scores == (5.0, 0.0)
    assert mynd(size=7).render_territory(state.view(None)).splitlines()[2:7] == [
        " 6 . . . B W . .",
        " 5 . . B b B . .",
        " 4 . B b b b B .",
        " 3 . . B b B . .",
        " 2 . . . B . . .",
    ]


def test_cutting_the_bark_opens_the_older_link() -> None:
    state = mynd(size=7).from_text(position(DIAMOND, "w")).play("d5")
    # White's new link d5-e6 crosses black's d6-e5, which was there first: it is cut, and black's
    # region leaks through it to the open board.
    assert board_of(state) == board_field(DIAMOND_CUT)
    assert "cut:d5B" in state.to_text()
    assert state.scores == (0.0, 0.0)
    assert mynd(size=7).from_text(state.to_text()) == state


@pytest.mark.parametrize("links, black", [("chrono_cut", 0.0), ("mutual_cut", 0.0), ("always", 4.0), ("none", 0.0)])
def test_diagonal_links_options_decide_whether_the_crossed_link_walls(links: str, black: float) -> None:
    state = mynd(size=7, diagonal_links=links).from_text(position(DIAMOND, "w")).play("d5")
    assert state.scores == (black, 0.0)


def test_the_newer_link_stands_when_it_cuts_the_bark() -> None:
    # White's d5-e6 is there first; black completes d6-e5 across it: white's link is cut, black's stands.
    older_white = DIAMOND_CUT.replace(" 5 . . B W B . .", " 5 . . B W . . .")
    state = mynd(size=7).from_text(position(older_white, "b")).play("e5")
    assert "cut:d5W" in state.to_text()
    assert state.scores == (4.0, 0.0)
    mutual = mynd(size=7, diagonal_links="mutual_cut").from_text(position(older_white, "b")).play("e5")
    assert mutual.scores == (0.0, 0.0)


# -- territory (M5, M6) ------------------------------------------------------------------------------

ANCHORED = """
   a b c d e f g
 7 . . . . W W W*
 6 . . . . W . W
 5 . B B B W W W
 4 . B . B . . .
 3 B B B B . . .
 2 . . . B . . .
 1 B*. . B . . .
"""


def test_an_edge_region_counts_when_it_borders_the_trunk_and_holds_no_other_peg() -> None:
    state = mynd(size=7).from_text(position(ANCHORED))
    assert state.scores == (6.0, 1.0)
    assert mynd(size=7).render_territory(state.view(None)) == textwrap.dedent("""\
           a b c d e f g
         7 . . . . W W W*
         6 . . . . W w W
         5 . B B B W W W
         4 . B b B . . .
         3 B B B B . . .
         2 b b b B . . .
         1 B*b b B . . .
           a b c d e f g
        black 4 in hand, white 8 in hand
        territory now: black 6, white 1""")


TWO_WALLS = """
   a b c d e
 5 . . . . W*
 4 . . . . .
 3 B B B . .
 2 . . W . .
 1 B*. W . .
"""


def test_a_region_walled_by_two_players_scores_for_nobody() -> None:
    assert mynd(size=5).from_text(position(TWO_WALLS)).scores == (0.0, 0.0)


NESTED = """
   a b c d e f g
 7 . . . . . . W*
 6 . B B B B B .
 5 . B . W . B .
 4 . B W . W B .
 3 . B . W . B .
 2 . B B B B B .
 1 B*. . . . . .
"""


@pytest.mark.parametrize("options, scores, d4", [
    ({}, (4.0, 0.0), "?"),
    ({"nested": "inner_owner"}, (4.0, 1.0), "w"),
    ({"territory_rule": "go_area"}, (0.0, 1.0), "w"),
])
def test_a_nested_region_is_void_or_goes_to_the_inner_owner(options: dict, scores: tuple, d4: str) -> None:
    game = mynd(size=7, supply="unlimited", **options)
    state = game.from_text(position(NESTED))
    assert state.scores == scores
    drawn = game.render_territory(state.view(None)).splitlines()
    assert drawn[4] == f" 4 . B W {d4} W B ."


OFF_TRUNK = """
   a b c d e
 5 . . . . W*
 4 B*. . . .
 3 B B B B .
 2 . . . B .
 1 . . . B .
"""
LOOSE_WALL = """
   a b c d e
 5 . . . . W*
 4 . . . B*.
 3 B B . . .
 2 . B . . .
 1 . B . . .
"""


@pytest.mark.parametrize("rule, off_trunk, loose_wall", [
    ("trunk_anchored", 6.0, 0.0),
    ("peg_adjacent", 0.0, 0.0),
    ("go_area", 6.0, 2.0),
    ("smaller_side", 6.0, 2.0),
])
def test_territory_rules(rule: str, off_trunk: float, loose_wall: float) -> None:
    game = mynd(size=5, territory_rule=rule)
    assert game.from_text(position(OFF_TRUNK)).scores == (off_trunk, 0.0)
    assert game.from_text(position(LOOSE_WALL)).scores == (loose_wall, 0.0)


ALMOST_ENCLOSED = """
   a b c d e
 5 . . . . W*
 4 . . . . .
 3 B W . . .
 2 . . . . .
 1 B*. . . .
"""


def test_lock_on_enclose_banks_territory_and_closes_it_to_others() -> None:
    game = mynd(size=5, lock_on_enclose=True)
    state = game.from_text(position(ALMOST_ENCLOSED, "b")).play("b2")
    assert state.to_text().split()[0] == "4W*/5/BW3/bB3/B*4"
    assert "a2" not in moves_of(state)
    with pytest.raises(boardlab.IllegalMove, match="a2 is territory banked by black"):
        state.play("a2")
    assert state.scores == (1.0, 0.0)
    state = play(state, "pass a2")  # black may fill its own banked point; it still counts
    assert state.scores == (1.0, 0.0)
    assert "B+" in state.to_text()
    assert game.from_text(state.to_text()) == state
    # Without the option the point stays open to white.
    assert "a2" in moves_of(mynd(size=5).from_text(position(ALMOST_ENCLOSED, "b")).play("b2"))


# -- passing, superko, the end (M9) ------------------------------------------------------------------


def test_superko_refuses_a_push_that_repeats_a_position() -> None:
    state = play(mynd(size=5).new_game(), "a1^ pass")
    assert "a2v" not in moves_of(state)
    with pytest.raises(boardlab.IllegalMove, match=r"a2v would repeat an earlier position \(superko=positional\)"):
        state.play("a2v")
    assert state.to_text() == "4W*/5/5/B*4/5 b 2 since:a1^,pass"
    assert mynd(size=5).from_text(state.to_text()).legal_moves() == state.legal_moves()


def test_situational_superko_allows_the_same_board_with_another_player_to_move() -> None:
    state = play(mynd(size=5, superko="situational").new_game(), "a1^ pass")
    assert board_of(state.play("a2v")) == "4W*/5/5/5/B*4"


def test_without_superko_the_third_repetition_is_a_draw() -> None:
    state = play(mynd(size=5, superko="off").new_game(), "a1^ pass a2v pass a1^ pass a2v")
    assert not state.is_over
    state = state.play("pass")  # the start position with black to move, for the third time
    assert state.is_over and state.end_reason == "repetition" and state.result == (0.5, 0.5)


def test_a_placement_forgets_the_positions_before_it() -> None:
    state = play(mynd(size=5).new_game(), "a1^ pass")
    assert "since:" in state.to_text()
    state = state.play("b1")
    assert "since:" not in state.to_text()
    assert "pass" in moves_of(state)


def test_the_game_ends_when_every_player_passes_in_succession() -> None:
    state = play(mynd(size=5).new_game(), "pass")
    assert not state.is_over and state.to_text().endswith("since:pass")
    state = state.play("pass")
    assert state.is_over and state.end_reason == "passes"
    assert state.result == (0.5, 0.5) and state.scores == (0.0, 0.0)
    twice = play(mynd(size=5, end_on="all_pass_twice").new_game(), "pass pass pass")
    assert not twice.is_over and twice.play("pass").is_over


def test_three_players_move_clockwise_and_all_must_pass() -> None:
    state = mynd(size=5, players=3).new_game()
    assert board_of(state) == "2W*2/5/5/5/B*3R*"
    seats = []
    for move in "b2 pass pass c3 pass pass".split():
        seats.append(state.to_move)
        state = state.play(move)
    assert seats == [0, 1, 2, 0, 1, 2]
    assert not state.is_over  # black's d4 came between the passes
    state = state.play("pass")
    assert state.is_over and state.end_reason == "passes"
    assert len(state.result or ()) == 3


def test_four_players_in_turn_from_the_first_player() -> None:
    state = mynd(size=5, players=4, first_player=2).new_game()
    assert board_of(state) == "W*3R*/5/5/5/B*3G*"
    seats = []
    for move in "pass pass pass b4 pass pass pass".split():
        seats.append(state.to_move)
        state = state.play(move)
    assert seats == [2, 3, 0, 1, 2, 3, 0]
    assert state.describe() == "white to move (seat 1), ply 7."
    assert not state.is_over and state.play("pass").is_over  # four passes in succession


TIED = """
   a b c d e
 5 W . W*. .
 4 . W . . .
 3 B . . . .
 2 . B . . .
 1 B*. . . R*
"""


def test_players_tied_on_top_share_the_win() -> None:
    state = mynd(size=5, players=3).from_text(position(TIED, "b", None, "since:pass,pass,pass", "end:passes"))
    assert state.scores == (1.0, 1.0, 0.0)
    assert state.result == (0.5, 0.5, 0.0)
    assert state.describe() == "Game over: Draw between black and white by passes."
    alone = mynd(size=5, players=3).from_text(position(TIED.replace(" 4 . W", " 4 . R"),
                                                         "b", None, "since:pass,pass,pass", "end:passes"))
    assert alone.scores == (1.0, 0.0, 0.0) and alone.result == (1.0, 0.0, 0.0)


def test_the_ply_cap_ends_the_game_and_scores_it() -> None:
    ply = reachable_ply(board_field(OFF_TRUNK), "b")
    state = play(mynd(size=5, ply_cap=ply + 3).from_text(position(OFF_TRUNK, "b")), "pass pass")
    assert state.is_over and state.end_reason == "passes"
    state = play(mynd(size=5, ply_cap=ply + 2).from_text(position(OFF_TRUNK, "b")), "e4 pass")
    assert state.is_over and state.end_reason == "ply cap" and state.result == (1.0, 0.0)
    assert mynd(size=7).options["ply_cap"] == 147 and mynd().options["ply_cap"] == 363


# -- notation ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["b3-d3>", "B3-D3>", "d3-b3>", "push b3 right", "b3-d3 e", "b3 >", "b3-e3",
                                   "b3-d3 east"])
def test_pushes_are_read_as_people_type_them(typed: str) -> None:
    state = mynd(size=5).from_text(position(RUN, "b"))
    assert str(state.parse_move(typed)) == "b3-d3>"


@pytest.mark.parametrize("typed, message", [
    ("hello", "not a move; moves are a point such as d4"),
    ("i3", "there is no column i"),
    ("z9", "no point z9 on this board"),
    ("b3-c4>", "a push runs along a row or a column"),
    ("b3-b5>", "b3 and b5 are not on a line going right"),
    ("b3-c4", "a push runs along a row or a column"),
    ("b3-c3>", r"the pieces pushed from b3 right are b3-d3 \(write b3-d3>\)"),
])
def test_malformed_moves_say_what_is_accepted(typed: str, message: str) -> None:
    state = mynd(size=5).from_text(position(RUN, "b"))
    with pytest.raises(boardlab.InvalidMove, match=message):
        state.play(typed)


@pytest.mark.parametrize("typed, message", [
    ("b3", "b3 is occupied"),
    ("a5^", "there is no piece on a5 to push"),
])
def test_illegal_moves_say_why(typed: str, message: str) -> None:
    with pytest.raises(boardlab.IllegalMove, match=message):
        mynd(size=5).from_text(position(RUN, "b")).play(typed)


def test_columns_skip_i_as_on_a_go_board() -> None:
    names = [str(m) for m in mynd(size=19, sowing=True).new_game().legal_moves() if str(m)[-1].isdigit()]
    assert {name[0] for name in names} == set("abcdefghjklmnopqrst")


# -- positions, options, variants --------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("4W*/5/5/5 b 0", "the board has 5 rows, not 4"),
    ("4W*/5/5/5/B*3 b 0", "row 1 has 4 points, not 5"),
    ("4W*/5/5/5/B*4 x 0", "the player to move is 'x'; expected one of b, w"),
    ("4W*/5/5/5/B*4 b soon", "expected a whole number"),
    ("4W*/5/5/5/B*R3 b 0", "row 1 has 'R'"),
    ("4W*/5/5/5/B4 b 0", "black has 0 starting pegs"),
    ("4W*/5/5/BBBBB/B*BBB1 b 0", "black has 9 pieces on the board, more than the supply of 8"),
    ("4W*/5/5/5/B*4 b 0 since:b2^", "the push b2\\^ does not fit"),
    ("4W*/5/5/5/B*4 b 0 since:b2-c4^", "is not a pass or a push"),
    ("4W*/5/5/5/B*4 b 0 cut:b2B", "no two links cross"),
    ("4W*/5/5/5/B*4 b 0 since:pass,pass", "2 passes in succession end the game; add end:passes"),
    ("4W*/5/5/5/B*4 w 75", "ply 75 is not before the ply cap 75"),
    ("4W*/5/5/5/B*4 w 0", "at ply 0 it is black \\(b\\) to move, not white; black moves first"),
    ("4W*/5/5/5/B*BB2 b 2", "black has 3 pieces on the board, but has had only 1 turn by ply 2"),
    ("4W*/5/5/5/B*BBB1 w 3", "black has 4 pieces on the board, but has had only 2 turns by ply 3"),
    ("4W*/5/5/5/B*4 b 0 end:repetition", "only with superko=off"),
    ("4W*/5/5/5/B*4 b 0 whenever", "unexpected 'whenever'"),
    ("4W*/5/5/5/B*4", "expected '<rows separated by />"),
])
def test_malformed_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message):
        mynd(size=5).from_text(text)


def test_cut_marks_need_chrono_cut() -> None:
    text = position(DIAMOND_CUT, "b", None, "cut:d5B")
    assert mynd(size=7).from_text(text).scores == (0.0, 0.0)
    with pytest.raises(boardlab.PositionError, match="only with diagonal_links=chrono_cut"):
        mynd(size=7, diagonal_links="always").from_text(text)
    # Unlisted, a crossing reads as made in one move: both links cut.
    assert "cut:d5BW" in mynd(size=7).from_text(position(DIAMOND_CUT, "b")).to_text()


@pytest.mark.parametrize("options, message", [
    ({"size": 4}, "size=4 is out of range; accepted: an integer from 5 to 25"),
    ({"players": 5}, "players=5 is out of range; accepted: an integer from 2 to 4"),
    ({"first_player": 2}, "first_player=2 is not a seat of 2 players; accepted: an integer from 0 to 1"),
    ({"push_mode": "shove"}, "accepted: one of whole_run, from_pusher"),
    ({"liberty_neighbourhood": "6"}, "accepted: one of 8, 4"),
])
def test_bad_options_say_what_is_accepted(options: dict, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message):
        boardlab.load("mynd", **options)


def test_variants_and_seats_follow_the_players_option() -> None:
    assert boardlab.load("mynd", variant="three_players").num_seats == 3
    assert boardlab.load("mynd", variant="four_players").num_seats == 4
    assert boardlab.load("mynd", variant="simple").options["territory_rule"] == "go_area"
    assert boardlab.info("mynd").players == (2, 3, 4)


def test_repr_pastes_back() -> None:
    state = mynd(size=5).new_game().play("b2")
    assert repr(state) == "boardlab.load('mynd', size=5, ply_cap=75).from_text('4W*/5/5/1B3/B*4 w 1')"
    assert eval(repr(state), {"boardlab": boardlab}) == state


def test_three_players_at_the_terminal_against_two_computer_opponents(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = iter(["moves", "b2", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    argv = ["play", "mynd", "--option", "players=3", "--option", "size=7", "--opponent", "random", "--seed", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "a2 b2 b1 a1^ a1> pass" in out
    assert "Last move: black b2" in out and "Last move: white " in out and "Last move: red " in out
    assert "black to move (seat 0), ply 3." in out
    assert "black 9 in hand, white" in out  # 11 each on 7×7 for three players
