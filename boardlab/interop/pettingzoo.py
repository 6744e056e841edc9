"""boardlab's games as PettingZoo AEC environments, with action masks.

>>> from boardlab.interop.pettingzoo import env     # doctest: +SKIP
>>> game = env("ndengrod", size=3, length=3)        # doctest: +SKIP
>>> game.reset(seed=1)                               # doctest: +SKIP
>>> observation, reward, termination, truncation, info = game.last()   # doctest: +SKIP

Agents are ``player_0`` … (seat order). Actions are boardlab's atomic actions
(``Discrete(game.num_distinct_actions)``); in a turn of several steps the same agent is selected
again until its turn is done, and under HMDG's commit-and-response the responder is selected in
between. Each observation is a Gymnasium ``Dict``: ``observation``, the planes of ``view(agent)``
(:mod:`boardlab.core.planes`: only what that seat may know), and ``action_mask``, 1 for each legal
action of the selected agent (all 0 for the others). Rewards come at the end: 1 win, -1 loss, 0 draw.
``render()`` (mode ``"ansi"``) returns the spectator's text diagram. States step through
:class:`boardlab.core.stepper.Stepper` (without history: a game's record is not kept), and each observation is
made from the vector as a view makes its own (``game.observe(data, seat)``, then the game's planes kernel).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

import boardlab
from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.core.planes import observed_planes
from boardlab.core.state import State
from boardlab.core.stepper import Stepper


class BoardlabEnv(AECEnv):
    """One boardlab game (options fixed) as an AEC environment."""

    metadata = {"render_modes": ["ansi"], "name": "boardlab", "is_parallelizable": False}  # noqa: RUF012 - AECEnv's attribute

    def __init__(self, game: Game | str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.game: Game = boardlab.load(game, **options) if isinstance(game, str) else game
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: accepted: 'ansi' or None")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{self.game.id}"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_seats)]
        self.agents = self.possible_agents[:]
        actions = self.game.num_distinct_actions
        low, high = _plane_bounds(self.game)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._actions = actions
        self._perfect = self.game.info.perfect_information
        self.stepper: Stepper = self.game.new_game().stepper(keep_history=False, exact=False)
        # The vector after the last whole turn: what a seat may have seen under hidden information.
        self._turn_data = self.stepper.data.copy()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def _position(self) -> State:
        # Mid-turn positions are shown only in games of perfect information (see core/planes.py).
        stepper = self.stepper
        return stepper.position() if self._perfect else self._turn_state()

    def _turn_state(self) -> State:
        return State(self.game, self._turn_data.copy())

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # Made from the vector, as a view makes its own: game.observe(data, seat), then the game's
        # planes kernel (core/planes.py), without a State and a View for every step.
        seat = self._seats[agent]
        stepper = self.stepper
        mask = np.zeros(self._actions, np.int8)
        to_move = int(stepper.data[kernel.TO_MOVE])
        if to_move == seat:
            mask[stepper.legal_array()] = 1
        data = stepper.data if self._perfect else self._turn_data
        seen = self.game.observe(data, seat)
        return {"observation": observed_planes(self.game, seen, seat, to_move), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            np.random.seed(seed)
        self.stepper = self.game.new_game().stepper(keep_history=False, exact=False)
        self._turn_data = self.stepper.data.copy()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.stepper.to_move
        self.agent_selection = self.possible_agents[0 if seat is None else seat]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Rewards come only at the end: until then every reward stays 0 and nothing accumulates.
        stepper = self.stepper
        stepper.apply(int(action))  # type: ignore[arg-type]
        if not self._perfect and not stepper.pending:
            self._turn_data = stepper.data.copy()
        result = stepper.result
        if result is None:
            self._select()
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {self.possible_agents[seat]: 2 * score - 1 for seat, score in enumerate(result)}
        self.terminations = dict.fromkeys(self.agents, True)
        end = self.game.end_reason_name(int(stepper.data[kernel.END_REASON]))
        self.infos = {a: {"end_reason": end} for a in self.agents}
        self._accumulate_rewards()
        self.agent_selection = agent
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self._position().view(None))

    def close(self) -> None:
        pass


def _plane_bounds(game: Game) -> tuple[np.ndarray, np.ndarray]:
    low = np.zeros(game.planes_shape, np.float32)
    high = np.ones(game.planes_shape, np.float32)
    for index, name in enumerate(game.plane_names):
        if name in game.plane_numbers:
            low[index], high[index] = -1_000.0, 1_000.0
    return low, high


class CheckedBoardlabEnv(BoardlabEnv):
    """The environment with the checks of PettingZoo's wrappers for its classic games, made here.

    ``OrderEnforcingWrapper``: nothing before ``reset()`` (an ``AssertionError``, or ``AttributeError``
    for the agents and their dicts), ``agent_iter()`` needs a ``step()`` or ``reset()`` between agents,
    a step after the end only warns. ``AssertOutOfBoundsWrapper``: an action outside the action space
    fails an assertion. ``TerminateIllegalWrapper(illegal_reward=-1)``: an illegal action ends the
    game, the agent that tried it losing (-1), the others 0. Three generic Python layers cost some
    45 µs a step, three times the environment's own work.
    """

    def __init__(self, game: Game | str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__(game, render_mode, **options)
        del self.agents  # as the order-enforcing wrapper hides them until reset
        self._has_reset = False
        self._has_updated = False
        self._terminated = False  # by an illegal action

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> np.ndarray:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderedAgents(self, max_iter)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        assert (action is None and dead) or (
            isinstance(action, int | np.integer) and 0 <= action < self._actions
        ), "action is not in action space"
        if dead:
            self._was_dead_step(action)
            return
        legal = self.stepper.legal_array()
        at = int(legal.searchsorted(int(action)))  # type: ignore[arg-type]
        if at == len(legal) or legal[at] != action:
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.truncations, 0.0)
            self.rewards[agent] = -1.0
            self._accumulate_rewards()
            self._deads_step_first()
            self._terminated = True
            return
        super().step(action)

    def __str__(self) -> str:
        return str(self.metadata["name"])


class _OrderedAgents:
    """``agent_iter()`` of :class:`CheckedBoardlabEnv`: as PettingZoo's order-enforcing iterator."""

    def __init__(self, environment: CheckedBoardlabEnv, max_iter: int) -> None:
        self.env = environment
        self.left = max_iter

    def __iter__(self) -> _OrderedAgents:
        return self

    def __next__(self) -> str:
        environment = self.env
        if not environment.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        assert environment._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        environment._has_updated = False
        return environment.agent_selection


def raw_env(game: Game | str, render_mode: str | None = None, **options: Any) -> BoardlabEnv:
    """The environment without PettingZoo's checking wrappers."""
    return BoardlabEnv(game, render_mode, **options)


def env(game: Game | str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The environment checked as PettingZoo's own classic games are (illegal actions end in a
    loss for the agent that tried them; out-of-bounds actions raise; order enforced), the checks
    made by the environment itself (:class:`CheckedBoardlabEnv`) rather than by wrappers."""
    return CheckedBoardlabEnv(game, render_mode, **options)


def wrapped_env(game: Game | str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The raw environment inside PettingZoo's own wrappers (what :func:`env` does by itself)."""
    wrapped: AECEnv = raw_env(game, render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
