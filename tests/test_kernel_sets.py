"""The indexed set that kernels keep in a state vector (``core.kernel.set_add``/``set_discard``): the
list of members, each member's place in it, and the count stay consistent through adds and drops."""

from __future__ import annotations

import numpy as np

from boardlab.core.kernel import set_add, set_discard

ITEMS, PLACES, COUNT = 0, 6, 12  # six members at most: the list, then the places, then the count


def _members(state: np.ndarray) -> list[int]:
    return state[ITEMS:ITEMS + int(state[COUNT])].tolist()


def test_adds_list_members_in_order_with_their_places() -> None:
    state = np.zeros(13, dtype=np.int64)
    for member in (4, 0, 5):
        set_add(state, ITEMS, PLACES, COUNT, member)
    assert _members(state) == [4, 0, 5]
    assert [int(state[PLACES + m]) for m in (4, 0, 5)] == [0, 1, 2]


def test_a_drop_moves_the_last_member_into_the_gap() -> None:
    state = np.zeros(13, dtype=np.int64)
    for member in (4, 0, 5, 2):
        set_add(state, ITEMS, PLACES, COUNT, member)
    set_discard(state, ITEMS, PLACES, COUNT, 0)
    assert _members(state) == [4, 2, 5]
    assert all(int(state[ITEMS + int(state[PLACES + m])]) == m for m in (4, 2, 5))
    set_discard(state, ITEMS, PLACES, COUNT, 5)  # the last member: nothing moves
    set_discard(state, ITEMS, PLACES, COUNT, 4)
    assert _members(state) == [2]
    assert int(state[PLACES + 2]) == 0
