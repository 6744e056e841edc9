"""Every game declares its state vector (boardlab.core.layout), and under every option set the declared
fields are where the kernels find them: none overlaps another, none lies in the kernel header or past the
state's end."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import boardlab
from boardlab.core import kernel
from boardlab.core.layout import StateLayout, declared
from boardlab.core.registry import game_ids
from tests.test_conformance import option_sets


@pytest.mark.parametrize("game_id", game_ids())
def test_every_option_set_lays_the_state_out_without_overlap(game_id: str) -> None:
    sets: list[dict[str, Any]] = option_sets(boardlab.info(game_id))
    for options in sets:
        game = boardlab.load(game_id, **options)
        layout = declared(game_id)
        state = game.new_game().data
        assert layout.problems(game.spec, len(state)) == [], options
        # The declaration covers the state: from the header's end to the state's, each entry in one
        # field (unused ones declared spare), with no gap.
        fields = sorted(layout.fields(game.spec), key=lambda field: field.start)
        assert fields[0].start == kernel.HEADER and fields[-1].end == len(state), options
        assert all(before.end == after.start for before, after in itertools.pairwise(fields)), options


def _demo() -> StateLayout:
    layout = StateLayout("demo layout", total=3,
                         lengths=lambda spec: {"BOARD": int(spec[0]), "history": int(spec[1])})
    assert layout.field("F_SIDE") == kernel.HEADER
    assert layout.field("F_COUNT", 2) == kernel.HEADER + 1
    layout.spare(1)
    assert layout.sized("BOARD") == kernel.HEADER + 4
    layout.region("history", spec_field=2)
    return layout


def test_place_lays_regions_end_to_end_after_the_sized_field() -> None:
    layout = _demo()
    assert layout.place({"BOARD": 9, "history": 5}) == {2: kernel.HEADER + 13, 3: kernel.HEADER + 18}
    with pytest.raises(ValueError, match="lengths given for"):
        layout.place({"BOARD": 9})


def test_problems_finds_overlap_header_and_overrun() -> None:
    layout = _demo()
    spec = np.array([9, 5, 0, 0], dtype=np.int64)
    for field, start in layout.place({"BOARD": 9, "history": 5}).items():
        spec[field] = start
    assert layout.problems(spec, kernel.HEADER + 18) == []
    spec[2] = kernel.HEADER + 10  # history starting inside the board
    assert any("BOARD" in problem and "overlaps history" in problem
               for problem in layout.problems(spec, kernel.HEADER + 18))
    spec[2] = 2  # inside the header
    assert any("inside the kernel header" in problem for problem in layout.problems(spec, kernel.HEADER + 18))
    spec[2] = kernel.HEADER + 16  # past the end
    assert any("past the state's" in problem for problem in layout.problems(spec, kernel.HEADER + 18))


def test_declaration_order_is_enforced() -> None:
    layout = _demo()
    with pytest.raises(ValueError, match="declare it as a region"):
        layout.field("F_LATE")
    with pytest.raises(ValueError, match="declared twice"):
        layout.region("history", spec_field=1)
    with pytest.raises(ValueError, match="holds the start of two regions"):
        layout.region("other", spec_field=2)
