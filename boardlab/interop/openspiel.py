"""boardlab's games as OpenSpiel (pyspiel) Python games.

>>> from boardlab.interop import openspiel as bridge    # doctest: +SKIP
>>> bridge.register()                                     # doctest: +SKIP
>>> import pyspiel                                        # doctest: +SKIP
>>> game = pyspiel.load_game("boardlab_ndengrod", {"size": 3, "length": 3})   # doctest: +SKIP

:func:`register` registers each game as ``boardlab_<id>``, with the game's options as game
parameters (their defaults as boardlab declares them). What OpenSpiel sees:

- actions are boardlab's atomic actions (:attr:`boardlab.Game.num_distinct_actions`); a turn of
  several steps (a Möbiatus capture chain, an HMDG commit then the responder's reveal) is several
  OpenSpiel moves, each by the seat that owes the decision;
- ``max_game_length`` is :attr:`boardlab.Game.max_decisions`; rewards come only at the end
  (``TERMINAL``): ``2 * score - 1`` per seat, so a win is 1, a loss -1, a draw 0;
- observations come from ``view(seat)`` only: the string is the view's position text (with the
  steps of a turn in progress), the tensor the view's planes (:mod:`boardlab.core.planes`), and the
  information state string the view's history as that seat knows it;
- HMDG is ``IMPERFECT_INFORMATION`` and offers ``resample_from_infostate`` (from boardlab's
  ``determinize``) for information-set search; Mynd takes 2 to 4 players through its ``players``
  parameter. Every game is ``SEQUENTIAL`` and ``DETERMINISTIC`` (a ``random`` first-player option
  draws when the state is created, not at a chance node).

States step through :class:`boardlab.core.stepper.Stepper`, the fast path that still runs the rules.

Search with OpenSpiel's Python bots, ``open_spiel.python.algorithms.mcts.MCTSBot`` and
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the tests play whole games with both). The C++
bots (``pyspiel.MCTSBot``, ``pyspiel.ISMCTSBot``) crash with a segmentation fault on Python games
in open_spiel 2.0.2, OpenSpiel's own ``python_tic_tac_toe`` included, so they are not an option here.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

import boardlab
from boardlab.core.game import Game
from boardlab.core.options import Option
from boardlab.core.state import State
from boardlab.core.stepper import Stepper

PREFIX = "boardlab_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def game_type(info: boardlab.GameInfo) -> Any:
    """The ``pyspiel.GameType`` of one boardlab game (every option a parameter)."""
    perfect = info.perfect_information
    return pyspiel.GameType(
        short_name=short_name(info.id),
        long_name=f"boardlab {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if max(info.players) == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.players),
        min_num_players=min(info.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={option.name: _parameter(option) for option in info.options},
    )


def _numeric(option: Option) -> bool:
    """A text option whose choices are numbers ("8", "4"): OpenSpiel parses such values as integers."""
    return isinstance(option.default, str) and bool(option.choices) and all(c.isdigit() for c in option.choices)


def _parameter(option: Option) -> Any:
    return int(str(option.default)) if _numeric(option) else option.default


def _options(info: boardlab.GameInfo, params: dict[str, Any]) -> dict[str, Any]:
    """boardlab options from OpenSpiel parameters (numeric choices back to text).

    OpenSpiel hands over every parameter, defaults included; a value equal to its declared default
    is left out so that defaults boardlab derives from other options (Mynd's ``ply_cap`` from
    ``size``) are derived again.
    """
    numeric = {option.name for option in info.options if _numeric(option)}
    defaults = info.defaults
    options = {name: str(value) if name in numeric else value for name, value in params.items()}
    return {name: value for name, value in options.items() if value != defaults.get(name)}


class BoardlabGame(pyspiel.Game):
    """One boardlab game, options fixed by the OpenSpiel parameters given.

    :func:`register` makes one subclass per game, setting ``game_id``: pyspiel registers classes.
    """

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.boardlab: Game = boardlab.load(self.game_id, **_options(boardlab.info(self.game_id), given))
        info = self.boardlab.info
        game = self.boardlab
        super().__init__(
            game_type(info),
            pyspiel.GameInfo(
                num_distinct_actions=game.num_distinct_actions,
                max_chance_outcomes=0,
                num_players=game.num_seats,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if game.num_seats == 2 else None,
                max_game_length=game.max_decisions,
            ),
            given,
        )

    def new_initial_state(self) -> BoardlabState:
        return BoardlabState(self, self.boardlab.new_game())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.boardlab, perfect_recall)


class BoardlabState(pyspiel.State):
    """A position, stepped one atomic action at a time through the rules."""

    def __init__(self, game: BoardlabGame, start: State) -> None:
        super().__init__(game)
        self._game = game.boardlab
        self.stepper: Stepper = start.stepper()

    # -- the pyspiel API ------------------------------------------------------------------------

    def current_player(self) -> int:
        seat = self.stepper.to_move
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.stepper.to_move:
            return []
        return list(self.stepper.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.stepper.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        position = self.stepper.position()
        steps = (*self.stepper.pending, int(action))
        try:
            return self._game.partial_text(position.data, steps)
        except Exception:  # an action not legal here has no notation; its number stands
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self.stepper.is_over

    def returns(self) -> list[float]:
        result = self.stepper.result
        if result is None:
            return [0.0] * self._game.num_seats
        return [2 * score - 1 for score in result]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> BoardlabState:
        """A state ``player_id`` cannot tell from this one (boardlab's ``determinize``)."""
        state = self.stepper.state
        if self._game.info.perfect_information:
            return self.clone()
        rng = random.Random(int(np.random.randint(2**31)))
        sample = self._game.determinize(state.view(player_id), rng)
        other = self.clone()
        other.stepper = sample.stepper()
        return other

    def __str__(self) -> str:
        return str(self.stepper.position().view(None) if self._game.info.perfect_information
                   else self.stepper.state.view(None))


class ViewObserver:
    """The PyObserver interface over ``view(seat)``: planes as the tensor, text as the string."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(int(np.prod(game.planes_shape)), np.float32)
        self.dict = {"planes": self.tensor.reshape(game.planes_shape)}

    def _view_state(self, state: BoardlabState) -> State:
        # Mid-turn positions exist only for the seat that is in the middle of its own turn, in
        # games of perfect information; elsewhere the last whole turn is what a seat has seen.
        stepper = state.stepper
        return stepper.position() if self.game.info.perfect_information else stepper.state

    def set_from(self, state: BoardlabState, player: int) -> None:
        self.tensor[:] = self._view_state(state).view(player).planes().ravel()

    def string_from(self, state: BoardlabState, player: int) -> str:
        view = self._view_state(state).view(player)
        stepper = state.stepper
        pending = ""
        if stepper.pending:
            pending = " | " + self.game.partial_text(stepper.state.data, stepper.pending)
        if not self.perfect_recall:
            return view.to_text() + pending
        moves = " ".join(move.text for move in stepper.state.view(player).history())
        return f"{player}: {moves}{pending} | {view.to_text()}"


_CLASSES: list[type] = []


def register() -> list[str]:
    """Register every boardlab game with pyspiel (once); return their short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for info in boardlab.games():
        name = short_name(info.id)
        names.append(name)
        if name in registered:
            continue

        # A class, as OpenSpiel's own Python games register: pyspiel keeps it until the process
        # exits (a plain function registered there is freed after Python has shut down, and aborts).
        cls = type(f"Boardlab_{info.id}", (BoardlabGame,), {"game_id": info.id, "__module__": __name__})
        _CLASSES.append(cls)
        pyspiel.register_game(game_type(info), cls)
    return names


def load(game_id: str, **options: Any) -> Any:
    """``pyspiel.load_game`` of a boardlab game (registering first), with boardlab options."""
    register()
    info = boardlab.info(game_id)
    numeric = {option.name for option in info.options if _numeric(option)}
    params = {name: int(value) if name in numeric else value for name, value in options.items()}
    return pyspiel.load_game(short_name(info.id), params)


__all__ = ["BoardlabGame", "BoardlabState", "ViewObserver", "load", "register"]
