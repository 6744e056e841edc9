"""The building blocks the faces share (boardlab.core.facekit)."""

from __future__ import annotations

import types

import numpy as np
import pytest

from boardlab import load
from boardlab.core import facekit as kit
from boardlab.core.info import GameInfo
from boardlab.core.options import Option
from boardlab.core.registry import game_ids, info
from boardlab.core.topology import hexhex, square
from boardlab.errors import PositionError

TOY = GameInfo(
    id="toy", name="Toy", designer="nobody", year=2026, players=(2,), rules_version="1", summary="", source="",
    options=(Option("reach", "near", "how far", choices=("near", "far")),),
    end_reasons={1: "line", 2: "ply cap", 3: "no legal move"},
)


def test_run_length_rows_read_back_what_they_write() -> None:
    row = ["B", ".", ".", "W", ".", "(xo)", ".", ".", "."]
    text = kit.write_row(row)
    assert text == "B2W1(xo)3"
    items = list(kit.read_row(text, 9, "run", kit.ONE_CHARACTER))
    assert items == ["B", 2, "W", 1, "(", "x", "o", ")", 3]
    assert kit.write_row(["", "5w11", "", ""], empty="", separator=",") == "1,5w11,2"
    assert list(kit.read_row("1,5w11,2", 11, "run", separator=",")) == [1, "5w11", 2]


def test_a_run_longer_than_the_board_is_refused_by_its_name() -> None:
    with pytest.raises(PositionError, match="rank 3's run of empty squares is 99, more than 9"):
        list(kit.read_row("B99", 9, "rank 3's run of empty squares"))


def test_cells_are_named_from_the_topology() -> None:
    go = kit.CellNaming.files_and_ranks(square(9), "abcdefghjklmnopqrstuvwxyz")
    assert go.names[0] == "a9" and go.names[8] == "j9" and go.names[-1] == "j1"
    assert go.index(" J1 ") == 80 and go.index("i1") is None
    hexes = kit.CellNaming.rows_and_numbers(hexhex(3))
    assert hexes.names[:3] == ("a1", "a2", "a3") and len(hexes) == 19


def test_end_tokens_hyphenate_the_reasons_unless_the_info_names_them() -> None:
    tokens = kit.EndTokens(TOY, {3: "no-move"})
    assert tokens.by_code == {1: "line", 2: "ply-cap", 3: "no-move"}
    assert tokens.code("end:ply-cap") == 2 and tokens.code("end:ply cap") is None and tokens.code("ply-cap") is None
    assert tokens.fields() == "end:line, end:ply-cap, end:no-move"


def test_end_tokens_split_the_first_end_field_from_the_other_flags() -> None:
    tokens = kit.EndTokens(TOY, {3: "no-move"})
    assert tokens.split(["passed", "end:no-move", "cut:3"]) == (3, ["passed", "cut:3"])
    assert tokens.split(["end:line", "end:ply-cap"]) == (1, ["end:ply-cap"])  # the second is the face's to refuse
    assert tokens.split(["end:nothing"]) == (None, ["end:nothing"])
    assert tokens.split([]) == (None, [])


def test_end_tokens_refuse_a_position_whose_end_field_does_not_fit() -> None:
    tokens = kit.EndTokens(TOY, {3: "no-move"})
    tokens.check("pos", None, 0)
    tokens.check("pos end:ply-cap", 2, 2)
    with pytest.raises(PositionError, match=r"'pos': the game is over here \(line\), so end:line is needed"):
        tokens.check("pos", None, 1)
    with pytest.raises(PositionError, match=r"end:no-move does not fit this position \(the game goes on\)"):
        tokens.check("pos", 3, 0)
    with pytest.raises(PositionError, match=r"end:line does not fit this position \(it ended by end:ply-cap\)"):
        tokens.check("pos", 1, 2)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_face_says_turns_of_several_actions_as_its_kernel_was_compiled(game_id: str) -> None:
    game = load(game_id)
    several = game.turns_kernel.several if hasattr(game.turns_kernel, "several") else True
    assert game.turns_of_several_actions is several
    assert game.turns_of_several_actions is (game_id in ("hmdg", "mobiatus"))
    assert game.notation.startswith("Moves: ") and game.notation == game.info.notation


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_has_one_end_token_per_end_reason(game_id: str) -> None:
    game_info = info(game_id)
    tokens = kit.EndTokens(game_info)
    assert set(tokens.by_code) == set(game_info.end_reasons)
    assert len(set(tokens.by_token)) == len(game_info.end_reasons)
    assert all(" " not in token for token in tokens.by_token)


def test_choice_codes_come_from_the_kernel_and_miss_none() -> None:
    kernel = types.ModuleType("toy_kernel")
    kernel.REACH_NEAR, kernel.REACH_FAR = 0, 1  # type: ignore[attr-defined]
    codes = kit.ChoiceCodes(TOY, kernel, reach="REACH_")
    assert codes({"reach": "far"}, "reach") == 1
    del kernel.REACH_FAR  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="option reach: no kernel code for far"):
        kit.ChoiceCodes(TOY, kernel, reach="REACH_")
    with pytest.raises(TypeError, match="no kernel code for near"):
        kit.ChoiceCodes(TOY, kernel, reach={"far": 1})


def test_the_spec_builder_points_header_fields_at_its_tables() -> None:
    spec = kit.SpecBuilder(header=3)
    spec[0] = 5
    neighbours = spec.table(np.arange(4).reshape(2, 2), at=1)
    keys = spec.table(kit.zobrist_keys(1, 3), at=2)
    built = spec.build()
    assert (neighbours, keys, len(built)) == (3, 7, 10)
    assert built[:3].tolist() == [5, 3, 7] and built[3:7].tolist() == [0, 1, 2, 3]
    assert (built[7:] == kit.zobrist_keys(1, 3)).all() and (built[7:] != 0).all()


def test_position_fields_and_counts_say_what_is_wrong() -> None:
    assert kit.position_fields("a b c", "'<x> <y> <z>'", 3) == ["a", "b", "c"]
    with pytest.raises(PositionError, match="expected '<x> <y>'"):
        kit.position_fields("a b c", "'<x> <y>'", 2, 2)
    assert kit.count_field("t", "012") == 12
    with pytest.raises(PositionError, match="the ply is 'x'; expected a whole number"):
        kit.count_field("t", "x")
