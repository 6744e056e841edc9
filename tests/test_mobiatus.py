"""Möbiatus's rules, from the seed (003) and the rules notes (§5, IDs B1–B12).

Positions are written as the front board's rows, the way ``str(state)`` draws them (``R``/``B`` a
piece, ``r``/``b`` a piece on the face behind, ``x`` a singularity, ``.`` free); most use a small
strip (6 × 3) so that every square can be checked by hand. On it the opposite of ``F2a`` is ``B2a``,
and stepping right off ``F6a`` leads to ``B1c``.
"""

from __future__ import annotations

import random
import re
import textwrap

import numpy as np
import pytest

import boardlab
from boardlab.cli.play import PlaySession
from boardlab.core import kernel
from boardlab.games.mobiatus import groups, layout
from tests.test_cli import Script

SMALL = {"length": 6, "width": 3, "blue_offset": 3}


def mobiatus(**options: object) -> boardlab.Game:
    return boardlab.load("mobiatus", **options)


def board(diagram: str) -> str:
    """The position text's board field for a drawn front board (a row letter, then the marks)."""
    rows = []
    for line in textwrap.dedent(diagram).strip().splitlines():
        marks = "".join(line.split()[1:])
        rows.append(re.sub(r"\.+", lambda run: str(len(run.group())), marks))
    return "/".join(rows)


def position(diagram: str, to_move: str = "r", turns: int = 10, *flags: str) -> str:
    return " ".join([board(diagram), to_move, str(turns), str(turns), *flags])


def small(diagram: str, to_move: str = "r", **options: object) -> boardlab.State:
    return mobiatus(**{**SMALL, **options}).from_text(position(diagram, to_move))


def texts(state: boardlab.State) -> list[str]:
    return sorted(move.text for move in state.legal_moves())


def front(state: boardlab.State) -> str:
    return state.to_text().split()[0]


# -- setup and drawing (B1–B4) --------------------------------------------------------------------


def test_the_start_follows_b3_red_on_columns_1_2_blue_15_on() -> None:
    state = mobiatus().new_game()
    assert state.to_text() == "RR13BB13/RR13BB13/RR13BB13/RR13BB13/RR13BB13 r 0 0"
    lines = str(state).splitlines()
    assert lines[0] == "Turn 0: Red 10 pieces, Blue 10 pieces"
    assert lines[1] == "                         1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 2 2 3"
    assert lines[2] == "Front  1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0"
    assert lines[3] == "    a  R R . . . . . . . . . . . . . B B . . . . . . . . . . . . .  a -> B1e"
    assert lines[9] == "Back   1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0"
    assert lines[14] == "    e  r r . . . . . . . . . . . . . b b . . . . . . . . . . . . .  e -> F1a"
    assert state.to_move == 0 and state.seat_label(0) == "Red" and len(state.legal_moves()) == 44


def test_the_back_board_is_the_front_with_dots_and_circles_swapped() -> None:
    state = small("""
        a  x R . r . .
        b  . . B . x .
        c  b . . . . R
    """)
    lines = str(state).splitlines()
    assert lines[2:5] == ["    a  x R . r . .  a -> B1c",
                          "    b  . . B . x .  b -> B1b",
                          "    c  b . . . . R  c -> B1a"]
    assert lines[6:9] == ["    a  x r . R . .  a -> F1c",
                          "    b  . . b . x .  b -> F1b",
                          "    c  B . . . . r  c -> F1a"]


def test_blue_offset_and_line_gap_move_the_starting_lines() -> None:
    assert mobiatus(blue_offset=2).new_game().to_text().split()[0].startswith("RRBB26/")
    assert mobiatus(line_gap=2).new_game().to_text().split()[0].startswith("R2R11B2B11/")
    # From 30 on, Blue's dots start on the back board: circles (b) on the front.
    assert mobiatus(blue_offset=32).new_game().to_text().split()[0].startswith("RRbb26/")
    assert mobiatus(length=8, width=3, blue_offset=4).new_game().to_text() == "RR2BB2/RR2BB2/RR2BB2 r 0 0"


@pytest.mark.parametrize("options, message", [
    ({"blue_offset": 1}, "blue_offset=1 puts a Blue line on a paper square that Red's lines .* accepted with "
                         "length=30, line_gap=0: 2 to 28, 32 to 58"),
    ({"blue_offset": 30}, "accepted with length=30"),
    ({"blue_offset": 60}, "off the loop of 60 columns"),
    ({"length": 6, "line_gap": 5}, "line_gap=5 leaves no room for four starting lines .* from 0 to 4"),
    ({"length": 6, "line_gap": 4}, "blue_offset=15 .* accepted with length=6, line_gap=4: 2 to 4, 8 to 10"),
    ({"length": 3}, "length=3 is out of range; accepted: an integer from 4 to 100"),
    ({"width": 1}, "accepted: an integer from 2 to 12"),
    ({"first_player": "green"}, "accepted: one of red, blue, random, pie"),
    ({"mandatory_capture": "always"}, "accepted: one of off, on, maximal"),
    ({"chain_capture": "forced"}, "accepted: one of optional, must_continue_capturing"),
    ({"limit_result": "red"}, "accepted: one of draw, more_pieces_wins"),
    ({"movement": "bishop"}, "movement='bishop' is not accepted; accepted: one of knight, camel, zebra, knight_wazir"),
    ({"movement": "zebra", "width": 2}, "movement=zebra leaps at least 2 rows across, so on a strip of width 2 no "
                                        "piece could ever move; accepted with width=2: knight, camel, knight_wazir"),
])
def test_bad_options_say_what_is_accepted(options: dict, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message):
        mobiatus(**options)


def test_first_player_blue_and_random() -> None:
    state = mobiatus(first_player="blue").new_game()
    assert state.to_move == 1 and state.to_text().endswith(" b 0 0")
    drawn = {mobiatus(first_player="random").options["first_player"] for _ in range(40)}
    assert drawn == {"red", "blue"}  # the lot is kept as a colour, so records replay it


def test_pie_lets_blue_take_over_red_after_the_first_move() -> None:
    game = mobiatus(first_player="pie")
    state = game.new_game()
    assert "swap" not in texts(state)
    state = state.play("F2a-F4b")
    assert "swap" in texts(state) and state.to_move == 1
    state = state.play("swap")
    assert state.to_move == 0 and state.seat_label(0) == "Blue" and state.seat_label(1) == "Red"
    assert state.to_text().endswith(" b 1 2 swapped") and "swap" not in texts(state)
    again = game.from_text(state.to_text())
    assert texts(again) == texts(state) and again.to_move == 0
    with pytest.raises(boardlab.IllegalMove, match="only with first_player=pie"):
        mobiatus().new_game().play("F2a-F4b").play("swap")
    with pytest.raises(boardlab.IllegalMove, match="only the second player may swap"):
        state.play("swap")


# -- moves (B5–B7) --------------------------------------------------------------------------------

SEAM = """
    a  . B . . . .
    b  . . . . . R
    c  . . . . . .
"""


def test_knight_moves_cross_the_seam_to_the_other_board_rows_mirrored() -> None:
    # F6b is (x 5, y 1); two right and one up or down goes off the front board's end: B2a, B2c.
    # B2a is Blue's circle (the piece is on F2a): a capture, which must go on (B1c, B3c, B4b).
    assert texts(small(SEAM)) == ["F6b-B2a*-B1c", "F6b-B2a*-B3c", "F6b-B2a*-B4b", "F6b-B2c", "F6b-F4a", "F6b-F4c"]


def test_a_capture_lands_on_an_enemy_circle_and_crosses_out_both_faces() -> None:
    state = small(SEAM).play("F6b-B2a*-B4b")
    # The captured piece (F2a and its circle B2a) and the origin (F6b, B6b) are now singular;
    # Red rests on B4b, so its circle is on the front, F4b.
    assert front(state) == board("""
        a  . x . . . .
        b  . . . r . x
        c  . . . . . .
    """)
    assert state.is_over and state.result == (1.0, 0.0) and state.end_reason == "no pieces"


def test_a_move_may_not_land_on_a_dot_or_an_own_circle() -> None:
    # F1b's knight moves reach F3a, F3c, B5a and B5c. F3a holds a Blue piece; F3c is Red's own
    # circle (that piece stands behind it, on B3c).
    state = small("""
        a  . . B . . .
        b  R . . . . .
        c  . . r . . .
    """)
    assert [t for t in texts(state) if t.startswith("F1b")] == ["F1b-B5a", "F1b-B5c"]
    with pytest.raises(boardlab.IllegalMove, match="F3c is the opposite face of your own piece on B3c"):
        state.play("F1b-F3c")
    with pytest.raises(boardlab.IllegalMove, match="F3a is occupied by a Blue piece"):
        state.play("F1b-F3a")


def test_a_capture_is_refused_when_its_chain_cannot_finish() -> None:
    # Red could capture on F2c (Blue's piece is on B2c), but from F2c every hop is blocked:
    # F3a and F4b hold Blue dots, B6b holds a Blue dot (its circle shows on F6b), F1a is the origin.
    state = small("""
        a  R . B . . .
        b  . . . B . b
        c  . b . . . .
    """)
    assert [t for t in texts(state) if t.startswith("F1a")] == ["F1a-B5b", "F1a-B6a", "F1a-F3b"]
    with pytest.raises(boardlab.IllegalMove, match="the capture chain could not end on a free square"):
        state.play("F1a-F2c")


def test_a_capture_chain_must_continue() -> None:
    state = small(SEAM)
    with pytest.raises(boardlab.IllegalMove,
                       match=r"not finished: after capturing on B2a the piece must move on \(-B1c, -B3c, -B4b\)"):
        state.play("F6b-B2a")
    assert all(t.startswith("F6b-B2a*-") for t in texts(state) if "*" in t)


GROUP = """
    a  R . x . . .
    b  . . x x . .
    c  . . . . . B
"""


def test_landing_on_a_singularity_slides_out_of_its_whole_group() -> None:
    state = small(GROUP)
    # F1a's knight move to F3b lands in the group F3a, F3b, F4b; the piece may rest on any free
    # face next to the group, F5b included (sliding on through F4b).
    assert texts(state) == ["F1a-B5b", "F1a-B6a", "F1a-F2c", "F1a-F3b~F2a", "F1a-F3b~F2b", "F1a-F3b~F3c",
                            "F1a-F3b~F4a", "F1a-F3b~F4c", "F1a-F3b~F5b"]
    after = state.play("F1a-F3b~F5b")
    assert front(after) == board("""
        a  x . x . . .
        b  . . x x R .
        c  . . . . . B
    """)
    with pytest.raises(boardlab.IllegalMove, match="F3b is a singularity, so the piece slides on"):
        state.play("F1a-F3b")
    with pytest.raises(boardlab.IllegalMove, match="F6b is not next to the group of singularities at F3b"):
        state.play("F1a-F3b~F6b")


def test_a_slide_is_refused_when_its_group_is_walled_in() -> None:
    # Every face next to the group holds a dot (Blue's) or a circle of Red's own.
    state = small("""
        a  R B x B . .
        b  . r x x r .
        c  . . B B . .
    """)
    assert [t for t in texts(state) if t.startswith("F1a")] == ["F1a-B6a", "F1a-F2c"]
    with pytest.raises(boardlab.IllegalMove, match="F3b is a singularity whose group is walled in"):
        state.play("F1a-F3b~F2a")


def test_a_chain_may_not_slide_back_through_a_group_it_slid_through() -> None:
    # Red slides through F5b's group to capture on F6c; from F6c the knight move to F5a would land
    # in that same group again, which the chain has touched: only B1c and B2b remain.
    state = small("""
        a  x x R B x x
        b  . . . B x .
        c  . . x . x b
    """)
    assert texts(state) == ["F3a-F1b", "F3a-F2c", "F3a-F4c", "F3a-F5b~B1c", "F3a-F5b~F4c", "F3a-F5b~F6b",
                            "F3a-F5b~F6c*-B1c", "F3a-F5b~F6c*-B2b"]


def test_origin_joins_slide_group_lets_a_slide_pass_through_the_origin() -> None:
    # Width 2: the group F1b–F3b is walled in, except through Red's own origin F1a, which the
    # variant turns singular at lift-off: the slide then comes out behind it, on B6b.
    walled = """
        a  R B B . . b
        b  x x x B . .
    """
    options = {"length": 6, "width": 2, "blue_offset": 3}
    assert texts(mobiatus(**options).from_text(position(walled))) == ["F1a-B5a"]
    joins = mobiatus(**options, origin_joins_slide_group=True).from_text(position(walled))
    assert texts(joins) == ["F1a-B5a", "F1a-F3b~B6b"]
    assert front(joins.play("F1a-F3b~B6b")) == board("""
        a  x B B . . b
        b  x x x B . r
    """)


# -- other leapers (option movement, added) -------------------------------------------------------

# A lone Red piece on F8b, at the front board's end, on an 8 × 5 strip: two columns on is the back
# board, rows mirrored (b <-> d). Each diagram marks with * every square its first hop can land on,
# counted by hand in double-cover coordinates: F8b is (x 7, y 1); B<c><r> is x = 7 + c, y = 4 - r.
HOPS_FROM_F8B = {
    # (±1, ±2) and (±2, ±1); y − 2 is off the strip: (8, 3) B1b, (6, 3) F7d, (9, 2) B2c, (5, 2) F6c,
    # (9, 0) B2e, (5, 0) F6a.
    "knight": """
        F  a  . . B . . * . .
           b  . . . . . . . R
           c  . . . . . * . .
           d  . . . . . . * .
           e  . . . . . . . .
        B  a  . . b . . . . .
           b  * . . . . . . r
           c  . * . . . . . .
           d  . . . . . . . .
           e  . * . . . . . .
    """,
    # (±1, ±3), (±3, ±1); only y + 3 fits: (8, 4) B1a, (6, 4) F7e, (10, 2) B3c, (4, 2) F5c,
    # (10, 0) B3e, (4, 0) F5a.
    "camel": """
        F  a  . . B . * . . .
           b  . . . . . . . R
           c  . . . . * . . .
           d  . . . . . . . .
           e  . . . . . . * .
        B  a  * . b . . . . .
           b  . . . . . . . r
           c  . . * . . . . .
           d  . . . . . . . .
           e  . . * . . . . .
    """,
    # (±2, ±3), (±3, ±2); only y + 3 and y + 2 fit: (9, 4) B2a, (5, 4) F6e, (10, 3) B3b, (4, 3) F5d.
    "zebra": """
        F  a  . . B . . . . .
           b  . . . . . . . R
           c  . . . . . . . .
           d  . . . . * . . .
           e  . . . . . * . .
        B  a  . * b . . . . .
           b  . . * . . . . r
           c  . . . . . . . .
           d  . . . . . . . .
           e  . . . . . . . .
    """,
    # The knight's six, and the wazir's (±1, 0), (0, ±1): (8, 1) B1d across the twist, (6, 1) F7b,
    # (7, 2) F8c, (7, 0) F8a.
    "knight_wazir": """
        F  a  . . B . . * . *
           b  . . . . . . * R
           c  . . . . . * . *
           d  . . . . . . * .
           e  . . . . . . . .
        B  a  . . b . . . . .
           b  * . . . . . . r
           c  . * . . . . . .
           d  * . . . . . . .
           e  . * . . . . . .
    """,
}


def hop_diagram(state: boardlab.State, piece: str) -> str:
    """Both boards as drawn, each square where a move of ``piece`` first lands marked ``*``."""
    landings = {re.split(r"[-~*]+", move.text)[1] for move in state.legal_moves() if move.text.startswith(piece)}
    marks = {}
    for content in state.game.cell_contents(state.view(None)):
        mark = "x" if "singularity" in content.marks else "."
        for drawn in content.pieces:
            mark = "rb"[drawn.colour].upper() if drawn.kind == "dot" else "rb"[drawn.colour]
        marks[content.name] = "*" if content.name in landings else mark
    strip = state.game.strip  # type: ignore[attr-defined]
    lines = []
    for board_name in "FB":
        for row in range(strip.width):
            letter = "abcdefghijkl"[row]
            squares = " ".join(marks[f"{board_name}{column}{letter}"] for column in range(1, strip.length + 1))
            lines.append(f"{board_name if row == 0 else ' '}  {letter}  {squares}")
    return "\n".join(lines)


@pytest.mark.parametrize("movement", HOPS_FROM_F8B)
def test_each_leaper_hops_across_the_twist_as_counted_by_hand(movement: str) -> None:
    game = mobiatus(length=8, width=5, blue_offset=4, movement=movement)
    state = game.from_text(position("""
        a  . . B . . . . .
        b  . . . . . . . R
        c  . . . . . . . .
        d  . . . . . . . .
        e  . . . . . . . .
    """))
    assert hop_diagram(state, "F8b") == textwrap.dedent(HOPS_FROM_F8B[movement]).strip()
    assert all(len(move.path) == 1 for move in state.legal_moves() if move.text.startswith("F8b"))


WAZIR = """
    a  x . . . . .
    b  R b . B . .
    c  . . . . . .
"""


def test_a_wazir_step_hops_captures_and_slides_and_its_text_says_which() -> None:
    # Red's F1b as a knight_wazir on the 6 × 3 strip. Knight: F3a, F3c, B5a, B5c. Wazir: F1c; B6b
    # (left, across the twist: rows b <-> b); F1a, a singularity whose group is F1a alone, left to
    # F2a or B6c (F1b is the origin); F2b, Blue's circle: a capture of B2b, then any hop from F2b but
    # back to the origin F1b: F2a, F2c, F3b (wazir), F4a, F4c, B6a, B6c (knight).
    state = small(WAZIR, movement="knight_wazir")
    assert texts(state) == ["F1b-B5a", "F1b-B5c", "F1b-B6b", "F1b-F1a~B6c", "F1b-F1a~F2a", "F1b-F1c",
                            "F1b-F2b*-B6a", "F1b-F2b*-B6c", "F1b-F2b*-F2a", "F1b-F2b*-F2c", "F1b-F2b*-F3b",
                            "F1b-F2b*-F4a", "F1b-F2b*-F4c", "F1b-F3a", "F1b-F3c"]
    assert texts(small(WAZIR)) == ["F1b-B5a", "F1b-B5c", "F1b-F3a", "F1b-F3c"]  # the knight alone
    # Typed without marks, the position says which square is a slide's rest and which a hop.
    assert state.parse_move("F1b F1a F2a").text == "F1b-F1a~F2a"
    assert state.parse_move("F1b F2b F2a").text == "F1b-F2b*-F2a"
    assert front(state.play("F1b-F2b*-F2a")) == board("""
        a  x R . . . .
        b  x x . B . .
        c  . . . . . .
    """)
    with pytest.raises(boardlab.InvalidMove, match="~ marks a slide, but the move does not slide to F1c"):
        state.play("F1b~F1c")
    with pytest.raises(boardlab.IllegalMove,
                       match=r"F2a is not a knight's move or a wazir step \(1 square orthogonally\) from F1b"):
        state.play("F1b-F2a")
    with pytest.raises(boardlab.IllegalMove, match="F1b-F4b: F4b is not a camel's leap"):
        small(WAZIR, movement="camel").play("F1b-F4b")


@pytest.mark.parametrize("movement", ["camel", "zebra", "knight_wazir"])
def test_every_leaper_fills_one_square_a_turn_so_games_end_within_130_turns(movement: str) -> None:
    """B11's bound counts free squares filled, not how pieces move."""
    game = mobiatus(movement=movement)
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    kernel.seed_kernels(12)
    for _ in range(100):
        data = game.new_game().data.copy()
        kernel.random_playout(game.legal_kernel, game.apply_kernel, data, game.spec, out)
        assert data[layout.F_TURNS] <= 130
        assert data[kernel.END_REASON] in (layout.REASON_NO_PIECES, layout.REASON_NO_MOVES)


# -- what a move leaves behind (B8) ---------------------------------------------------------------


def test_the_origin_and_its_opposite_become_singular() -> None:
    state = mobiatus().new_game().play("F2c-F4d")
    assert front(state).split("/")[2] == "Rx13BB13"
    text = str(state)
    assert "    c  R x . ." in text  # on the front board
    assert text.count("R x . .") == 1 and text.count("r x . .") == 1  # and behind it, on the back


# -- mandatory capture (B10) and chain rules (B9) -------------------------------------------------

TWO = """
    a  . B . . . .
    b  . . . B . R
    c  . . . . . .
"""


def test_without_mandatory_capture_every_move_may_be_made() -> None:
    assert texts(small(TWO)) == ["F6b-B2a*-B1c", "F6b-B2a*-B3c", "F6b-B2a*-B4b*-B2c", "F6b-B2a*-B4b*-B6a",
                                 "F6b-B2a*-B4b*-B6c", "F6b-B2c", "F6b-F4a", "F6b-F4c"]


def test_mandatory_capture_forces_a_capture() -> None:
    state = small(TWO, mandatory_capture="on")
    assert texts(state) == ["F6b-B2a*-B1c", "F6b-B2a*-B3c", "F6b-B2a*-B4b*-B2c", "F6b-B2a*-B4b*-B6a",
                            "F6b-B2a*-B4b*-B6c"]
    with pytest.raises(boardlab.IllegalMove, match=r"captures are mandatory \(mandatory_capture=on\)"):
        state.play("F6b-F4a")
    variant = boardlab.load("mobiatus", variant="mandatory_captures", **SMALL).from_text(position(TWO))
    assert texts(variant) == texts(state)


def test_maximal_capture_forces_the_longest_chain() -> None:
    state = small(TWO, mandatory_capture="maximal")
    assert texts(state) == ["F6b-B2a*-B4b*-B2c", "F6b-B2a*-B4b*-B6a", "F6b-B2a*-B4b*-B6c"]
    with pytest.raises(boardlab.IllegalMove, match="as many pieces as possible"):
        state.play("F6b-B2a*-B1c")


def test_must_continue_capturing_forces_captures_within_a_chain_only() -> None:
    state = small(TWO, chain_capture="must_continue_capturing")
    assert texts(state) == ["F6b-B2a*-B4b*-B2c", "F6b-B2a*-B4b*-B6a", "F6b-B2a*-B4b*-B6c", "F6b-B2c", "F6b-F4a",
                            "F6b-F4c"]
    with pytest.raises(boardlab.IllegalMove, match="chain_capture=must_continue_capturing"):
        state.play("F6b-B2a*-B3c")


def test_a_long_chain_from_a_real_game() -> None:
    # From a random game on the standard strip (turn 90): a chain of four captures with a slide;
    # Blue has 10 pieces before it.
    game = mobiatus()
    state = game.from_text(
        "xxx1xxRx5BxxxxxxxBB3xxxx/xxxxRxxR3BxxxxxxxxxxxB1rrxxx/xxxxxxx5Bxxxxxxxxxx3rxxx/"
        "xxxxxR7BxxxxxxxxB2rxxxx/xxxxx7xxxxxxxxxB1B2rrxx r 90 157")
    chain = "B26d-B24e*-B22d~B12b*-B14a*-B13c*-B12e"
    assert state.data[layout.F_COUNT + 1] == 10 and chain in texts(state)
    after = state.play(chain)
    assert after.ply == 157 + 6 and after.data[layout.F_COUNT + 1] == 6 and after.data[layout.F_TURNS] == 91


# -- the end of the game (B11) --------------------------------------------------------------------

BOXED = """
    a  B . . . . r
    b  . . R . r .
    c  . R . . R .
"""


def test_a_player_without_a_legal_move_loses() -> None:
    # Blue's only piece, on F1a, can reach F2c, F3b, B5b and B6a: all hold Red pieces.
    state = small(BOXED).play("F5c-F4a")
    assert state.is_over and state.result == (1.0, 0.0) and state.end_reason == "no moves"
    assert state.to_text().endswith("b 11 11 end:no-moves")
    assert mobiatus(**SMALL).from_text(state.to_text()) == state


def test_the_move_pair_limit_ends_the_game() -> None:
    start = position("""
        a  . B . . . .
        b  R . . . . R
        c  . . . . . B
    """)
    drawn = mobiatus(**SMALL, move_pair_limit=6).from_text(start).play("F6b-B2a*-B4b").play("F6c-B2b")
    assert drawn.result == (0.5, 0.5) and drawn.end_reason == "move-pair limit"
    won = mobiatus(**SMALL, move_pair_limit=6, limit_result="more_pieces_wins").from_text(start)
    won = won.play("F6b-B2a*-B4b").play("F6c-B2b")
    assert won.result == (1.0, 0.0) and won.end_reason == "move-pair limit"  # Red has 2 pieces, Blue 1


def test_every_random_game_ends_within_130_turns() -> None:
    """B11: each turn fills one free paper square of the 130 free at the start (rules notes)."""
    game = mobiatus()
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    kernel.seed_kernels(11)
    turns = []
    for _ in range(400):
        data = game.new_game().data.copy()
        kernel.random_playout(game.legal_kernel, game.apply_kernel, data, game.spec, out)
        turns.append(int(data[layout.F_TURNS]))
        assert data[kernel.END_REASON] in (layout.REASON_NO_PIECES, layout.REASON_NO_MOVES)
    assert max(turns) == 130 and min(turns) < 130


def test_each_turn_fills_exactly_one_free_paper_square() -> None:
    game = mobiatus()
    rng = random.Random(4)
    for _ in range(2):
        state = game.new_game()
        while not state.is_over:
            before = front(state)
            state = state.play(rng.choice(state.legal_moves()))
            free = [sum(int(n) for n in re.findall(r"\d+", text)) for text in (before, front(state))]
            assert free[1] == free[0] - 1


def test_the_groups_kept_between_turns_match_the_board() -> None:
    """The kernel's incremental union-find of singular faces against one rebuilt from the board."""
    for options, seed in [({}, 1), (SMALL, 2), ({"length": 8, "width": 4, "blue_offset": 12}, 3),
                          ({**SMALL, "movement": "knight_wazir"}, 4)]:
        game = mobiatus(**options)
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            kept, fresh = state.data.copy(), state.data.copy()
            groups.rebuild(fresh, game.spec)
            assert group_summary(kept, game) == group_summary(fresh, game)


def test_each_group_s_ring_holds_exactly_its_faces() -> None:
    """The ring of faces kept for each group (merged by ``groups.join``) against a flood fill of the
    board, after every turn of random games, and after a rebuild; the games capture and merge groups."""
    merges = captures = 0
    for options, seed in [({}, 5), (SMALL, 6), ({"length": 8, "width": 4, "blue_offset": 12}, 7),
                          ({**SMALL, "movement": "knight_wazir"}, 8), ({"mandatory_capture": "on"}, 9)]:
        game = mobiatus(**options)
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over:
            before = flood_groups(state.data, game)
            pieces = int(state.data[layout.F_COUNT] + state.data[layout.F_COUNT + 1])
            state = state.play(rng.choice(state.legal_moves()))
            kept, fresh = state.data.copy(), state.data.copy()
            groups.rebuild(fresh, game.spec)
            after = flood_groups(kept, game)
            assert ring_groups(kept, game) == after
            assert ring_groups(fresh, game) == after
            merges += sum(1 for group in after if sum(1 for old in before if old <= group) >= 2)
            captures += pieces - int(state.data[layout.F_COUNT] + state.data[layout.F_COUNT + 1])
    assert merges > 50 and captures > 50, (merges, captures)


def flood_groups(data: np.ndarray, game: boardlab.Game) -> set[frozenset[int]]:
    """The board's groups of orthogonally connected singular faces, found by a flood fill."""
    spec = game.spec
    singular = {face for face in range(int(spec[layout.S_FACES])) if data[layout.BOARD + face] == layout.SING}
    found: set[frozenset[int]] = set()
    while singular:
        group, todo = set(), [singular.pop()]
        while todo:
            face = todo.pop()
            group.add(face)
            for d in range(4):
                other = int(spec[spec[layout.S_ORTH] + 4 * face + d])
                if other in singular:
                    singular.remove(other)
                    todo.append(other)
        found.add(frozenset(group))
    return found


def ring_groups(data: np.ndarray, game: boardlab.Game) -> set[frozenset[int]]:
    """Each singular face's group read from the kept rings; every face of a ring must name its root
    as parent, and the root's size must be the ring's length."""
    spec = game.spec
    faces = int(spec[layout.S_FACES])
    found: set[frozenset[int]] = set()
    for face in range(faces):
        if data[layout.BOARD + face] != layout.SING:
            continue
        root = int(data[spec[layout.S_PARENT] + face])
        ring, member = [root], int(data[spec[layout.S_NEXT] + root])
        while member != root:
            assert len(ring) <= faces, "a ring that does not come back to its root"
            ring.append(member)
            member = int(data[spec[layout.S_NEXT] + member])
        assert len(set(ring)) == len(ring) == data[spec[layout.S_SIZE] + root]
        assert all(data[spec[layout.S_PARENT] + member] == root for member in ring)
        found.add(frozenset(ring))
    return found


def group_summary(data: np.ndarray, game: boardlab.Game) -> list[tuple[int, ...]]:
    spec = game.spec
    faces = int(spec[layout.S_FACES])
    summary = []
    for face in range(faces):
        if data[layout.BOARD + face] == layout.SING:
            root = groups.find(data, spec, face)
            summary.append((face, int(data[spec[layout.S_SIZE] + root]), int(data[spec[layout.S_FREE_CONTACTS] + root]),
                            int(data[spec[layout.S_CIRCLE_CONTACTS] + root]),
                            int(data[spec[layout.S_CIRCLE_CONTACTS] + faces + root])))
    free = sorted(int(data[spec[layout.S_FREE_LIST] + i]) for i in range(int(data[layout.F_FREE_COUNT])))
    return [*summary, tuple(free)]


# -- notation and position text -------------------------------------------------------------------


def test_moves_are_read_as_people_type_them() -> None:
    state = small(GROUP)
    expected = state.play("F1a-F3b~F5b")
    for text in ("f1a-f3b~f5b", "F1a F3b F5b", "F1a-F3b-F5b", " F1a,F3b,F5b "):
        assert state.play(text) == expected
    assert str(state.parse_move("f1a f3b f5b")) == "F1a-F3b~F5b"
    assert small(SEAM).parse_move("F6b B2a B1c").text == "F6b-B2a*-B1c"


@pytest.mark.parametrize("text, error, message", [
    ("hello", boardlab.InvalidMove, "not a move; a move is the piece's square and each square it lands on"),
    ("F9a-F7b", boardlab.InvalidMove, r"there is no square F9a \(squares run from F1a to F6c"),
    ("", boardlab.InvalidMove, "not a move"),
    ("F1a", boardlab.IllegalMove, "name where the piece on F1a goes as well"),
    ("F1a-F2b", boardlab.IllegalMove, "F2b is not a knight's move from F1a"),
    ("F2a-F4b", boardlab.IllegalMove, "F2a holds no Red piece"),
    ("F1a-F2c-F4b", boardlab.IllegalMove, "the move is over once it comes to rest; F4b is one square too many"),
])
def test_malformed_and_impossible_moves_say_why(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        small(GROUP).play(text)


@pytest.mark.parametrize("text, message", [
    ("6/6/6 r 0", "expected '<the front board's rows"),
    ("6/6 r 0 0", "the board has 3 rows, not 2"),
    ("6/6/5 r 0 0", "row c has 5 squares, not 6"),
    ("6/6/5q r 0 0", "row c has 'q'"),
    ("R5/6/5B g 0 0", "expected r or b"),
    ("R5/6/5B r x 0", "expected whole numbers"),
    ("R5/6/5B r 3 2", "ply 2 is less than the 3 turns"),
    ("R5/6/5B r 141 141", "past the limit of 140"),
    ("R5/6/5B r 0 0 swapped", "unexpected 'swapped'"),
    ("RRRRRR/R5/5B r 0 0", "Red has 7 pieces; a side starts with 6"),
    ("6/6/5B r 4 4", "the text says no end flag, but by the rules end:no-pieces"),
    ("R5/6/5B r 4 4 end:no-moves", "the text says end:no-moves, but by the rules the game goes on"),
])
def test_malformed_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message):
        mobiatus(**SMALL).from_text(text)


def test_position_text_round_trips_and_repr_pastes_back() -> None:
    state = mobiatus(**SMALL).new_game().play("F2a-F3c")
    assert state.to_text() == "Rx1BB1/RR1BB1/RRRBB1 b 1 1"
    assert mobiatus(**SMALL).from_text(state.to_text()) == state
    assert eval(repr(state), {"boardlab": boardlab}) == state


# -- terminal play, step by step ------------------------------------------------------------------


def test_the_terminal_asks_for_each_step_of_a_move() -> None:
    script = Script(["F6b", "1", "cancel", "F6b-B2a", "-B4b", "3", "quit"])
    session = PlaySession(small(TWO), {0, 1}, {}, ["a", "b"], read=script.read, write=script.write)
    session.run()
    text = script.text
    assert "Moves beginning F6b; choose the next step" in text
    assert "1) F6b-B2a*   2) F6b-B2c   3) F6b-F4a   4) F6b-F4c" in text
    assert "F6b-B2a*: the move goes on; choose the next step" in text and "1) -B1c   2) -B3c   3) -B4b*" in text
    assert "Cancelled" in text
    assert "F6b-B2a*-B4b*: the move goes on" in text and "1) -B2c   2) -B6a   3) -B6c" in text
    assert "Last move: Red F6b-B2a*-B4b*-B6c" in text
    assert [str(m) for m in session.state.history()] == ["F6b-B2a*-B4b*-B6c"]


def test_a_slide_is_entered_step_by_step_and_end_of_input_leaves() -> None:
    script = Script(["F1a-F3b", "F5b", "F6c-F4b"])
    session = PlaySession(small(GROUP), {0, 1}, {}, ["a", "b"], read=script.read, write=script.write)
    assert session.run() == 0
    assert "1) ~F2a   2) ~F2b   3) ~F3c   4) ~F4a   5) ~F4c   6) ~F5b" in script.text.replace("\n", "   ")
    assert "F6c-F4b: the move goes on" in script.text  # Blue's turn, begun when the input ended
    assert [move.text for move in session.state.history()] == ["F1a-F3b~F5b"]


def test_unicode_digits_are_not_read_as_column_numbers() -> None:
    state = boardlab.load("mobiatus").new_game()
    with pytest.raises(boardlab.IllegalMove):
        state.play("F²a-F3b")


def test_the_step_chooser_answers_the_prompts_commands_and_keeps_the_move_begun() -> None:
    script = Script(["F6b", "moves", "log", "board", "hint", "help", "4", "quit"])
    session = PlaySession(small(TWO), {0, 1}, {}, ["a", "b"], read=script.read, write=script.write)
    session.run()
    text = script.text
    assert "Not a choice" not in text
    assert "Hint (level 3 search" in text and "Commands:" in text and "No moves yet." in text
    assert text.count("Moves beginning F6b; choose the next step") >= 6  # asked again after each command
    assert [str(m) for m in session.state.history()] == ["F6b-F4c"]


def test_undo_in_the_step_chooser_drops_the_move_begun_and_takes_back() -> None:
    script = Script(["F6b-F4c", "F2a-B6b", "undo", "quit"])  # F2a-B6b: Blue's slide, begun
    start = small(TWO)
    session = PlaySession(start, {0, 1}, {}, ["a", "b"], read=script.read, write=script.write)
    session.run()
    assert "F2a-B6b: the move goes on" in script.text
    assert "Took back to ply" in script.text
    assert session.state == start
