"""Position text from outside (issue 11): numbers checked before use, and what the ply implies.

Each case is a position some earlier parser took (or crashed on); each must now be one
:class:`boardlab.PositionError` line saying what is wrong.
"""

from __future__ import annotations

import random

import pytest

import boardlab

NDENGROD_START = "5/6/7/8/9/8/7/6/5"


@pytest.mark.parametrize("game_id, text, message", [
    # Run-lengths and plies too big for memory, for int64 or for int() itself: refused before use.
    ("ndengrod", f"5/6/7/8/9/8/7/6/{10**12} x 0", "run of empty cells is 1000000000…, more than 61"),
    ("ndengrod", f"{NDENGROD_START} x {2**63}", "the ply is 9223372036…, more than 1000000"),
    ("ndengrod", f"{NDENGROD_START} x {'9' * 5000}", "the ply is 9999999999…"),
    ("ndengrod", f"{NDENGROD_START} x \uff10", "the ply is '０'"),
    ("gtbm", f"WWWWWWWW/8/8/8/8/8/8/{2**63} b 0 0", "rank 1's run of empty squares is 9223372036…"),
    ("gtbm", f"WWWWWWWW/8/8/8/8/8/8/BBBBBBBB b 0 {2**63}", "plies without a capture is 9223372036…"),
    ("mynd", f"10W*/11/11/11/11/11/11/11/11/11/B*{10**12} b 0", "run of empty points is 1000000000…"),
    ("mobiatus", f"RR13BB13/RR13BB13/RR13BB13/RR13BB13/RR13BB{10**12} r 0 0", "run of empty squares is 1000000000…"),
    ("mobiatus", f"RR13BB13/RR13BB13/RR13BB13/RR13BB13/RR13BB13 r 0 {2**63}", "the ply is 9223372036…"),
    ("hmdg", f"9/9/9/9/9/9/9/9/{10**12} x 3 x=0", "run of empty points is 1000000000…"),
    ("hmdg", f"9/9/9/9/9/9/9/9/9 x {2**63} x=0", "the ply is 9223372036…"),
    ("horsmeier", "9" * 5000 + "/11/11/11/11/11/11/11/11/11/11 w 0", "run of empty squares is 9999999999…"),
    # What the ply implies.
    ("ndengrod", "xxoo1/6/7/8/9/8/7/6/5 x 0", "x has 2 stones, but has had only 0 turns by ply 0"),
    ("ndengrod", f"{NDENGROD_START} o 0", "at ply 0 x is to move, not o"),
    ("gtbm", "BBBBBBBB/8/8/8/8/8/8/WWWWWWWW b 0 0", "Black has made at most 0 moves by ply 0"),
    ("gtbm", "WWWWWWWW/8/8/8/8/8/8/BBBBBBBB w 0 0", "at ply 0 Black is to move"),
    ("hmdg", "xxxxx4/9/9/9/9/9/9/9/9 x 3 x=0", "5 stones, 5 of them hidden, cannot stand on the board by ply 3"),
    ("mynd", "10W*/11/11/11/11/11/11/11/11/11/B*10 w 0", "at ply 0 it is black (b) to move, not white"),
    ("mynd", "10W*/11/11/11/11/11/11/11/11/11/B*B9 b 0", "black has 2 pieces on the board, but has had only 0 turns"),
    ("mynd", "9WW*/11/11/11/11/11/11/11/11/11/B*B9 w 1", "white has 2 pieces on the board, but has had only 0"),
    ("mobiatus", "RR13BB13/RR13BB13/RR13BB13/RR13BB13/RR13BB13 b 0 0", "after 0 turns Red (r) moves, not Blue"),
])
def test_impossible_or_oversized_positions_are_one_line_errors(game_id: str, text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError) as caught:
        boardlab.load(game_id).from_text(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("game_id, text", [
    ("ndengrod", "2x2/6/7/8/9/8/7/6/5 o 1"),
    ("gtbm", "WWWWWWWW/8/8/8/8/8/1B6/B1BBBBBB w 1 1"),
    ("hmdg", "9/9/9/9/4x4/9/9/9/9 o 1 x=1"),
])
def test_possible_positions_still_load(game_id: str, text: str) -> None:
    assert boardlab.load(game_id).from_text(text).to_text().startswith(text.split()[0])


def test_a_mobiatus_square_name_of_thousands_of_digits_is_not_a_square() -> None:
    state = boardlab.load("mobiatus").new_game()
    with pytest.raises(boardlab.InvalidMove, match="is not a move"):
        state.play("F" + "1" * 5000 + "a-F3b")


@pytest.mark.parametrize("text, message", [
    ("F1a-F3b*", "nothing is captured on F3b"),
    ("F1a-F3b~", "~ must be followed by the square"),
    ("F1a~F3b", "the move does not slide to F3b"),
])
def test_mobiatus_marks_must_be_true(text: str, message: str) -> None:
    state = boardlab.load("mobiatus").new_game()
    with pytest.raises(boardlab.InvalidMove, match=message):
        state.play(text)
    assert state.play("F1a-F3b").ply == 1  # the same move written truly


@pytest.mark.parametrize("game_id, options", [
    ("mynd", {"size": 7, "players": 3, "first_player": 1}),
    ("mynd", {"size": 5, "players": 4, "first_player": 3}),
    ("mobiatus", {"first_player": "blue"}),
    ("mobiatus", {"first_player": "pie"}),
])
def test_every_position_of_a_random_game_loads_under_turn_order_options(game_id: str,
                                                                          options: dict[str, object]) -> None:
    """The checks of who moves and what the ply allows follow the first-player options."""
    rng = random.Random(11)
    state = boardlab.load(game_id, **options).new_game()
    while not state.is_over and state.ply < 120:
        assert state.game.from_text(state.to_text()).to_text() == state.to_text()
        moves = list(state.legal_moves())
        swap = [move for move in moves if str(move) == "swap"]
        state = state.play(swap[0] if swap else rng.choice(moves))
