"""Hidden Move Double Gomoku's rules, from the seed (002) and the rules notes (§4, IDs H1–H8).

Positions are written as boards of point tokens, one row per line (``x``/``o`` hidden, ``X``/``O``
revealed, ``xo``-style pairs for stacks, ``.`` empty), turned into position text by ``position``.
"""

from __future__ import annotations

import textwrap

import pytest

import boardlab
from boardlab.core import kernel as core
from boardlab.games.hmdg import kernel as k


def hmdg(**options: object) -> boardlab.Game:
    return boardlab.load("hmdg", **options)


def play(state: boardlab.State, *moves: str) -> boardlab.State:
    for move in moves:
        state = state.play(move)
    return state


def position(diagram: str, turn: str = "x", ply: int = 30, *fields: str) -> str:
    """Position text for a drawn board (seat 0 plays x unless a field says otherwise)."""
    rows = []
    for line in textwrap.dedent(diagram).strip().splitlines():
        text, empty = "", 0
        for token in line.split():
            if token == ".":
                empty += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            text += f"({token})" if len(token) == 2 else token
        rows.append(text + (str(empty) if empty else ""))
    extra = fields if any(f.startswith("x=") for f in fields) else ("x=0", *fields)
    return " ".join(["/".join(rows), turn, str(ply), *extra])


def board(state: boardlab.State) -> list[str]:
    """The board field of the full position text, row by row."""
    return state.to_text().split()[0].split("/")


def texts(moves: list[boardlab.Move]) -> list[str]:
    return [str(move) for move in moves]


EMPTY5 = """
. . . . .
. . . . .
. . . . .
. . . . .
. . . . .
"""

# -- the board and the notation -------------------------------------------------------------------


def test_rows_are_lettered_a_to_h_and_j_like_a_go_board_and_columns_numbered() -> None:
    names = texts(hmdg().new_game().legal_moves())
    assert len(names) == 81
    assert names[:9] == [f"a{n}" for n in range(1, 10)]
    assert {name[0] for name in names} == set("abcdefghj")
    with pytest.raises(boardlab.InvalidMove, match=r"no such point on this board \(rows a to j, no i"):
        hmdg().new_game().play("i5")


def test_a_commit_must_announce_a_row_or_a_column() -> None:
    state = play(hmdg().new_game(), "e5", "o")
    assert texts(state.legal_moves())[:4] == ["a1/row", "a1/col", "a2/row", "a2/col"]
    with pytest.raises(boardlab.InvalidMove, match=r"announce its row or its column too: c3/row or c3/col"):
        state.play("c3")
    assert state.play("C3 / Column").last_move == boardlab.Move("c3/col", (2 * 20 + 1,))
    assert state.play("c3 row") == state.play("c3/row")


# -- setup (H7) -----------------------------------------------------------------------------------


def test_pie_setup_a_places_x_and_b_chooses_o_to_move_first() -> None:
    state = hmdg().new_game()
    assert state.to_move == 0 and state.seat_label(0) == "A"
    state = state.play("e5")
    assert state.to_move == 1 and texts(state.legal_moves()) == ["x", "o"]
    assert board(state)[4] == "4X4"  # the setup stone is public and closes its point
    after = state.play("o")
    assert (after.seat_label(0), after.seat_label(1), after.to_move) == ("x", "o", 1)


def test_pie_setup_b_may_take_the_x_stone_and_then_a_is_o_and_moves_first() -> None:
    state = play(hmdg().new_game(), "e5", "x")
    assert (state.seat_label(0), state.seat_label(1), state.to_move) == ("o", "x", 0)
    assert "e5/row" not in texts(state.legal_moves())  # the x stone's point is closed


def test_fixed_setup_puts_x_on_the_centre_and_seat_0_is_o_and_moves_first() -> None:
    state = hmdg(setup="fixed").new_game()
    assert state.to_text() == "9/9/9/9/4X4/9/9/9/9 o 0 x=1"
    assert state.to_move == 0 and state.seat_label(0) == "o"


# -- the turn protocol (H1–H4) --------------------------------------------------------------------

START = position(EMPTY5, "x", 10)


def game5(**options: object) -> boardlab.Game:
    return hmdg(size=5, line_length=3, **options)


def test_the_responder_owes_a_decision_and_does_not_learn_the_target() -> None:
    game = game5()
    state = game.from_text(position("""
        . . . . .
        . . . . .
        o . o . o
        . . . . .
        . . . . .
        """, "x", 10))
    at_c2 = state.play("c2/row")
    at_c4 = state.play("c4/row")
    assert at_c2.to_move == 1 and at_c2.data[core.MID_TURN] == 1  # x's turn is not over
    # Every subset of o's three hidden stones on row c, whatever the target: 2^3 choices.
    assert texts(at_c2.legal_moves()) == texts(at_c4.legal_moves())
    assert len(at_c2.legal_moves()) == 8
    assert "reveal c1 c3 c5" in texts(at_c2.legal_moves())
    assert at_c2.view(1).to_text() == at_c4.view(1).to_text()
    assert str(at_c2.view(1)) == str(at_c4.view(1))
    assert at_c2.view(1).history()[-1].text == "row c"


def test_nothing_revealed_the_stone_lands_hidden() -> None:
    state = game5().from_text(START).play("b2/col").play("none")
    assert board(state)[1] == "1x3"
    assert state.to_move == 1
    assert state.view(1).to_text().split()[0] == "5/5/5/5/5"  # o does not see it
    assert state.view(1).history()[-2:] == [boardlab.Move("col 2", ()), boardlab.Move("none: placed hidden",
                                                                                      (k.reveal_base(25),))]


def test_a_reveal_makes_the_target_public_and_the_stone_lands_revealed() -> None:
    state = game5().from_text(position("""
        . . . . .
        o . . . .
        . . . . .
        . . . . .
        . . . . .
        """)).play("b3/row").play("reveal b1")
    assert board(state)[1] == "O1X2"
    assert state.view(1).history()[-1].text == "reveal b1: b3 placed"


def test_a_move_fails_when_a_revealed_stone_stands_on_its_target() -> None:
    state = game5().from_text(position("""
        . . . . .
        . . o . .
        . . . . .
        . . . . .
        . . . . .
        """)).play("b3/col").play("reveal b3")
    assert board(state)[1] == "2O2"  # no x placed; o's stone is public
    assert state.to_move == 1  # the turn is over: no retry
    assert state.view(None).history()[-1].text == "reveal b3: b3 failed"


def test_revealed_points_are_closed_to_both_players() -> None:
    state = game5().from_text(position("""
        X . . . .
        . O . . .
        . . . . .
        . . . . .
        . . . . .
        """))
    legal = texts(state.legal_moves())
    assert "a1/row" not in legal and "b2/row" not in legal and "a2/row" in legal
    with pytest.raises(boardlab.IllegalMove, match="b2/col: b2 is closed: a revealed stone stands there"):
        state.play("b2/col")


def test_stacking_both_players_stones_stand_on_one_point() -> None:
    game = game5()
    state = game.from_text(position("""
        . . . . .
        . . o . .
        . . . . .
        . . . . .
        . . . . .
        """))
    assert "b3/row" in texts(state.legal_moves())  # a hidden enemy stone does not close a point
    state = state.play("b3/row").play("none")
    assert board(state)[1] == "2(xo)2"
    # o later reveals its b3 stone in answer to x's column 3: x's own stone there stays hidden.
    state = play(state, "a1/row", "none", "d3/col", "reveal b3")
    assert board(state)[1] == "2(xO)2"
    assert state.view(1).to_text().split()[0].split("/")[1] == "2O2"


def test_reveal_stack_partner_reveals_both_stones_of_a_stack() -> None:
    state = game5(reveal_stack_partner=True).from_text(position("""
        . . . . .
        . . (xo) . .
        . . . . .
        . . . . .
        . . . . .
        """, "x", 30, "x=0"))
    state = play(state, "d3/col", "reveal b3")
    assert board(state)[1] == "2(XO)2"
    assert state.view(None).history()[-1].text == "reveal b3: d3 placed; stack partners revealed: x b3"


def test_a_player_may_not_target_their_own_stone_unless_allow_own_stack() -> None:
    diagram = """
        . . . . .
        . x . . .
        . . . . .
        . . . . .
        . . . . .
        """
    state = game5().from_text(position(diagram))
    with pytest.raises(boardlab.IllegalMove, match=r"b2 already holds your stone \(option allow_own_stack=false\)"):
        state.play("b2/row")
    stacked = game5(allow_own_stack=True).from_text(position(diagram)).play("b2/row").play("none")
    assert board(stacked)[1] == "1x3"  # merged: a point holds one stone per player
    assert stacked.to_text().endswith("hidden=2,0")  # the log counted two hidden placements


# -- winning (H5) ---------------------------------------------------------------------------------

ROW_OF_FIVE_AND_FOUR = """
x x x x . . . . .
. . . . . . . . .
x x x x x . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_six_in_a_row_is_not_a_win() -> None:
    game = hmdg()
    state = game.from_text(position("""
        . . . . . . . . .
        . . . . . . . . .
        x x x x x . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """, "x", 30, "fives=x")).play("c6/row").play("none")
    assert not state.is_over
    assert state.view(1).history()[-1].text == "none: placed hidden; five"  # c2–c6 is a new five


def test_nine_in_a_row_is_a_win() -> None:
    state = hmdg().from_text(position("""
        . . . . . . . . .
        . . . . . . . . .
        x x x x . x x x x
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """)).play("c5/col").play("none")
    assert state.is_over and state.result == (1.0, 0.0) and state.end_reason == "lines"
    assert state.view(1).history()[-1].text == "none: placed hidden; 5 fives"
    assert board(state)[2] == "XXXXXXXXX"  # the winner's stones are revealed for verification


def test_two_crossing_fives_sharing_one_stone_win() -> None:
    state = hmdg().from_text(position("""
        . . . . x . . . .
        . . . . x . . . .
        x x x x . . . . .
        . . . . x . . . .
        . . . . x . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """)).play("c5/row").play("none")
    assert state.result == (1.0, 0.0)
    assert state.view(None).history()[-1].text == "none: placed hidden; 2 fives"


def test_two_fives_must_share_no_more_than_max_shared_points() -> None:
    crossing = position("""
        . . . . x . . . .
        . . . . x . . . .
        x x x x . . . . .
        . . . . x . . . .
        . . . . x . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """)
    assert not play(hmdg(max_shared=0).from_text(crossing), "c5/row", "none").is_over
    seven = position("""
        . . . . . . . . .
        . . . . . . . . .
        x x x . x x x . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """)
    assert not play(hmdg().from_text(seven), "c4/row", "none").is_over  # fives c1–c5, c3–c7 share 3
    assert play(hmdg(max_shared=3).from_text(seven), "c4/row", "none").result == (1.0, 0.0)


def test_hidden_and_stacked_stones_count_for_their_owner() -> None:
    state = hmdg().from_text(position("""
        . . . . . . . . .
        . . . . . . . . .
        X (xo) x (xO) . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """))
    state = play(state, "c5/row", "none")
    assert state.view(0).history()[-1].text == "none: placed hidden; five"


def test_the_earlier_version_needs_one_five() -> None:
    game = boardlab.load("hmdg", variant="earlier_version")
    assert game.options["lines_needed"] == 1
    state = game.from_text(position(ROW_OF_FIVE_AND_FOUR.replace("x x x x x", "x x x x .", 1), "x", 30))
    assert play(state, "c5/row", "none").result == (1.0, 0.0)


def test_without_overline_counts_only_exact_fives_count() -> None:
    game = hmdg(overline_counts=False)
    five_and_gap = position("""
        . . . . . . . . .
        . . . . . . . . .
        x x x x x . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """, "x", 30, "fives=x")
    six = play(game.from_text(five_and_gap), "c6/row", "none")
    assert six.view(1).history()[-1].text == "none: placed hidden"  # a six holds no exact five
    nine = play(game.from_text(position("""
        . . . . . . . . .
        . . . . . . . . .
        x x x x . x x x x
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        """)), "c5/row", "none")
    assert not nine.is_over


# -- announcing fives (H6) ------------------------------------------------------------------------

SIX_WITH_GAP = """
. . . . . . . . .
. . . . . . . . .
x x . x x x . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize(("announce", "first", "second"), [
    ("every_new_segment", "none: placed hidden; 2 fives", "none: placed hidden; five"),
    ("first_five_only", "none: placed hidden; 2 fives", "none: placed hidden"),
    ("none", "none: placed hidden", "none: placed hidden"),
])
def test_new_fives_are_announced_without_their_place(announce: str, first: str, second: str) -> None:
    state = hmdg(announce=announce).from_text(position(SIX_WITH_GAP))
    state = play(state, "c3/row", "none")  # c1–c6: two new fives, sharing four points
    assert state.view(1).history()[-1].text == first
    state = play(state, "j9/row", "none", "c7/row", "none")  # c3–c7
    assert state.view(1).history()[-1].text == second
    assert not state.is_over


# -- ending (H6, H8) ------------------------------------------------------------------------------


def test_reveal_at_end_all_reveals_the_losers_stones_too() -> None:
    diagram = ROW_OF_FIVE_AND_FOUR.replace(". . . . . . . . .", "o . . . . . . . .", 1)
    for option, row_b in (("winner", "o8"), ("all", "O8")):
        state = play(hmdg(reveal_at_end=option).from_text(position(diagram, "x", 30, "fives=x")), "a5/row", "none")
        assert state.result == (1.0, 0.0)
        assert board(state)[0] == "XXXXX4"
        assert board(state)[1] == row_b


def test_a_mover_without_a_legal_target_passes_and_two_passes_draw() -> None:
    game = hmdg(size=3, line_length=3)
    state = game.from_text(position("""
        X O X
        X x O
        O X O
        """, "x", 30))
    assert texts(state.legal_moves()) == ["pass"]
    state = state.play("pass")
    assert state.to_move == 1 and texts(state.legal_moves()) == ["b2/row", "b2/col"]
    state = play(state, "b2/row", "none")  # o stacks on x's hidden b2
    assert texts(state.legal_moves()) == ["pass"]
    assert not state.is_over
    state = state.play("pass")
    state = state.play("pass")
    assert state.is_over and state.result == (0.5, 0.5) and state.end_reason == "passes"


def test_with_no_target_draw_the_game_ends_when_the_mover_has_no_target() -> None:
    game = hmdg(size=3, line_length=3, no_target="draw")
    state = game.from_text(position("""
        X O X
        X x O
        O X O
        """, "x", 30)).play("pass")
    assert state.is_over and state.result == (0.5, 0.5) and state.end_reason == "no target"


def test_options_that_cannot_work_together_are_refused_with_the_reason() -> None:
    with pytest.raises(boardlab.OptionError, match="line_length=6 does not fit on a board of size 5"):
        hmdg(size=5, line_length=6)
    with pytest.raises(boardlab.OptionError, match="max_shared=5 must be smaller than line_length=5"):
        hmdg(max_shared=5)


# -- position text --------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "text"), [
    ({}, "9/9/9/9/9/9/9/9/9 setup 0"),
    ({}, "9/9/9/9/4X4/9/9/9/9 choose 1"),
    ({"size": 5, "line_length": 3}, "5/1o3/2X2/(xO)4/5 x 9 x=0 announced=row:b target=b4 fives=o"),
    ({"size": 5, "line_length": 3}, "5/1o3/2X2/(xO)4/5 o 9 x=1 passed"),
    ({"size": 5, "line_length": 3, "allow_own_stack": True}, "5/1o3/5/5/5 o 9 x=1 hidden=0,2"),
])
def test_position_text_round_trips(options: dict, text: str) -> None:
    assert hmdg(**options).from_text(text).to_text() == text


@pytest.mark.parametrize(("text", "message"), [
    ("5/5/5 x 3 x=0", "the board has 5 rows, not 3"),
    ("5/5/2q2/5/5 x 3 x=0", "row c has 'q'"),
    ("5/5/5/5/5 x 3", r"says who plays x \(x=0 or x=1\)"),
    ("5/5/5/5/5 x 3 x=0 announced=row:b target=c3", "the target c3 is not on the announced line"),
    ("5/1X3/5/5/5 x 3 x=0 announced=row:b target=b2", "the target b2 is closed"),
    ("XXX2/XXX2/5/5/5 x 9 x=0", "x has winning lines, so the game is over"),
    ("5/5/5/5/5 x 3 x=0 end:lines", "x has no winning lines"),
    ("5/1x3/5/5/5 x 3 x=0 hidden=0,0", "hidden=0,0, but the board shows 1,0 hidden stones"),
    ("5/5/5/5/5 setup 0 x=1", "'setup' comes only at the start of a pie setup"),
    ("5/5/5/5/5 x 3 x=0 colour=red", "unexpected 'colour=red'"),
])
def test_malformed_or_impossible_positions_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message):
        hmdg(size=5, line_length=3, lines_needed=2).from_text(text)


# -- drawing --------------------------------------------------------------------------------------


def test_each_seat_sees_its_own_stones_and_the_public_ones() -> None:
    state = game5().from_text(position("""
        x . . . .
        . (xo) . . .
        . . O . .
        . . . o .
        X . . . .
        """, "x", 12, "x=0", "fives=o")).play("c5/row")
    assert str(state.view(0)) == "\n".join([
        "      1  2  3  4  5",
        "  A   x  .  .  .  .",
        "  B   .  x  .  .  .",
        "  C   .  .  O  .  *",
        "  D   .  .  .  .  .",
        "  E   X  .  .  .  .",
        "",
        "x o: hidden stones   X O: revealed (the point is closed)   *: your target",
        "x (seat 0): 2 hidden, 1 revealed",
        "o (seat 1): 2 hidden, 1 revealed, announced a five",
        "x announced row c: o may reveal hidden stones on row c (none, or reveal and the",
        "points).",
    ])
    assert str(state.view(1)).splitlines()[1:6] == [
        "  A   .  .  .  .  .",
        "  B   .  o  .  .  .",
        "  C   .  .  O  .  .",
        "  D   .  .  .  o  .",
        "  E   X  .  .  .  .",
    ]
    assert "x" not in "".join(str(state.view(None)).splitlines()[1:6]).replace("X", "")
