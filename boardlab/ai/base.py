"""The agent interface: every kind of player (random, search, a person at a terminal) is an Agent.

An agent sees only a :class:`~boardlab.View` (what its seat may know), never the state itself, so
no agent can read hidden information it should not have.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from boardlab.core.game import Game
from boardlab.core.move import Move
from boardlab.core.view import View
from boardlab.errors import IllegalMove


@dataclass(frozen=True)
class Candidate:
    """One move an agent considered: how much search it got and what it is worth to the mover.

    ``visits``: the playouts through it (MCTS); ``depth``: the plies an alpha-beta search looked ahead
    for its value (``None`` for MCTS, whose ``visits`` say how much it was searched; alpha-beta
    counts no visits, so its ``visits`` are 0)."""

    move: Move
    visits: int
    value: float | None
    depth: int | None = None


@dataclass(frozen=True)
class Analysis:
    """Candidate moves, best first, with the line of play the agent expects."""

    candidates: tuple[Candidate, ...]
    principal_variation: tuple[Move, ...] = field(default=())

    @property
    def best(self) -> Move:
        return self.candidates[0].move


class Agent(ABC):
    """Something that chooses moves for a seat."""

    name: str = "agent"
    # What the last ``choose`` saw, for playtest measures: the analysis it chose from (``None`` where
    # it searched nothing, e.g. a forced move) and its estimate of the mover's chances in that position,
    # in [0, 1] (a draw counts ½): the value of its best-ranked move, whichever move it then played (a
    # move sampled at a temperature may have few visits and a noisy value).
    last_analysis: Analysis | None = None
    last_estimate: float | None = None

    @abstractmethod
    def choose(self, view: View) -> Move:
        """A legal move for the seat that ``view`` belongs to (it must owe the next decision)."""

    @abstractmethod
    def analyse(self, view: View) -> Analysis:
        """The moves this agent considers, ranked."""

    def _remember(self, analysis: Analysis | None, move: Move) -> Move:
        """Keep ``analysis`` and its best move's value as :attr:`last_analysis` and :attr:`last_estimate`."""
        self.last_analysis = analysis
        self.last_estimate = analysis.candidates[0].value if analysis is not None and analysis.candidates else None
        return move

    def describe(self, game: Game | None = None) -> str:
        """How this agent plays, in full: its budget and settings (``""`` where it has none), in ``game``
        where given (a level may be tuned per game).

        A name such as ``level4`` stands for settings that may change between versions; a match keeps
        this with each record, so that a resumed match can refuse games played by a different player."""
        return ""

    def check(self, game: Game) -> None:  # noqa: B027 (most agents play every game)
        """Raise :class:`boardlab.BoardlabError` if this agent cannot play ``game`` (before any move)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def moves_to_choose_from(view: View) -> list[Move]:
    """The legal moves of ``view``'s seat; :class:`IllegalMove` if it has no decision to make."""
    moves = view.legal_moves()
    if not moves:
        raise IllegalMove(f"seat {view.seat} has no decision to make here")
    return moves


def require_decision(view: View) -> None:
    """Raise :class:`IllegalMove` unless ``view`` is a seat's and that seat owes the next decision."""
    if view.seat is None or view.seat != view.to_move:
        raise IllegalMove(f"seat {view.seat} has no decision to make here")


def make_agent(kind: str, seed: int | None = None, seconds: float | None = None) -> Agent:
    """An agent by name (``random``, ``level1`` … ``level5``, ``uct:…``); see :mod:`boardlab.ai.levels`."""
    from boardlab.ai.levels import make_agent as make

    return make(kind, seed=seed, seconds=seconds)
