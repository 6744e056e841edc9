"""boardlab games through OpenSpiel: its own random simulation tests, MCTSBot and ISMCTSBot (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import boardlab  # noqa: E402
from boardlab.interop import openspiel as bridge  # noqa: E402
from tests.interop_boards import SMALL  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    bridge.register()


def test_every_game_is_registered_with_its_type() -> None:
    names = set(pyspiel.registered_names())
    for info in boardlab.games():
        assert f"boardlab_{info.id}" in names
    hmdg = pyspiel.load_game("boardlab_hmdg").get_type()
    assert hmdg.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert hmdg.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert hmdg.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    mynd = pyspiel.load_game("boardlab_mynd", {"players": 4, "size": 5})
    assert (mynd.get_type().min_num_players, mynd.get_type().max_num_players) == (2, 4)
    assert mynd.num_players() == 4
    ndengrod = pyspiel.load_game("boardlab_ndengrod").get_type()
    assert ndengrod.information == pyspiel.GameType.Information.PERFECT_INFORMATION


def test_parameters_are_the_options() -> None:
    game = bridge.load("ndengrod", size=3, length=3)
    assert game.get_parameters()["size"] == 3
    assert game.num_distinct_actions() == boardlab.load("ndengrod", size=3, length=3).num_distinct_actions
    assert game.max_game_length() == 300
    # Mynd's ply cap is derived from the size when not given (3 per point), through OpenSpiel too
    assert bridge.load("mynd", size=5).max_game_length() == 75
    # a text option with numeric choices survives OpenSpiel's parameter parsing
    again = pyspiel.load_game(str(bridge.load("mynd", size=5, liberty_neighbourhood="4")))
    assert again.get_parameters()["liberty_neighbourhood"] == 4
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("boardlab_ndengrod", {"nonsense": 1})


@pytest.mark.parametrize("game_id", list(SMALL))
def test_openspiel_random_simulation(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", SMALL[game_id])
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_observations_come_from_the_seat_view() -> None:
    game = bridge.load("hmdg", size=4, line_length=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.move_number() < 8 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    for player in (0, 1):
        assert state.observation_string(player) == state.stepper.state.view(player).to_text()
        planes = np.asarray(state.observation_tensor(player))
        assert np.array_equal(planes, state.stepper.state.view(player).planes().ravel())
        sample = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)


@pytest.mark.parametrize("game_id", [g for g in SMALL if g != "hmdg"])
def test_mcts_bot_plays_whole_games(game_id: str) -> None:
    game = pyspiel.load_game(f"boardlab_{game_id}", SMALL[game_id])
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng) for _ in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    result = state.stepper.result
    assert result is not None and state.returns() == [2 * score - 1 for score in result]
    assert len(state.history()) <= game.max_game_length()


def test_ismcts_bot_plays_hmdg() -> None:
    game = pyspiel.load_game("boardlab_hmdg", SMALL["hmdg"])
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.stepper.result is not None and sum(state.returns()) == 0
