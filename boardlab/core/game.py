"""Game descriptions and the base class every game's Python face extends.

A :class:`GameInfo` is a game's declarative metadata (OpenSpiel's ``GameType``, Abstract Play's
``gameinfo``): id, name, designer, year, player counts, options, named variants, rules version.
Tools read it without compiling any rules (it lives in :mod:`boardlab.core.info`, which imports
neither numpy nor numba, and is re-exported here).

A :class:`Game` is one game with its options fixed. It owns the compiled kernels and the *spec*
(options and tables as an ``int64`` vector), and it is the factory for states:

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=3, length=3)
>>> game
boardlab.load('ndengrod', size=3, length=3)
>>> game.new_game().to_move
0

A game's face implements the abstract hooks below: its initial state vector, notation for moves
and positions, and text rendering. Everything else (legal moves as whole turns, play, views,
records, search) is generic and calls the kernels.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from boardlab.core import kernel, turns
from boardlab.core.info import GameInfo, Variant
from boardlab.core.move import Move, fast_move
from boardlab.core.options import OptionValue, resolve_options
from boardlab.errors import BoardlabError

__all__ = ["NO_BOUND", "Game", "GameInfo", "Variant"]

if TYPE_CHECKING:
    from boardlab.core.cells import CellContent
    from boardlab.core.restriction import Restriction
    from boardlab.core.state import State
    from boardlab.core.view import View


# What :attr:`Game.max_decisions` says where the options cap nothing (a game might go on forever).
NO_BOUND = 1_000_000


class Game(ABC):
    """One game with its options fixed: the factory of its states.

    Subclasses set ``info``, ``legal_kernel`` and ``apply_kernel`` (numba functions with the
    signatures in :mod:`boardlab.core.kernel`) and implement the hooks.
    """

    info: ClassVar[GameInfo]
    legal_kernel: ClassVar[Callable[..., int]]
    apply_kernel: ClassVar[Callable[..., None]]
    # False where the kernel never sets MID_TURN: then every action is a whole turn, and listing the
    # legal moves need not play each action to see whether the turn goes on. ``kernels=k`` takes it
    # from the kernel module's ``compile_turns(..., several=)``.
    turns_of_several_actions: ClassVar[bool] = True
    # Each action's text key in a position (:mod:`boardlab.core.turns`); the face's ``key_text``
    # writes a key's text. The default key is the action itself.
    describe_kernel: ClassVar[Callable[..., int]] = staticmethod(turns.plain_describe)
    # ``turns(start, spec)``: every legal whole turn, compiled by the game's kernel module with
    # ``turns.compile_turns``.
    turns_kernel: ClassVar[Callable[..., Any]]
    # A game with a heuristic evaluation (for search cut-offs) overrides these three; the cut-off
    # is the playout length after which search agents trust the evaluation by default.
    evaluate_kernel: ClassVar[Callable[..., None]] = staticmethod(kernel.neutral_evaluation)
    has_evaluation: ClassVar[bool] = False
    search_cutoff: ClassVar[int] = 0
    # "alphabeta" where a match showed alpha-beta on the evaluation beats MCTS (GTBM).
    search_algorithm: ClassVar[str] = "mcts"
    # For alpha-beta's transposition table and quiescence search (boardlab.ai.alphabeta_table): the
    # index of the game's own position hash in the state (-1: none, the whole state is hashed), and
    # ``noisy(state, spec, action)``, the moves the quiescence search goes on with (None: no such moves).
    search_key_field: ClassVar[int] = -1
    noisy_kernel: ClassVar[Callable[..., bool] | None] = None
    # Other evaluations alpha-beta may score its leaves with, by name (agent setting ``evaluation=NAME``;
    # ``default`` is always ``evaluate_kernel``), so that a new evaluation can be matched against the old.
    evaluations: ClassVar[Mapping[str, Callable[..., None]]] = {}

    # What may stand on a cell, for observation planes (:mod:`boardlab.core.planes`).
    plane_kinds: ClassVar[tuple[str, ...]] = ("piece",)
    plane_numbers: ClassVar[tuple[str, ...]] = ()
    plane_marks: ClassVar[tuple[str, ...]] = ()
    # planes(view_vector, spec, seat, out): fills a view's planes (core/planes.py); None: from cell_contents.
    planes_kernel: ClassVar[Callable[..., None] | None] = None

    # The spec field that holds a state vector's length (each game's kernel layout says which; ``kernels=k``
    # takes ``k.S_STATE_LEN``).
    state_length_at: ClassVar[int]

    def __init_subclass__(cls, kernels: ModuleType | None = None,
                          evaluate: Callable[..., None] | None = None, **kwargs: Any) -> None:
        """``class Gtbm(Game, kernels=k)`` takes the ``*_kernel`` attributes from the kernel module ``k``
        (:func:`boardlab.core.facekit.bind_kernels`); ``evaluate`` where the evaluation lives elsewhere."""
        super().__init_subclass__(**kwargs)
        if kernels is not None:
            from boardlab.core.facekit import bind_kernels

            bind_kernels(cls, kernels, evaluate)

    def __init__(self, **options: Any) -> None:
        given = dict(options)
        # Kept to rebuild the game elsewhere (pickling): the options as given, so that defaults
        # derived from other options are derived again rather than frozen.
        self._given: dict[str, Any] = given
        resolved = resolve_options(self.info.id, self.info.options, given)
        self.check_options(resolved, given)
        self.options: Mapping[str, OptionValue] = MappingProxyType(resolved)
        self.spec: np.ndarray = self.build_spec()
        self.spec.setflags(write=False)
        # Tables filled as text keys turn up: each key's text (read-only to callers), and the
        # one-action move it makes.
        self.key_texts: dict[int, str] = {}
        self.key_moves: dict[int, Move] = {}

    # -- identity -------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def rules_version(self) -> str:
        return self.info.rules_version

    @property
    def num_seats(self) -> int:
        """Seats in a game with these options (Mynd's depends on ``players``)."""
        return self.info.players[0]

    @property
    def action_limit(self) -> int:
        """One more than the largest action number the kernels use (search marks actions by number)."""
        return kernel.MAX_ACTIONS

    @property
    def num_distinct_actions(self) -> int:
        """How many action numbers exist: every atomic decision is a number in ``range(this)``.

        The numbering is the kernels' own (each game's kernel module documents it), so it is stable
        across versions of the same ``rules_version``. A turn of several steps (a Möbiatus chain, an
        HMDG commit and response) is a sequence of such decisions, each one action; adapters
        (OpenSpiel, PettingZoo) expose exactly these. Games override this with their tight bound.
        """
        return self.action_limit

    @property
    def max_decisions(self) -> int:
        """An upper bound on the decisions (atomic actions) in one game with these options.

        It follows from the rules' caps (ply caps, no-capture limits, a full board); where the
        options set no cap at all, it is :data:`NO_BOUND`, which stands for "unbounded".
        """
        return NO_BOUND

    @functools.cached_property
    def plane_names(self) -> tuple[str, ...]:
        """The names of the planes of :meth:`View.planes`, in order (:mod:`boardlab.core.planes`)."""
        from boardlab.core.planes import plane_names

        return plane_names(self)

    @functools.cached_property
    def planes_shape(self) -> tuple[int, int]:
        """The shape of :meth:`View.planes`: ``(planes, cells)``."""
        return (len(self.plane_names), len(self.cell_names()))

    @property
    def changed_options(self) -> dict[str, OptionValue]:
        """The options that differ from their defaults."""
        defaults = self.info.defaults
        return {k: v for k, v in self.options.items() if v != defaults[k]}

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.changed_options.items())
        return f"boardlab.load({self.id!r}{args})"

    def __reduce__(self) -> tuple[Any, ...]:
        # A game pickles as its id and options (process pools, Ray, OpenSpiel): the kernels and
        # the spec are rebuilt from them on the other side.
        return (_load_game, (self.id, dict(self._given)))

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        # Immutable (options frozen, spec read-only): a copy is the game itself, as for a tuple.
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.id, dict(self.options)) == (other.id, dict(other.options))

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self.options.items()))))

    def evaluation_named(self, name: str) -> Callable[..., None]:
        """The evaluation kernel called ``name`` (``evaluations``; ``default``: ``evaluate_kernel``)."""
        if name == "default":
            return self.evaluate_kernel
        if name in self.evaluations:
            return self.evaluations[name]
        raise BoardlabError(f"search setting evaluation={name!r}: accepted in {self.id}: "
                            f"{', '.join(['default', *self.evaluations])}")

    # -- states ---------------------------------------------------------------------------------

    def new_game(self) -> State:
        """The start position."""
        from boardlab.core.state import State

        return State(self, self.initial_data())

    def from_text(self, text: str) -> State:
        """The position written as ``text`` (the form :meth:`State.to_text` writes).

        Malformed text raises :class:`boardlab.PositionError` saying what was expected.
        """
        from boardlab.core.state import State

        return State(self, self.parse_position(text.strip()))

    def state_from_json(self, document: Mapping[str, Any] | str) -> State:
        """The state that :meth:`State.to_json` wrote: start position and moves, so that the history
        (undo, records, repetition) is complete. Raises :class:`boardlab.PositionError` on a document
        that is not one, or one of another game."""
        from boardlab.core.serial import state_from_json

        return state_from_json(self, document)

    def seat_name(self, seat: int) -> str:
        """What the rules call the player in ``seat`` at the start (a colour or a letter)."""
        return f"seat {seat}"

    def seat_label(self, data: np.ndarray, seat: int) -> str:
        """What the player in ``seat`` is called in the position ``data`` (after a swap, say)."""
        return self.seat_name(seat)

    def end_reason_name(self, code: int) -> str:
        return self.info.end_reasons.get(code, "win" if code == kernel.REASON_WIN else f"reason {code}")

    # -- move text from tables (boardlab.core.turns) -------------------------------------------

    @property
    def notation(self) -> str:
        """How moves are written, in a sentence or two for a newcomer (the description's ``notation``)."""
        return self.info.notation

    def key_text(self, key: int) -> str:
        """The text of one action whose ``describe_kernel`` key is ``key`` (a turn's text is its
        actions' texts joined). Equal to what :meth:`action_text` writes for it."""
        raise BoardlabError(f"{self.id} does not write text keys")

    def key_text_of(self, key: int) -> str:
        """:meth:`key_text`, written once per game."""
        text = self.key_texts.get(key)
        if text is None:
            text = self.key_texts[key] = self.key_text(key)
        return text

    def move_of_key(self, key: int) -> Move:
        """The one-action move of text key ``key`` (shared: moves are immutable)."""
        move = self.key_moves.get(key)
        if move is None:
            move = self.key_moves[key] = fast_move(self.key_text_of(key), (key % self.num_distinct_actions,))
        return move

    def moves_of_keys(self, keys: Sequence[int]) -> list[Move]:
        """The one-action moves of ``keys``, in order."""
        table = self.key_moves
        try:
            return [table[key] for key in keys]
        except KeyError:
            return [self.move_of_key(key) for key in keys]

    def move_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        """The text of the turn ``path`` from ``data``, from the tables: :meth:`action_text`, fast."""
        work = data.copy()
        if len(path) == 1:
            return self.key_text_of(self.describe_kernel(work, self.spec, path[0]) >> 2)
        texts = []
        for action in path:
            texts.append(self.key_text_of(self.describe_kernel(work, self.spec, action) >> 2))
            self.apply_kernel(work, self.spec, action)
        return "".join(texts)

    def _blank(self) -> np.ndarray:
        """A state vector of zeros, as long as the spec's ``state_length_at`` field says."""
        return np.zeros(int(self.spec[self.state_length_at]), dtype=np.int64)

    # -- hooks each game implements -------------------------------------------------------------

    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:  # noqa: B027
        """Check combinations of options and fill defaults that depend on others (in place)."""

    @abstractmethod
    def build_spec(self) -> np.ndarray:
        """The ``int64`` spec vector the kernels read: options and precomputed tables."""

    @abstractmethod
    def initial_data(self) -> np.ndarray:
        """The start position's state vector."""

    @abstractmethod
    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        """Canonical notation of the move made of ``path`` from the position ``data``."""

    @abstractmethod
    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        """The kernel actions that ``text`` names in position ``data``.

        Raise :class:`boardlab.InvalidMove` if the text is not in the notation at all; the caller
        then checks legality (and asks :meth:`why_illegal` for the reason).
        """

    @abstractmethod
    def position_text(self, data: np.ndarray) -> str:
        """The position notation of ``data`` (without repetition history)."""

    @abstractmethod
    def parse_position(self, text: str) -> np.ndarray:
        """The state vector that ``text`` describes; :class:`boardlab.PositionError` if malformed."""

    @abstractmethod
    def render(self, view: View) -> str:
        """A text diagram of what ``view``'s seat may see, at most 80 columns wide."""

    def render_compact(self, view: View) -> str:
        """The diagram for a short terminal (24 lines hold it with the last move and the prompt).

        Games whose drawing is taller override it; the default is :meth:`render`.
        """
        return self.render(view)

    def partial_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        """Notation of the first steps ``path`` of a turn (a prefix of a legal move's path).

        Terminal play shows it while a turn of several steps is entered step by step. Games whose
        turns take several actions override it; the default writes the path as a whole move.
        """
        return self.action_text(data, path)

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        """Why the move ``path`` is not legal in ``data`` (a sentence for people)."""
        return "that move is not legal in this position"

    def scores(self, data: np.ndarray) -> tuple[float, ...] | None:
        """Raw per-seat scores where the game counts points (Mynd's territory); else ``None``."""
        return None

    def occupancy(self, data: np.ndarray) -> np.ndarray | None:
        """The seat whose piece stands on each cell (``-1``: none), for playtest measures; ``None`` if
        the game does not say. The referee's whole position: call it on a state, never hand it to a seat.
        """
        return None

    def observe(self, data: np.ndarray, seat: int | None) -> np.ndarray:
        """What ``seat`` (``None``: a spectator) may know, as a vector. Perfect information: everything.

        A game with hidden information returns a copy with what ``seat`` may not know erased (and
        whatever is derived from it recomputed), so that two positions ``seat`` cannot tell apart
        give equal vectors.
        """
        return data

    # -- drawing and clicking (renderers, browser boards, heat maps) ----------------------------

    def cell_names(self) -> tuple[str, ...]:
        """Every cell of the board by its name in the notation, in the order :meth:`cell_contents` lists them."""
        return ()

    def cell_adjacency(self) -> tuple[tuple[int, ...], ...] | None:
        """Each cell's neighbours across an edge, by index in :meth:`cell_names`, for playtest measures
        of how far pieces move; ``None`` where the board is no graph of cells. Read from the face's
        ``topology`` (square boards: the four orthogonal steps; hex boards: all six)."""
        topology = getattr(self, "topology", None)
        if topology is None:
            return None
        steps = 4 if len(topology.directions) == 8 else len(topology.directions)
        return tuple(tuple(int(n) for n in row[:steps] if n >= 0) for row in topology.neighbours)

    def cell_contents(self, view: View) -> list[CellContent]:
        """Every cell as ``view``'s seat sees it: name, pieces, marks (:mod:`boardlab.core.cells`)."""
        raise BoardlabError(f"{self.id} does not describe its cells for drawing")

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """What a user clicks, in order, to enter the move ``path`` (or its first actions) from ``data``.

        Each step is a cell's name (one of :meth:`cell_names`, as a drawn board labels it) or a short
        label for a choice that is no cell (``pass``, ``swap``), shown as a button. Two legal moves
        never have the same steps. A game whose turns take several actions gives the steps of every
        beginning of a legal path, the way :meth:`partial_text` writes it. Asked about an action that
        names nothing in ``data`` (a step off the board, an action of another phase) it returns ``()``.
        The default, for games whose every move is one action, is the move's text as one label.
        """
        return (self.action_text(data, path),)

    def click_text(self, data: np.ndarray, steps: tuple[str, ...]) -> str:
        """The move text that click ``steps`` spell in the notation, so that an illegal click can be
        parsed and explained (:meth:`parse_path`, :meth:`why_illegal`). Default: the steps joined by spaces."""
        return " ".join(steps)

    # -- hidden information (the defaults are right for perfect information) -------------------

    def public_move(self, data: np.ndarray, path: tuple[int, ...], seat: int | None) -> Move:
        """The move ``path``, played from ``data``, as ``seat`` (``None``: a spectator) knows it.

        Views, per-seat records and the terminal show moves through this. The default is the move
        itself. A game that hides part of a move returns the text the seat may read (HMDG shows
        another player's commit ``e5/row`` as ``row e``) and an empty path wherever the path would
        give the secret away.
        """
        return Move(self.action_text(data, path), path)

    def move_words(self, data: np.ndarray, label: str, text: str) -> str:
        """The move ``text`` (as a seat knows it), played from ``data`` by the player called ``label``,
        in words for a "Last move" line: by default the label, then the move."""
        return f"{label} {text}"

    def revealed_at_end(self, result: Sequence[float]) -> frozenset[int]:
        """The seats whose secrets the rules make public when the game ends with ``result`` (one score per
        seat), whatever ended it (the rules, a resignation, time, an agreement): what a finished game's
        record may show everybody. Perfect information: every seat (there are no secrets). A game that
        hides moves says whose it reveals (HMDG: by its ``reveal_at_end`` option); by default, nobody's.
        """
        if self.info.perfect_information:
            return frozenset(range(self.num_seats))
        return frozenset()

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state that ``view``'s seat cannot tell from the real one, drawn with ``rng``.

        For search under hidden information (information-set MCTS): the sample has the same view for
        that seat as the real state (same observation, same history as the seat knows it), and is
        drawn as close to uniformly over the consistent hidden placements as the game can manage.
        Perfect information: the view's own state.
        """
        if self.info.perfect_information:
            return view.state
        raise BoardlabError(f"{self.id} has hidden information but does not implement determinize")

    @functools.cached_property
    def observed_actions(self) -> np.ndarray:
        """What the other seats see of each action, for information-set search (an agent's
        ``merge_hidden``): ``observed[a]`` for every action number below :attr:`action_limit`, equal for
        actions they cannot tell apart and ``a`` itself where they see it whole. Empty (the default, and
        under perfect information): every action is seen whole."""
        return np.zeros(0, np.int64)

    @property
    def restrictions(self) -> Mapping[str, Restriction]:
        """The restrictions this game declares for restricted play, by name (:mod:`boardlab.core.restriction`):
        what an agent's ``restrict=`` setting accepts here. None by default."""
        return {}


def _load_game(game_id: str, options: dict[str, Any]) -> Game:
    from boardlab.core.registry import load

    return load(game_id, **options)
