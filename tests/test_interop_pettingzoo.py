"""boardlab games as PettingZoo AEC environments: PettingZoo's api_test, masks and rewards (issue 15)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")

from pettingzoo.test import api_test

import boardlab
from boardlab.interop.pettingzoo import env, raw_env
from tests.interop_boards import SMALL


@pytest.mark.parametrize("game_id", list(SMALL))
def test_pettingzoo_api_test(game_id: str) -> None:
    api_test(env(game_id, **SMALL[game_id]), num_cycles=200)


@pytest.mark.parametrize("game_id", list(SMALL))
def test_masked_random_games_end_with_results(game_id: str) -> None:
    environment = raw_env(game_id, **SMALL[game_id])
    game = environment.game
    environment.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    steps = 0
    for agent in environment.agent_iter(max_iter=10_000):
        observation, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        assert observation["observation"].shape == game.planes_shape
        assert environment.observation_space(agent).contains(observation)
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert legal.tolist() == environment.stepper.legal_actions()
        environment.step(int(rng.choice(legal)))
        steps += 1
    result = environment.stepper.result
    assert result is not None and steps <= game.max_decisions
    assert [totals[a] for a in environment.possible_agents] == [2 * s - 1 for s in result]


def test_only_the_selected_agent_has_legal_actions() -> None:
    environment = raw_env("hmdg", **SMALL["hmdg"])
    environment.reset()
    mover = environment.agent_selection
    for agent in environment.possible_agents:
        mask = environment.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)


def test_illegal_action_loses_under_the_wrapper() -> None:
    environment = env("ndengrod", **SMALL["ndengrod"])
    environment.reset()
    environment.step(4)
    environment.step(4)  # b2 is taken: illegal
    assert environment.rewards["player_1"] == -1 and all(environment.terminations.values())


def test_observation_planes_match_boardlab() -> None:
    environment = raw_env(boardlab.load("ndengrod", size=3, length=3))
    environment.reset()
    environment.step(4)
    planes = environment.observe("player_1")["observation"]
    assert np.array_equal(planes, boardlab.load("ndengrod", size=3, length=3).new_game().play("b2").view(1).planes())


@pytest.mark.parametrize("game_id", list(SMALL))
def test_checked_env_behaves_as_the_wrapped_raw_env(game_id: str) -> None:
    from boardlab.interop.pettingzoo import wrapped_env

    checked, wrapped = env(game_id, **SMALL[game_id]), wrapped_env(game_id, **SMALL[game_id])
    rng = np.random.default_rng(6)
    for game in range(6):
        checked.reset(seed=game)
        wrapped.reset(seed=game)
        for agent, other in zip(checked.agent_iter(2_000), wrapped.agent_iter(2_000), strict=True):
            assert agent == other
            mine, theirs = checked.last(), wrapped.last()
            assert np.array_equal(mine[0]["observation"], theirs[0]["observation"])
            assert np.array_equal(mine[0]["action_mask"], theirs[0]["action_mask"])
            assert mine[1:] == theirs[1:]
            if mine[2] or mine[3]:
                action = None
            elif game % 2 and rng.random() < 0.05:  # now and then an illegal action: the mover loses
                action = int(rng.integers(checked.action_space(agent).n))
            else:
                action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
            checked.step(action)
            wrapped.step(action)
            assert checked.rewards == wrapped.rewards and checked.terminations == wrapped.terminations
        assert checked.agents == wrapped.agents == []


def test_checked_env_enforces_order_and_bounds() -> None:
    environment = env("ndengrod", **SMALL["ndengrod"])
    with pytest.raises(AttributeError):
        _ = environment.agents
    with pytest.raises(AssertionError, match="before step"):
        environment.step(0)
    with pytest.raises(AssertionError, match="before observe"):
        environment.observe("player_0")
    environment.reset()
    with pytest.raises(AssertionError, match="not in action space"):
        environment.step(environment.game.num_distinct_actions)
    iterator = iter(environment.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)
