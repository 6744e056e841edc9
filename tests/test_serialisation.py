"""Pickling, deep copies and complete JSON serialisation of games and states (issue 15)."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import boardlab
from boardlab.errors import PositionError

SMALL = {
    "ndengrod": {"size": 3, "length": 3},
    "gtbm": {"size": 6},
    "horsmeier": {},
    "mynd": {"size": 5, "players": 3},
    "mobiatus": {"length": 10, "width": 3, "blue_offset": 5},
    "hmdg": {"size": 5, "line_length": 3},
}


def random_line(game: boardlab.Game, plies: int, seed: int) -> boardlab.State:
    rng = random.Random(seed)
    state = game.new_game()
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("game_id", list(SMALL))
def test_game_pickles_as_id_and_options(game_id: str) -> None:
    game = boardlab.load(game_id, **SMALL[game_id])
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again is not game
    assert dict(again.options) == dict(game.options)
    assert (again.spec == game.spec).all()
    assert copy.deepcopy(game) == game


@pytest.mark.parametrize("game_id", list(SMALL))
def test_state_pickle_keeps_history(game_id: str) -> None:
    game = boardlab.load(game_id, **SMALL[game_id])
    state = random_line(game, 12, seed=3)
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    assert (again.data == state.data).all()  # hash history for repetition included
    assert [m.path for m in again.history()] == [m.path for m in state.history()]
    assert [str(m) for m in again.history()] == [str(m) for m in state.history()]
    assert copy.deepcopy(state).to_text() == state.to_text()
    if not state.is_over:
        assert [m.path for m in again.legal_moves()] == [m.path for m in state.legal_moves()]


@pytest.mark.parametrize("game_id", list(SMALL))
def test_state_json_round_trip(game_id: str) -> None:
    game = boardlab.load(game_id, **SMALL[game_id])
    state = random_line(game, 15, seed=5)
    text = state.to_json()
    again = game.state_from_json(text)
    assert (again.data == state.data).all()
    assert [m.text for m in again.history()] == [m.text for m in state.history()]
    assert again.root.to_text() == state.root.to_text()


def test_json_keeps_repetition_history_that_text_loses() -> None:
    # N6: threefold repetition is decided from the hash history in the vector, which the position
    # text does not carry; the JSON document does.
    game = boardlab.load("gtbm", size=6)
    state = random_line(game, 20, seed=1)
    from_text = game.from_text(state.to_text())
    from_json = game.state_from_json(state.to_json())
    assert (from_json.data == state.data).all()
    assert from_json.history() and not from_text.history()


def test_json_bad_documents_say_what_is_wrong() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    other = boardlab.load("ndengrod", size=4, length=3)
    with pytest.raises(PositionError, match="not a JSON state document"):
        game.state_from_json("{nope")
    with pytest.raises(PositionError, match="not a boardlab state document"):
        game.state_from_json("[1, 2]")
    with pytest.raises(PositionError, match="not of"):
        game.state_from_json(other.new_game().to_json())
    document = json.loads(game.new_game().play("b2").to_json())
    document["moves"][0]["path"] = [999]
    with pytest.raises(PositionError, match="move 1"):
        game.state_from_json(document)


def test_view_pickles_only_under_perfect_information() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    view = game.new_game().play("b2").view(1)
    again = pickle.loads(pickle.dumps(view))
    assert again.seat == 1 and again.to_text() == view.to_text()
    hidden = boardlab.load("hmdg", **SMALL["hmdg"]).new_game().view(0)
    with pytest.raises(TypeError, match="hidden information"):
        pickle.dumps(hidden)
