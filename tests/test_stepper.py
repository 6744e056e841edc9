"""The fast path (core/stepper.py) agrees with legal_moves() + play() (issue 15)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core.stepper import Stepper
from boardlab.errors import BoardlabError, IllegalMove

SMALL = {
    "ndengrod": {"size": 3, "length": 3},
    "gtbm": {"size": 6},
    "horsmeier": {"ply_cap": 60},
    "mynd": {"size": 5, "players": 3},
    "mobiatus": {"length": 10, "width": 3, "blue_offset": 5},
    "hmdg": {"size": 5, "line_length": 3},
}


def turns(stepper: Stepper) -> set[tuple[int, ...]]:
    """Every whole turn reachable from ``stepper`` by stepping its legal actions."""
    found: set[tuple[int, ...]] = set()
    start = stepper.ply

    def walk(node: Stepper) -> None:
        for action in node.legal_actions():
            child = node.clone()
            child.apply(action)
            if child.pending:
                walk(child)
            else:
                found.add(tuple(child.state.last_move.path) if child.state.last_move else ())
        assert node.ply >= start

    walk(stepper)
    return found


@pytest.mark.parametrize("game_id", list(SMALL))
def test_stepper_follows_the_rules_like_play(game_id: str) -> None:
    game = boardlab.load(game_id, **SMALL[game_id])
    rng = random.Random(11)
    state = game.new_game()
    stepper = state.stepper()
    for _ in range(25):
        if state.is_over:
            break
        legal = state.legal_moves()
        assert turns(stepper) == {move.path for move in legal}
        move = rng.choice(legal)
        for action in move.path:
            stepper.apply(action)
        state = state.play(move)
        assert not stepper.pending
        assert (stepper.data == state.data).all()
        assert stepper.state == state
        assert [m.text for m in stepper.state.history()] == [m.text for m in state.history()]
    assert stepper.is_over == state.is_over and stepper.result == state.result


@pytest.mark.parametrize("game_id", ["ndengrod", "mobiatus"])
def test_stepper_without_history_reaches_the_same_end(game_id: str) -> None:
    game = boardlab.load(game_id, **SMALL[game_id])
    rng = random.Random(5)
    fast, slow = game.new_game().stepper(keep_history=False), game.new_game().stepper()
    while not fast.is_over:
        action = rng.choice(fast.legal_actions())
        fast.apply(action)
        slow.apply(action)
        if fast.pending:
            with pytest.raises(BoardlabError, match="middle of a turn"):
                _ = fast.state
            assert fast.position().data.tolist() == fast.data.tolist()
    assert (fast.data == slow.data).all() and fast.result == slow.result
    assert fast.state.history() == [] and len(slow.state.history()) > 0


def test_stepper_refuses_illegal_actions_and_leaves_the_position() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    stepper = game.new_game().stepper()
    stepper.apply(4)
    before = stepper.data.copy()
    with pytest.raises(IllegalMove, match="not legal here"):
        stepper.apply(4)
    with pytest.raises(IllegalMove):
        stepper.apply(game.num_distinct_actions + 5)
    assert (stepper.data == before).all()
    clone = stepper.clone()
    clone.apply(0)
    assert stepper.ply == 1 and clone.ply == 2


def test_deep_copies_share_immutable_states() -> None:
    # OpenSpiel clones a Python state by deep-copying its attributes: that must copy the vector
    # only, not replay the game (Game and State are immutable and copy as themselves).
    import copy

    game = boardlab.load("ndengrod", size=3, length=3)
    stepper = game.new_game().stepper()
    stepper.apply(4)
    twin = copy.deepcopy(stepper)
    assert twin is not stepper and twin.state is stepper.state and twin.game is game
    twin.apply(0)
    assert stepper.ply == 1 and twin.ply == 2 and stepper.legal_actions() != twin.legal_actions()
