"""Building blocks every game's face shares: cell names, board text, end tokens, option codes, hash keys.

A face (``games/<game>/face.py``) is the game's notation and drawing around its numba kernels. What
is the same in every face is written here once, so that a face says only what is its own:

>>> from boardlab.core.topology import square
>>> naming = CellNaming.files_and_ranks(square(3))
>>> naming.names
('a3', 'b3', 'c3', 'a2', 'b2', 'c2', 'a1', 'b1', 'c1')
>>> naming.index(" B2 ")
4
>>> write_row(["B", ".", ".", "W"])
'B2W'
>>> list(read_row("B2W", 3, "rank 3's run of empty squares"))
['B', 2, 'W']
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core import kernel
from boardlab.core.info import GameInfo
from boardlab.core.numbers import MAX_PLY, whole_number
from boardlab.core.options import OptionValue
from boardlab.core.topology import Topology, square
from boardlab.errors import PositionError

__all__ = [
    "ONE_CHARACTER", "CellNaming", "ChoiceCodes", "EndTokens", "NamedCells", "PlyCapped", "SpecBuilder",
    "SquareBoard", "TextOfAction", "bind_kernels", "count_field", "position_fields", "read_row", "write_row",
    "zobrist_keys",
]

# -- cell names ---------------------------------------------------------------------------------


class CellNaming:
    """The names of a board's cells in the notation, by cell index, and back.

    Names are looked up without surrounding blanks and in lower case, as players type them.
    """

    def __init__(self, names: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        self._index = {name: cell for cell, name in enumerate(self.names)}

    def name(self, cell: int) -> str:
        return self.names[cell]

    def index(self, name: str) -> int | None:
        """The cell called ``name``; ``None`` if there is none."""
        return self._index.get(name.strip().lower())

    def __len__(self) -> int:
        return len(self.names)

    @classmethod
    def files_and_ranks(cls, topology: Topology, files: str = string.ascii_lowercase) -> CellNaming:
        """Chess-style names of a grid: a file letter from the left, then the rank counted up from the
        bottom (``a1`` is the bottom-left square). ``files`` may skip letters (Go boards skip ``i``)."""
        rows = 1 + max(row for row, _ in topology.coords)
        return cls(f"{files[col]}{rows - row}" for row, col in topology.coords)

    @classmethod
    def rows_and_numbers(cls, topology: Topology, rows: str = string.ascii_lowercase) -> CellNaming:
        """A row letter from the top, then the cell's number along the row (or diagonal) from 1:
        ``a1`` is the first cell of the top row."""
        return cls(f"{rows[row]}{col + 1}" for row, col in topology.coords)


class NamedCells:
    """A face's ``cell_name``, ``cell_index`` and ``cell_names``, from the :class:`CellNaming` that its
    ``build_spec`` keeps in ``naming`` (mixed in before :class:`boardlab.core.game.Game`)."""

    naming: CellNaming

    def cell_name(self, cell: int) -> str:
        """The name of cell ``cell`` in the notation."""
        return self.naming.names[cell]

    def cell_index(self, name: str) -> int | None:
        """The cell called ``name`` in the notation (any case, blanks around allowed); ``None`` if none."""
        return self.naming.index(name)

    def cell_names(self) -> tuple[str, ...]:
        return self.naming.names


class SquareBoard:
    """A face's ``size``, its ``size`` option, and ``topology``, the square board of that side, each made
    once (mixed in before :class:`boardlab.core.game.Game`)."""

    options: Mapping[str, OptionValue]

    @functools.cached_property
    def size(self) -> int:
        return int(self.options["size"])

    @functools.cached_property
    def topology(self) -> Topology:
        return square(self.size)


class PlyCapped:
    """A face's ``max_decisions`` where each ply is one decision and the ``ply_cap`` option ends the game
    (mixed in before :class:`boardlab.core.game.Game`)."""

    options: Mapping[str, OptionValue]

    @property
    def max_decisions(self) -> int:
        return int(self.options["ply_cap"])


class TextOfAction:
    """A face's ``action_text`` where every action is a whole turn and reads the same in every position
    (the kernels' default ``describe``): the text of its key, the action itself (mixed in before
    :class:`boardlab.core.game.Game`)."""

    if TYPE_CHECKING:
        def key_text(self, key: int) -> str: ...

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        return self.key_text(action)


# -- board text: rows written run-length, as in FEN ---------------------------------------------

ONE_CHARACTER = re.compile(r"\d+|.")


def write_row(tokens: Iterable[str], empty: str = ".", separator: str = "") -> str:
    """A row of the board text: each cell's token, a run of ``empty`` cells as its count (FEN).

    >>> write_row(["1w10", "", "", "2b11"], empty="", separator=",")
    '1w10,2,2b11'
    """
    items: list[str] = []
    run = 0
    for token in tokens:
        if token == empty:
            run += 1
            continue
        if run:
            items.append(str(run))
            run = 0
        items.append(token)
    if run:
        items.append(str(run))
    return separator.join(items)


def read_row(text: str, most: int, what: str, token: re.Pattern[str] = ONE_CHARACTER,
             separator: str | None = None) -> Iterator[int | str]:
    """The items of a row that :func:`write_row` wrote: an ``int`` for each run of empty cells (at most
    ``most``; ``what`` names the run in the error a bad count gets), each other token as written.

    Tokens are what ``token`` finds (one character each by default), or the pieces between
    ``separator`` where the row has one.
    """
    items = text.split(separator) if separator is not None else [m.group(0) for m in token.finditer(text)]
    for item in items:
        yield whole_number(item, most, what) if item.isdecimal() else item


def position_fields(text: str, form: str, least: int, most: int | None = None) -> list[str]:
    """The blank-separated fields of position ``text``: at least ``least``, at most ``most`` (``None``:
    any number), else a :class:`PositionError` quoting ``form``, what the game's position text looks like."""
    fields = text.split()
    if len(fields) < least or (most is not None and len(fields) > most):
        raise PositionError(f"{text!r}: expected {form}")
    return fields


def count_field(text: str, value: str, name: str = "ply") -> int:
    """A count in position ``text`` (the ply, by default): a whole number up to :data:`MAX_PLY`."""
    if not value.isdecimal():
        raise PositionError(f"{text!r}: the {name} is {value!r}; expected a whole number")
    return whole_number(value, MAX_PLY, f"{text!r}: the {name}")


# -- end tokens ---------------------------------------------------------------------------------


class EndTokens:
    """The ``end:<token>`` field of a finished game's position text, from the game's declared end
    reasons: a reason's words joined by hyphens (``ply cap``: ``end:ply-cap``) unless ``renamed``
    gives the notation's own token (``no legal move``: ``no-move``)."""

    def __init__(self, info: GameInfo, renamed: Mapping[int, str] | None = None) -> None:
        renamed = renamed or {}
        self.by_code: dict[int, str] = {
            code: renamed.get(code, "-".join(words.split())) for code, words in info.end_reasons.items()
        }
        self.by_token: dict[str, int] = {token: code for code, token in self.by_code.items()}

    def field(self, code: int) -> str:
        """``end:<token>`` for reason ``code``."""
        return f"end:{self.by_code[code]}"

    def code(self, flag: str) -> int | None:
        """The reason that ``flag`` (``end:<token>``) names; ``None`` if it names none."""
        if not flag.startswith("end:"):
            return None
        return self.by_token.get(flag[4:])

    def fields(self) -> str:
        """Every ``end:`` field, comma-separated (for an error that lists what is accepted)."""
        return ", ".join(f"end:{token}" for token in self.by_token)

    def split(self, flags: Iterable[str]) -> tuple[int | None, list[str]]:
        """The reason that the first ``end:`` field of ``flags`` names (``None``: none), and the other flags
        in order (a second ``end:`` field among them, for the face to refuse as unexpected)."""
        end, others = None, []
        for flag in flags:
            code = self.code(flag)
            if code is not None and end is None:
                end = code
            else:
                others.append(flag)
        return end, others

    def check(self, text: str, end: int | None, reason: int) -> None:
        """Refuse the position ``text`` unless its ``end:`` field (reason ``end``, ``None`` where it has
        none) says how the position it describes ends (``reason``, 0 where the game goes on)."""
        token = self.by_code
        if end is None and reason != 0:
            raise PositionError(f"{text!r}: the game is over here ({token[reason]}), so end:{token[reason]} is needed")
        if end is not None and end != reason:
            actual = f"it ended by end:{token[reason]}" if reason else "the game goes on"
            raise PositionError(f"{text!r}: end:{token[end]} does not fit this position ({actual})")

    def ended(self, data: np.ndarray) -> list[str]:
        """``[end:<token>]`` once the game in ``data`` is over, else ``[]`` (the last field of a position)."""
        if data[kernel.TO_MOVE] >= 0:
            return []
        return [self.field(int(data[kernel.END_REASON]))]


# -- option choices to kernel codes -------------------------------------------------------------


class ChoiceCodes:
    """Each option choice's code in the kernels, checked against the declared choices when the face
    is imported: a choice added to ``INFO`` without a kernel code fails at once, not mid-game.

    A code is found by name, ``prefix + CHOICE`` in the kernel module (``REACH_`` and ``adjacent``:
    ``REACH_ADJACENT``), or given as a mapping where the kernel names it otherwise.
    """

    def __init__(self, info: GameInfo, module: ModuleType, **codes: str | Mapping[str, int]) -> None:
        self.codes: dict[str, dict[str, int]] = {}
        for name, way in codes.items():
            choices = info.option(name).choices
            if isinstance(way, str):
                missing = [c for c in choices if not hasattr(module, way + c.upper())]
                found = {c: int(getattr(module, way + c.upper())) for c in choices if c not in missing}
            else:
                missing = [c for c in choices if c not in way]
                found = {c: int(way[c]) for c in choices if c in way}
            if missing or set(found) != set(choices):
                raise TypeError(f"{info.id}: option {name}: no kernel code for {', '.join(missing) or 'a choice'}")
            self.codes[name] = found

    def __call__(self, options: Mapping[str, OptionValue], name: str) -> int:
        """The kernel code of option ``name``'s value in ``options``."""
        return self.codes[name][str(options[name])]


# -- the spec: header fields, then tables ------------------------------------------------------


def zobrist_keys(seed: int | np.random.Generator, count: int) -> np.ndarray:
    """``count`` random hash keys from a fixed ``seed`` (so hashes are the same in every run), none 0."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return rng.integers(1, 2**62, size=count, dtype=np.int64)


class SpecBuilder:
    """A spec vector built as a header of fields, then tables one after another; each table's start
    goes into the header field that points to it, so that no offset is computed by hand.

    >>> spec = SpecBuilder(header=4)
    >>> spec[0] = 7
    >>> spec.table([5, 6], at=1)
    4
    >>> spec.table([9])
    6
    >>> spec.build().tolist()
    [7, 4, 0, 0, 5, 6, 9]
    """

    def __init__(self, header: int) -> None:
        self.header = np.zeros(header, dtype=np.int64)
        self.tables: list[np.ndarray] = []
        self.length = header

    def __setitem__(self, field: int | slice, value: Any) -> None:
        self.header[field] = value

    def __getitem__(self, field: int) -> int:
        return int(self.header[field])

    def table(self, values: Sequence[int] | np.ndarray, at: int | None = None) -> int:
        """Append ``values`` as a table; its start, also written into header field ``at`` if given."""
        table = np.asarray(values, dtype=np.int64).ravel()
        start = self.length
        self.tables.append(table)
        self.length += len(table)
        if at is not None:
            self.header[at] = start
        return start

    def fields(self, starts: Mapping[int, int]) -> None:
        """Write several header fields at once (a kernel layout's region starts)."""
        for field, start in starts.items():
            self.header[field] = start

    def build(self) -> np.ndarray:
        return np.concatenate([self.header, *self.tables])


# -- kernels ------------------------------------------------------------------------------------


def bind_kernels(face: type, module: ModuleType, evaluate: Callable[..., None] | None = None) -> None:
    """The ``*_kernel`` class attributes of a face from its kernel module: ``legal``, ``apply``,
    ``turns`` and ``planes``, and ``describe`` and ``evaluate`` where the module (or ``evaluate``) has
    one; ``state_length_at`` from its ``S_STATE_LEN`` where it has that; ``turns_of_several_actions``
    from what its ``turns`` was compiled for (:func:`~boardlab.core.turns.compile_turns`). What the
    face's class body sets itself stays."""
    own = face.__dict__
    if hasattr(module, "S_STATE_LEN") and "state_length_at" not in own:
        face.state_length_at = module.S_STATE_LEN  # type: ignore[attr-defined]
    if hasattr(getattr(module, "turns", None), "several") and "turns_of_several_actions" not in own:
        face.turns_of_several_actions = module.turns.several  # type: ignore[attr-defined]
    for name in ("legal", "apply", "turns", "planes", "describe"):
        if hasattr(module, name) and f"{name}_kernel" not in own:
            setattr(face, f"{name}_kernel", staticmethod(getattr(module, name)))
    evaluate = evaluate if evaluate is not None else getattr(module, "evaluate", None)
    if evaluate is not None and "evaluate_kernel" not in own:
        face.evaluate_kernel = staticmethod(evaluate)  # type: ignore[attr-defined]
        if "has_evaluation" not in own:
            face.has_evaluation = True  # type: ignore[attr-defined]
