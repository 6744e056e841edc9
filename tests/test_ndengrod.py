"""Ndengrod's rules, from the seed (001) and the rules notes (§3, IDs N1–N7).

Positions are ASCII diagrams as ``str(state)`` prints them (see ``tests/diagrams.py``).
"""

from __future__ import annotations

import pytest

import boardlab
from boardlab.games.ndengrod import kernel as k
from tests.diagrams import board_field, position

# The seed's example, verbatim but for the lost indentation: "a game won by X who has formed a
# line of 5 'x' pieces".
SEED_DIAGRAM = """
a- . . . . . / 8
b- . . . . . . / 9
c- . . . x o . . /
d- . . x . x . . .
e- . . o . o x . . .
f- . . o o . x . .
g- . . x . o x .
h- . . . . . .
i- . . . . .
"""
SEED_GAME = "d3 c5 g5 e3 c4 e5 d5 f4 e6 f5 f7 g7 g8".split()


def ndengrod(**options: object) -> boardlab.Game:
    return boardlab.load("ndengrod", **options)


def play(state: boardlab.State, moves: str) -> boardlab.State:
    for move in moves.split():
        state = state.play(move)
    return state


# -- the seed's example ---------------------------------------------------------------------------


def test_seed_example_game_is_won_by_x_with_c4_d5_e6_f7_g8() -> None:
    state = play(ndengrod().new_game(), " ".join(SEED_GAME))
    assert state.is_over
    assert state.result == (1.0, 0.0)
    assert state.end_reason == "line"
    assert state.to_text().split()[0] == board_field(SEED_DIAGRAM)


def test_seed_example_is_not_over_one_move_earlier() -> None:
    state = play(ndengrod().new_game(), " ".join(SEED_GAME[:-1]))
    assert not state.is_over
    assert "g8" in [str(m) for m in state.legal_moves()]


def test_board_is_drawn_in_the_seeds_style() -> None:
    state = play(ndengrod().new_game(), " ".join(SEED_GAME))
    assert str(state) == "\n".join([
        "         1 2 3 4 5",
        "        / / / / / 6",
        "    a- . . . . . / 7",
        "   b- . . . . . . / 8",
        "  c- . . . x o . . / 9",
        " d- . . x . x . . . /",
        "e- . . o . o x . . .",
        " f- . . o o . x . .",
        "  g- . . x . o x .",
        "   h- . . . . . .",
        "    i- . . . . .",
    ])


def test_notation_numbers_cells_along_the_slash_diagonals() -> None:
    game = ndengrod()
    names = [str(m) for m in game.new_game().legal_moves()]
    assert len(names) == 61
    assert names[:5] == ["a1", "a2", "a3", "a4", "a5"]
    # Rows below the middle start at a higher diagonal: row f starts on diagonal 2, row i on 5.
    assert next(n for n in names if n[0] == "f") == "f2"
    assert [n for n in names if n[0] == "i"] == ["i5", "i6", "i7", "i8", "i9"]


# -- captures (N1, N7) ----------------------------------------------------------------------------

CREATES_OWN_FREEDOM = """
  a- . o x
 b- x x x o
c- o o o o .
 d- . . . .
  e- . . .
"""


def test_a_move_may_create_its_own_freedom_by_capturing_first() -> None:
    game = ndengrod(size=3)
    state = game.from_text(position(CREATES_OWN_FREEDOM, "x")).play("a1")
    # o's a2 had only a1 as freedom: it goes first, so x's group then breathes through a2.
    assert state.to_text().split()[0] == board_field("""
      a- x . x
     b- x x x o
    c- o o o o .
     d- . . . .
      e- . . .
    """)


def test_enemy_groups_are_removed_before_the_movers_own() -> None:
    game = ndengrod(size=3, self_capture=False)
    state = game.from_text(position(CREATES_OWN_FREEDOM, "o")).play("a1")
    # o's a1+a2 would have no freedom, but x's four stones lose their last one (a1) and go first.
    assert state.to_text().split()[0] == board_field("""
      a- o o .
     b- . . . o
    c- o o o o .
     d- . . . .
      e- . . .
    """)


SUICIDE = """
  a- . o .
 b- x x o .
c- o o o . .
 d- . . . .
  e- . . .
"""


def test_suicide_is_legal_by_default_and_removes_the_movers_group() -> None:
    state = ndengrod(size=3).from_text(position(SUICIDE, "x")).play("a1")
    assert state.to_text().split()[0] == board_field("""
      a- . o .
     b- . . o .
    c- o o o . .
     d- . . . .
      e- . . .
    """)
    assert not state.is_over
    assert state.to_move == 1


def test_suicide_is_illegal_without_self_capture_and_says_why() -> None:
    state = ndengrod(size=3, self_capture=False).from_text(position(SUICIDE, "x"))
    assert "a1" not in [str(m) for m in state.legal_moves()]
    with pytest.raises(boardlab.IllegalMove, match=r"a1 would leave its group without freedom.*self_capture"):
        state.play("a1")


def test_every_enemy_group_without_freedom_is_captured() -> None:
    state = ndengrod(size=3).from_text(position("""
      a- o . o
     b- x x x x
    c- . . . . .
     d- . . . .
      e- . . .
    """, "x")).play("a2")
    assert state.to_text().split()[0] == board_field("""
      a- . x .
     b- x x x x
    c- . . . . .
     d- . . . .
      e- . . .
    """)


# -- lines (N2, N3) -------------------------------------------------------------------------------


@pytest.mark.parametrize("moves", [
    "a3 a1 b3 a2 c3 b1 d3 b2 e3",  # along a / diagonal
    "e1 a1 e2 a2 e3 a3 e4 a4 e5",  # along a row
])
def test_five_in_a_row_along_every_axis_wins(moves: str) -> None:
    state = play(ndengrod().new_game(), moves)
    assert state.result == (1.0, 0.0)
    assert state.end_reason == "line"


def test_an_overline_wins() -> None:
    state = play(ndengrod().new_game(), "e1 a1 e2 a2 e3 a3 e5 a4 e6 b1")
    assert not state.is_over
    state = state.play("e4")  # e1–e6: six in a row
    assert state.result == (1.0, 0.0)


def test_option_length_sets_the_target() -> None:
    state = play(ndengrod(length=3).new_game(), "e1 a1 e2 a2")
    assert not state.is_over
    assert state.play("e3").result == (1.0, 0.0)


SELF_CAPTURED_LINE = "1ox/xo1x/xxo2/ooxx/2o x 14"  # x to play a1: a1-b1-c1 is three, without freedom


def test_a_line_removed_by_self_capture_does_not_win_by_default() -> None:
    state = ndengrod(size=3, length=3).from_text(SELF_CAPTURED_LINE).play("a1")
    assert not state.is_over
    assert state.to_text().split()[0] == board_field("""
      a- . o x
     b- . o . x
    c- . . o . .
     d- o o x x
      e- . . o
    """)


def test_win_check_before_self_capture_counts_that_line() -> None:
    game = ndengrod(size=3, length=3, win_check="before_self_capture")
    state = game.from_text(SELF_CAPTURED_LINE).play("a1")
    assert state.result == (1.0, 0.0)
    assert state.end_reason == "line"


# -- added draw rules (N6) ------------------------------------------------------------------------

# x's eye at a1, o's eye at e5: each side can only commit suicide in the other's eye.
EYES = "1x1/xx2/5/2oo/1o1 x 10"


def test_threefold_repetition_draws() -> None:
    state = ndengrod(size=3).from_text(EYES)
    start = state.to_text().split()[0]
    state = play(state, "e5 a1 e5")  # suicides: the stones vanish, the position comes back
    assert not state.is_over
    assert state.to_text().split()[0] == start
    state = state.play("a1")  # the start position, x to move, for the third time
    assert state.is_over
    assert state.result == (0.5, 0.5)
    assert state.end_reason == "repetition"


def test_repetition_off_plays_on() -> None:
    state = play(ndengrod(size=3, repetition="off").from_text(EYES), "e5 a1 e5 a1 e5 a1")
    assert not state.is_over


def test_superko_forbids_recreating_an_earlier_position() -> None:
    state = ndengrod(size=3, repetition="superko").from_text(EYES).play("e5")
    assert "a1" not in [str(m) for m in state.legal_moves()]
    with pytest.raises(boardlab.IllegalMove, match="repeat an earlier position"):
        state.play("a1")


def test_ply_cap_draws() -> None:
    state = play(ndengrod(ply_cap=4).new_game(), "a1 i5 a2")
    assert not state.is_over
    state = state.play("i6")
    assert state.result == (0.5, 0.5)
    assert state.end_reason == "ply cap"


def test_a_player_without_a_legal_placement_must_pass() -> None:
    # Every empty cell would be suicide for x; self_capture=False makes them illegal.
    state = ndengrod(size=2, length=3, self_capture=False).from_text("1o/oo1/1o x 10")
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    after = state.play("pass")
    assert after.to_move == 1 and not after.is_over
    assert after.to_text().endswith("passed")


def test_two_passes_in_a_row_draw() -> None:
    state = ndengrod(size=2, length=3, self_capture=False).from_text("1o/oo1/1o x 10 passed")
    state = state.play("pass")
    assert state.result == (0.5, 0.5)
    assert state.end_reason == "passes"


def test_pass_is_illegal_while_a_placement_is_legal() -> None:
    with pytest.raises(boardlab.IllegalMove, match="only when no placement is legal"):
        ndengrod().new_game().play("pass")


# -- swap (N5) ------------------------------------------------------------------------------------


def test_swap_gives_the_second_player_the_first_stone() -> None:
    state = ndengrod(swap=True).new_game().play("e5")
    assert "swap" in [str(m) for m in state.legal_moves()]
    state = state.play("swap")
    assert state.to_move == 0
    assert state.seat_label(0) == "o" and state.seat_label(1) == "x"
    assert "swapped" in state.to_text()
    # x's line now wins for seat 1.
    state = play(state, "a1 e4 a2 e3 a3 e2 a4 e1")
    assert state.result == (0.0, 1.0)


def test_swap_is_refused_without_the_option_and_after_the_second_move() -> None:
    with pytest.raises(boardlab.IllegalMove, match="swap=false"):
        ndengrod().new_game().play("e5").play("swap")
    with pytest.raises(boardlab.IllegalMove, match="only the second player may swap"):
        ndengrod(swap=True).new_game().play("e5").play("e4").play("swap")


# -- boards, options, notation errors -------------------------------------------------------------


def test_trapezoid_is_the_70_cell_board_by_default() -> None:
    game = ndengrod(board="trapezoid")
    assert game.options["size"] == 7
    moves = [str(m) for m in game.new_game().legal_moves()]
    assert len(moves) == 70
    assert moves[0] == "a1" and moves[-1] == "g13"


def test_variants_set_their_options() -> None:
    game = boardlab.load("ndengrod", variant="pentalath")
    assert (game.options["self_capture"], game.options["swap"], game.options["board"]) == (False, True, "trapezoid")
    with pytest.raises(boardlab.OptionError, match="unknown variant 'go'; accepted: pbmserv_revised"):
        boardlab.load("ndengrod", variant="go")


@pytest.mark.parametrize("options, message", [
    ({"size": 1}, "size=1 is out of range; accepted: an integer from 2 to 12"),
    ({"size": "big"}, "size='big' is not accepted; accepted: an integer from 2 to 12"),
    ({"self_capture": "maybe"}, "accepted: true or false"),
    ({"board": "square"}, "accepted: one of hexhex, trapezoid"),
    ({"colour": "red"}, "unknown option 'colour'; accepted: size, length"),
    ({"size": 3, "length": 6}, "longest line has 5 cells; accepted: an integer from 2 to 5"),
])
def test_bad_options_say_what_is_accepted(options: dict, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        boardlab.load("ndengrod", **options)


def test_options_from_the_command_line_are_parsed() -> None:
    game = boardlab.load("ndengrod", size="4", self_capture="false", swap="yes")
    assert (game.options["size"], game.options["self_capture"], game.options["swap"]) == (4, False, True)


@pytest.mark.parametrize("text, message", [
    ("hello", "not a move; moves are a cell such as a1 or d3"),
    ("a9", "no such cell on this board"),
    ("", "not a move"),
])
def test_malformed_moves_are_invalid(text: str, message: str) -> None:
    with pytest.raises(boardlab.InvalidMove, match=message):
        ndengrod().new_game().play(text)


def test_moves_are_read_as_people_type_them() -> None:
    state = ndengrod().new_game()
    assert state.play(" D3 ") == state.play("d3")
    assert str(state.parse_move("E5")) == "e5"


def test_an_occupied_cell_is_illegal() -> None:
    with pytest.raises(boardlab.IllegalMove, match="d3 is occupied"):
        ndengrod().new_game().play("d3").play("d3")


@pytest.mark.parametrize("text, message", [
    ("5/6/7/8/9/8/7/6 x 0", "the board has 9 rows, not 8"),
    ("5/6/7/8/9/8/7/6/4 x 0", "row i has 4 cells, not 5"),
    ("5/6/7/8/9/8/7/6/5 z 0", "expected x or o"),
    ("5/6/7/8/9/8/7/6/5 x many", "expected a whole number"),
    ("5/6/7/8/9/8/7/6/q4 x 0", "row i has 'q'"),
    ("5/6/7/8/9/8/7/6/5 x 0 bogus", "unexpected 'bogus'"),
    ("5/6/7/8/9/8/7/6/5", "expected '<rows separated by />"),
    ("xo3/oo4/7/8/9/8/7/6/5 x 4", "group at a1 has no freedom"),
    ("5/6/7/8/xxxxx4/8/7/6/5 o 9", "x has a line, so the game is over"),
    ("5/6/7/8/9/8/7/6/5 x 301", "past the ply cap 300"),
])
def test_malformed_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message.replace("(", r"\(")):
        ndengrod().from_text(text)


def test_a_finished_position_reads_back_finished() -> None:
    state = play(ndengrod().new_game(), " ".join(SEED_GAME))
    again = ndengrod().from_text(state.to_text())
    assert again.is_over and again.result == (1.0, 0.0) and again.end_reason == "line"
    assert again.to_text() == state.to_text()


def test_repr_pastes_back() -> None:
    state = ndengrod(size=4).new_game().play("c3")
    assert repr(state) == "boardlab.load('ndengrod', size=4).from_text('4/5/2x3/7/6/5/4 o 1')"
    assert eval(repr(state), {"boardlab": boardlab}) == state


# -- the position's text and drawing, against plain references --------------------------------------


def _reference_text(game: boardlab.Game, state: boardlab.State) -> str:
    """The position text written plainly: each row's cells, runs of empty cells counted, then the fields."""
    data, rows, row_texts = state.data, {}, []
    for cell, (row, _) in enumerate(game.topology.coords):
        rows.setdefault(row, []).append(".xo"[int(data[k.BOARD + cell])])
    for letters in rows.values():
        text, empty = "", 0
        for letter in [*letters, "end"]:
            if letter == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + ("" if letter == "end" else letter)
            empty = 0
        row_texts.append(text)
    fields = ["/".join(row_texts), "xo"[int(data[k.F_COLOUR])], str(state.ply)]
    fields += ["swapped"] * bool(data[k.F_SWAPPED]) + ["passed"] * bool(data[k.F_PASSES])
    if state.is_over:
        fields.append(f"end:{state.end_reason}")
    return " ".join(fields)


def _reference_drawing(game: boardlab.Game, state: boardlab.State) -> str:
    """The board drawn plainly: the empty drawing's lines with each cell's letter put in its place."""
    lines, places = game._drawing()  # type: ignore[attr-defined]
    rows = [list(line) for line in lines]
    for cell, (line, column) in enumerate(places):
        rows[line][column] = ".xo"[int(state.data[k.BOARD + cell])]
    return "\n".join("".join(row) for row in rows)


@pytest.mark.parametrize("options", [{}, {"size": 3, "length": 3}, {"board": "trapezoid", "swap": True},
                                     {"size": 4, "swap": True, "self_capture": False}])
def test_position_text_and_drawing_match_plain_references_along_random_games(options: dict[str, object]) -> None:
    import random

    game = ndengrod(**options)
    rng = random.Random(7)
    checked = 0
    for _ in range(12):
        state = game.new_game()
        while True:
            assert state.to_text() == _reference_text(game, state)
            assert str(state) == _reference_drawing(game, state)
            assert game.from_text(state.to_text()).to_text() == state.to_text()
            checked += 1
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 100
