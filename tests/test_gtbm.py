"""GTBM's rules, from the seed (000) and the rules notes (§1, IDs G1–G7).

The seed's six diagrams are lost; their captions are rebuilt here as positions. Positions are ASCII
diagrams as ``str(state)`` prints them: a line per rank, the rank number, then ``.``, ``B``, ``W``.
"""

from __future__ import annotations

import re
import textwrap

import pytest

import boardlab

RANK = re.compile(r"\s*(\d+)\s+([.BW ]+)$")


def board_field(diagram: str) -> str:
    """The board part of the position text for a drawn board (rank lines only; the rest is ignored)."""
    ranks = []
    for line in textwrap.dedent(diagram).splitlines():
        match = RANK.match(line)
        if match:
            cells = match.group(2).split()
            ranks.append(re.sub(r"\.+", lambda run: str(len(run.group())), "".join(cells)))
    return "/".join(ranks)


def position(diagram: str, to_move: str = "b", ply: int | None = None, quiet: int = 0) -> str:
    # By default a ply that fits the side to move (Black moves first, G7) and leaves time for the
    # moves that made the position.
    ply = (40 if to_move == "b" else 41) if ply is None else ply
    return f"{board_field(diagram)} {to_move} {ply} {quiet}"


def gtbm(**options: object) -> boardlab.Game:
    return boardlab.load("gtbm", **options)


def play(state: boardlab.State, moves: str) -> boardlab.State:
    for move in moves.split(","):
        state = state.play(move.strip())
    return state


def moves_from(state: boardlab.State, square: str) -> list[str]:
    return [str(m) for m in state.legal_moves() if str(m).startswith(square + "-")]


# -- the start and the seed's captions ------------------------------------------------------------


def test_start_position_black_on_rank_1_moves_first() -> None:
    state = gtbm().new_game()
    assert state.to_move == 0 and state.seat_label(0) == "Black"
    assert state.to_text() == "WWWWWWWW/8/8/8/8/8/8/BBBBBBBB b 0 0"
    assert str(state).splitlines()[-2:] == [
        "   a b c d e f g h",
        "B Black, moves up · W White, moves down · 0 plies without capture (limit 100)",
    ]
    assert len(state.legal_moves()) == 14  # two diagonals each, one at each edge


def test_the_bottom_left_black_piece_cannot_move_forward_right_or_to_the_rear() -> None:
    # Caption: "The bottom left Black piece cannot move forward right or to the rear."
    state = play(gtbm().new_game(), "c1-b2, h8-g7")
    assert moves_from(state, "a1") == []
    with pytest.raises(boardlab.IllegalMove, match="b2 is occupied"):
        state.play("a1-b2")
    with pytest.raises(boardlab.IllegalMove, match="one square, diagonally forward or straight back"):
        state.play("a1-a2")
    assert moves_from(state, "b2") == ["b2-a3", "b2-c3"]  # b2's rear, b1, is occupied too


TAKES = """
8  . . . . . . . W
7  . . . . . . . .
6  . . . B . . . .
5  . . . . . . . .
4  . . B W . . . .
3  . . . . . . . .
2  . . . . . . . .
1  . . . . . . . .
"""


def test_a_take_from_the_side_is_legal_and_a_backstab_is_not() -> None:
    # Caption: "Blue take is legal, but Red isn't because that piece was not moving from the side."
    state = gtbm().from_text(position(TAKES))
    assert "c4-d5xd4" in [str(m) for m in state.legal_moves()]
    assert moves_from(state, "d6") == ["d6-c7", "d6-e7", "d6-d5"]  # the step back to d5 takes nothing
    taken = state.play("c4-d5")
    assert board_field(str(taken)) == board_field("""
    8  . . . . . . . W
    7  . . . . . . . .
    6  . . . B . . . .
    5  . . . B . . . .
    4  . . . . . . . .
    3  . . . . . . . .
    2  . . . . . . . .
    1  . . . . . . . .
    """)
    backstab = state.play("d6-d5")
    assert board_field(str(backstab)) == board_field("""
    8  . . . . . . . W
    7  . . . . . . . .
    6  . . . . . . . .
    5  . . . B . . . .
    4  . . B W . . . .
    3  . . . . . . . .
    2  . . . . . . . .
    1  . . . . . . . .
    """)
    assert taken.to_text().split()[3] == "0" and backstab.to_text().split()[3] == "1"


COLUMN = """
8  . . . . . . . .
7  . . . . . . . .
6  . . . . . . . .
5  . . . W . . . .
4  . . B W . . . .
3  . . . . . . . .
2  B . . . . . . .
1  . . . . . . . .
"""


def test_a_column_protects_its_front_piece_black_cannot_take_but_white_can() -> None:
    # Caption: "Black cannot take, but White can" — White's partial vertical line d4-d5.
    black = gtbm().from_text(position(COLUMN, "b"))
    assert not any("x" in str(m) for m in black.legal_moves())
    assert "c4-d5" not in [str(m) for m in black.legal_moves()]
    white = gtbm().from_text(position(COLUMN, "w"))
    assert "d4-c3xc4" in [str(m) for m in white.legal_moves()]


def test_take_and_retake_tit_for_tat() -> None:
    # Captions: "Nothing can prevent Black from being taken, but there is an option to enact
    # tit-for-tat"; "Defensive play to ensure take and retake"; "Swap of pieces complete".
    state = gtbm().from_text(position(COLUMN, "b"))
    state = play(state, "a2-b3, d4-c3xc4")
    assert board_field(str(state)) == board_field("""
    8  . . . . . . . .
    7  . . . . . . . .
    6  . . . . . . . .
    5  . . . W . . . .
    4  . . . . . . . .
    3  . B W . . . . .
    2  . . . . . . . .
    1  . . . . . . . .
    """)
    state = state.play("b3-c4xc3")
    assert board_field(str(state)) == board_field("""
    8  . . . . . . . .
    7  . . . . . . . .
    6  . . . . . . . .
    5  . . . W . . . .
    4  . . B . . . . .
    3  . . . . . . . .
    2  . . . . . . . .
    1  . . . . . . . .
    """)


def test_a_piece_on_its_own_home_row_cannot_be_taken() -> None:
    # Nothing is behind a home row, and an enemy beside it is on its far row: it can only step back.
    assert [str(m) for m in gtbm(size=4).from_text("1BW1/4/4/4 b 10 4").legal_moves()] == ["b4-b3"]
    assert [str(m) for m in gtbm(size=4).from_text("4/4/4/1WB1 w 7 4").legal_moves()] == ["b1-b2"]


def test_a_piece_on_the_enemy_home_row_can_be_taken() -> None:
    state = gtbm(size=4).from_text("W3/4/4/1BW1 b 10 4")
    assert [str(m) for m in state.legal_moves()] == ["b1-a2", "b1-c2xc1"]


def test_the_far_row_gives_no_promotion() -> None:
    state = gtbm(size=4).from_text("1B2/4/4/2W1 b 10 4")
    assert moves_from(state, "b4") == ["b4-b3"]


# -- capture reach (G1) and mandatory capture (G3) ----------------------------------------------

REACH = """
8  . . . . . . . W
7  . . . . . . . .
6  . . . . . . . .
5  . . . . . . . .
4  . . B . W . . .
3  . . . W . . . .
2  . . . . . . . .
1  . . . . . . . .
"""


def test_capture_reach_adjacent_takes_only_beside_the_start_square() -> None:
    state = gtbm().from_text(position(REACH))
    assert moves_from(state, "c4") == ["c4-b5", "c4-d5", "c4-c3"]


def test_capture_reach_column_takes_the_first_piece_down_the_column() -> None:
    state = gtbm(capture_reach="column").from_text(position(REACH))
    assert moves_from(state, "c4") == ["c4-b5", "c4-d5xd3", "c4-c3"]


def test_capture_reach_column_stops_at_an_own_piece() -> None:
    diagram = REACH.replace("3  . . . W", "3  . . . W").replace("4  . . B . W", "4  . . B B W")
    state = gtbm(capture_reach="column").from_text(position(diagram))
    assert "c4-d5" in moves_from(state, "c4")  # d4 is Black's own: nothing is taken


def test_capture_reach_diagonal_also_takes_two_files_beside() -> None:
    state = gtbm(capture_reach="diagonal_also").from_text(position(REACH))
    assert moves_from(state, "c4") == ["c4-b5", "c4-d5xe4", "c4-c3"]
    both = REACH.replace("4  . . B . W", "4  . . B W W")
    state = gtbm(capture_reach="diagonal_also").from_text(position(both))
    after = state.play("c4-d5xd4xe4")
    assert board_field(str(after)).split("/")[4] == "8"


def test_mandatory_capture_allows_only_captures_when_one_exists() -> None:
    state = gtbm(mandatory_capture=True).from_text(position(TAKES))
    assert [str(m) for m in state.legal_moves()] == ["c4-d5xd4"]
    with pytest.raises(boardlab.IllegalMove, match="a capturing move must be played"):
        state.play("d6-d5")
    free = gtbm(mandatory_capture=True).from_text(position(COLUMN, "b"))
    assert len(free.legal_moves()) == len(gtbm().from_text(position(COLUMN, "b")).legal_moves())


# -- end of the game (G5) -------------------------------------------------------------------------


def test_a_player_who_cannot_move_loses_if_the_opponent_can() -> None:
    state = gtbm(size=4).from_text("4/B3/4/W3 b 10 0").play("a3-a2")  # a backstab: no capture
    assert state.is_over and state.result == (1.0, 0.0)
    assert state.end_reason == "no legal move"
    assert state.to_text() == "4/4/B3/W3 w 11 1 end:no-move"


def test_losing_all_pieces_loses() -> None:
    state = gtbm(size=4).from_text("4/4/4/WB2 b 10 0").play("b1-a2xa1")
    assert state.result == (1.0, 0.0) and state.end_reason == "all captured"


def test_neither_player_can_move_is_a_draw() -> None:
    state = gtbm(size=4).from_text("1B1B/BW1W/2B1/W1W1 b 18 0").play("a3-a2")
    assert state.result == (0.5, 0.5) and state.end_reason == "neither can move"
    assert state.to_text() == "1B1B/1W1W/B1B1/W1W1 w 19 1 end:neither-can-move"


def test_stuck_check_both_after_each_move_ends_when_the_mover_is_stuck() -> None:
    start = "4/4/BW2/4 b 10 0"
    state = gtbm(size=4).from_text(start).play("a2-a1")
    assert not state.is_over  # by default only the player to move is tested
    state = gtbm(size=4, stuck_check="both_after_each_move").from_text(start).play("a2-a1")
    assert state.result == (0.0, 1.0) and state.end_reason == "no legal move"


# -- added draw rules (G6) ------------------------------------------------------------------------

CYCLE = "b1-c2, g8-f7, c2-b3, f7-g6, b3-b2, g6-g7, b2-b1, g7-g8"


def test_threefold_repetition_draws() -> None:
    state = play(gtbm().new_game(), CYCLE)
    assert state.to_text() == "WWWWWWWW/8/8/8/8/8/8/BBBBBBBB b 8 8"  # the start, a second time
    state = play(state, CYCLE.rsplit(",", 1)[0])
    assert not state.is_over
    state = state.play("g7-g8")  # a step back to White's home row: the start for the third time
    assert state.result == (0.5, 0.5) and state.end_reason == "repetition"


def test_repetition_off_plays_on() -> None:
    state = play(gtbm(repetition="off").new_game(), f"{CYCLE}, {CYCLE}")
    assert not state.is_over


def test_the_no_capture_limit_draws() -> None:
    state = play(gtbm(no_capture_limit=8).new_game(), CYCLE.rsplit(",", 1)[0])
    assert not state.is_over
    state = state.play("g7-g8")
    assert state.result == (0.5, 0.5) and state.end_reason == "no-capture limit"


def test_cap_adjudication_most_pieces_gives_the_win_to_the_larger_army() -> None:
    text = "4/4/4/WB1B b 10 3"  # Black 2, White 1; one ply before a limit of 4
    state = gtbm(size=4, no_capture_limit=4, cap_adjudication="most_pieces").from_text(text).play("d1-c2")
    assert state.result == (1.0, 0.0) and state.end_reason == "no-capture limit"
    state = gtbm(size=4, no_capture_limit=4).from_text(text).play("d1-c2")
    assert state.result == (0.5, 0.5)


def test_a_capture_restarts_the_count() -> None:
    state = gtbm().from_text(position(TAKES, ply=60, quiet=50)).play("c4-d5")
    assert state.to_text().endswith(" 61 0")


# -- sizes, options, notation ---------------------------------------------------------------------


def test_the_sixteen_variant_has_sixteen_pieces_each() -> None:
    state = boardlab.load("gtbm", variant="sixteen").new_game()
    assert state.to_text().startswith("WWWWWWWWWWWWWWWW/16/")
    assert str(state).splitlines()[0].startswith("16  W W")
    assert [str(m) for m in state.legal_moves()][:2] == ["a1-b2", "b1-a2"]


@pytest.mark.parametrize("options, message", [
    ({"size": 7}, "size=7 is odd; accepted: an even number from 4 to 26"),
    ({"size": 2}, "size=2 is out of range; accepted: an integer from 4 to 26"),
    ({"capture_reach": "far"}, "accepted: one of adjacent, column, diagonal_also"),
    ({"no_capture_limit": 0}, "out of range; accepted: an integer from 1 to 10000"),
    ({"colour": "red"}, "unknown option 'colour'; accepted: size, capture_reach"),
])
def test_bad_options_say_what_is_accepted(options: dict, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message):
        gtbm(**options)


@pytest.mark.parametrize("text", ["c4d5", "c4-d5", "C4 D5", " c4 - d5 ", "c4xd5", "c4-d5x", "c4-d5xd4", "C4D5XD4"])
def test_moves_are_read_as_people_type_them(text: str) -> None:
    state = gtbm().from_text(position(TAKES))
    assert str(state.parse_move(text)) == "c4-d5xd4"


@pytest.mark.parametrize("text, error, message", [
    ("hello", boardlab.InvalidMove, "not a move; a move is the square moved from and the square moved to"),
    ("c4", boardlab.InvalidMove, "not a move"),
    ("c4-z9", boardlab.InvalidMove, "there is no square z9 on this board"),
    ("c4-c6", boardlab.IllegalMove, "one square, diagonally forward or straight back"),
    ("c4-b3", boardlab.IllegalMove, "one square, diagonally forward or straight back"),
    ("d6-d5x", boardlab.IllegalMove, "d6-d5 captures nothing; write d6-d5"),
    ("c4-d5xe4", boardlab.IllegalMove, "c4-d5 captures d4, not e4"),
    ("a1-b2", boardlab.IllegalMove, "there is no piece on a1"),
    ("h8-g7", boardlab.IllegalMove, "the piece on h8 is White's; Black is to move"),
])
def test_bad_moves_say_why(text: str, error: type, message: str) -> None:
    state = gtbm().from_text(position(TAKES))
    with pytest.raises(error, match=message):
        state.play(text)


@pytest.mark.parametrize("text, message", [
    ("8/8/8/8/8/8/8 b 0 0", "the board has 8 ranks, not 7"),
    ("8/8/8/8/8/8/8/9 b 0 0", "rank 1 has 9 squares, not 8"),
    ("8/8/8/8/8/8/8/BQ6 b 0 0", "rank 1 has 'Q'"),
    ("W7/8/8/8/8/8/8/B7 x 0 0", "expected b or w"),
    ("W7/8/8/8/8/8/8/B7 b zero 0", "the ply is 'zero'"),
    ("W7/8/8/8/8/8/8/B7 b 10 11", "11 plies without a capture, but only 10 plies played"),
    ("W7/8/8/8/8/8/8/B7 b 200 101", "past the limit 100"),
    ("W7/8/8/8/8/8/8/B7 b 10", "expected '<ranks from the top"),
    ("W7/8/8/8/8/8/8/B7 b 10 0 bogus", "unexpected 'bogus'"),
    ("WWWWWWWW/W7/8/8/8/8/8/B7 b 10 0", "White has more than 8 pieces"),
    ("W7/8/8/8/8/8/8/8 b 10 0", r"the game is over here \(all-captured\), so end:all-captured is needed"),
    ("W7/8/8/8/8/8/8/B7 b 10 0 end:no-move", r"end:no-move does not fit this position \(the game goes on\)"),
])
def test_malformed_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message):
        gtbm().from_text(text)


def test_a_finished_position_reads_back_finished() -> None:
    state = play(gtbm().new_game(), f"{CYCLE}, {CYCLE}")
    again = gtbm().from_text(state.to_text())
    assert again.is_over and again.result == (0.5, 0.5) and again.end_reason == "repetition"
    assert again.to_text() == state.to_text()


def test_repr_pastes_back() -> None:
    state = gtbm(size=4).new_game().play("b1-c2")
    assert repr(state) == "boardlab.load('gtbm', size=4).from_text('WWWW/4/2B1/B1BB w 1 1')"
    assert eval(repr(state), {"boardlab": boardlab}) == state


# -- terminal play --------------------------------------------------------------------------------


def test_a_terminal_game_against_the_computer() -> None:
    from boardlab.ai import RandomAgent
    from boardlab.cli.play import PlaySession

    typed = iter(["C1 D2", "d2-e3x", "quit"])
    shown: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(typed)

    session = PlaySession(gtbm().new_game(), {0}, {1: RandomAgent(seed=1)}, ["me", "random"],
                          read=read, write=shown.append)
    assert session.run() == 0
    text = "\n".join(shown)
    assert "Last move: Black c1-d2" in text and "Last move: White " in text
    assert "Not played: d2-e3x: d2-e3 captures nothing; write d2-e3" in text
    assert "Black> " in shown and session.state.ply == 2


def test_a_hint_says_when_its_moves_are_tied() -> None:
    # Two pieces a side, far apart: no capture is within level 3's horizon and every step leaves
    # each side the same room, so the best moves score alike, and the hint must not pass an
    # arbitrary order off as advice.
    from boardlab.ai import RandomAgent
    from boardlab.cli.play import PlaySession
    from tests.test_cli import Script

    game = boardlab.load("gtbm")
    script = Script(["hint", "quit"])
    state = game.from_text("3WW3/8/8/8/8/8/8/2B2B2 b 30 0")
    PlaySession(state, {0}, {1: RandomAgent(seed=1)}, ["me", "random"], read=script.read, write=script.write).run()
    assert "(all tied as far as 4 plies ahead: the order says nothing)" in script.text
    # At the opening the corner steps keep more room (the evaluation counts steps): not a tie.
    script = Script(["hint", "quit"])
    PlaySession(game.new_game(), {0}, {1: RandomAgent(seed=1)}, ["me", "random"], read=script.read,
                write=script.write).run()
    hint = script.text[script.text.index("Hint"):]
    assert "all tied" not in hint
    assert "scores  50%" in hint and "scores  49%" in hint


# -- the fitted evaluation (evaluation=fitted; docs/findings/search.md, GTBM) --------------------

FEATURED = """
    8  . . . . . . . W
    7  . B . . . . B .
    6  . . . . . . . .
    5  . . . B W . . .
    4  . . . B . . . .
    3  . . . . . . . .
    2  . . . . . . . .
    1  B . . . . . . .
"""


def mirrored(diagram: str) -> str:
    """The same position with the colours swapped and the board turned upside down (files kept)."""
    lines = [line for line in textwrap.dedent(diagram).splitlines() if RANK.match(line)]
    swap = str.maketrans("BW", "WB")
    return "\n".join(f"{9 - i}  {RANK.match(line).group(2).strip().translate(swap)}"  # type: ignore[union-attr]
                     for i, line in enumerate(reversed(lines)))


def features_of(state: boardlab.State) -> list[float]:
    import numpy as np

    from boardlab.games.gtbm import kernel as k

    out = np.zeros(k.N_FEATURES)
    k.features(state.data.copy(), state.game.spec, out)
    return out.tolist()


def test_the_features_count_what_their_names_say() -> None:
    from boardlab.games.gtbm import kernel as k

    state = gtbm().from_text(position(FEATURED, "b", quiet=25))
    found = dict(zip(k.FEATURES, features_of(state), strict=True))
    # Black's 5 pieces (a1 on its home row, d4, d5 propped up by d4, b7, g7) against White's 2 (h8 at
    # home, shut in by g7, and e5).
    assert found == {
        "pieces": 3,
        "steps": 10 - 2,  # a1 1, d4 2 (e5 is taken), d5 2 (d4 is taken), b7 3, g7 2; h8 0, e5 2
        "threats_to_move": 1,  # d5-e6 takes e5; Black is to move
        "threats_waiting": 0,  # e5-d4 would take d5, but d4 is occupied
        "loose": 3 - 1,  # d4, b7, g7 have empty squares behind them (d5 has d4, a1 is at home); e5 has e6
        "home_row": 1 - 1,
        "far_row": 0,
        "advancement": (3 + 4 + 6 + 6 - 3) / 8,
        "lead_fresh": 3 * 75 / 100,  # 75 of the 100 plies without a capture (G6) are left
        "stuck": 0 - 1,  # h8
        "pieces_traded": 3 * 9 / 16,  # 9 of the 16 pieces are gone
        "steps_traded": 8 * 9 / 16,
    }


def test_the_features_are_the_same_for_the_other_colour() -> None:
    for to_move, other in (("b", "w"), ("w", "b")):
        state = gtbm().from_text(position(FEATURED, to_move, quiet=40))
        flipped = gtbm().from_text(position(mirrored(FEATURED), other, quiet=40))
        assert features_of(flipped) == pytest.approx([-f for f in features_of(state)])


def test_the_fitted_evaluation_weighs_the_features_and_values_a_fresh_lead_more() -> None:
    import math

    import numpy as np

    from boardlab.games.gtbm import kernel as k

    values = np.zeros(2)
    chances = []
    for quiet in (0, 50, 90):
        state = gtbm().from_text(position(FEATURED, "w", ply=141, quiet=quiet))
        for evaluate, weights in ((k.evaluate_fitted_shallow, k.FITTED_SHALLOW_WEIGHTS),
                                  (k.evaluate_fitted, k.FITTED_WEIGHTS)):
            evaluate(state.data.copy(), state.game.spec, values)
            score = sum(w * f for w, f in zip(weights, features_of(state), strict=True))
            assert values[0] == pytest.approx(1 / (1 + math.exp(-score))) and values.sum() == pytest.approx(1)
        chances.append(values[0])  # the fitted evaluation's
    # Three pieces up, Black's chances are above a half, and fall as the no-capture limit nears: a lead
    # not turned into captures ends in a draw (G6), so the search is drawn to capture while it can.
    assert 0.5 < chances[2] < chances[1] < chances[0]
