"""A game's state vector declared field by field: the offsets are generated, never numbered by hand.

The state vector (:mod:`boardlab.core.kernel`) starts with the common header; a game's own fields
follow it in the order the game declares them, each with its length:

- a *field* of fixed length gets a start known when the module loads, a plain ``int`` that the
  kernels compile in (numba reads module-level integers as constants);
- the first field whose length depends on the options (the board) is *sized*: its start is still a
  constant, but nothing after it can be;
- every *region* after it (a history as long as the ply cap, a list per cell) has its start kept
  in a spec field, where the face writes what :meth:`StateLayout.place` gives, and the kernels read
  ``spec[S_…]``.

>>> LAYOUT = StateLayout("demo", total=9, lengths=lambda spec: {"BOARD": spec[0], "history": spec[1] + 1})
>>> F_COLOUR = LAYOUT.field("F_COLOUR")
>>> F_COUNT = LAYOUT.field("F_COUNT", 2)   # one per colour
>>> F_PASSES, F_HASH = LAYOUT.several("F_PASSES", "F_HASH")
>>> BOARD = LAYOUT.sized("BOARD")
>>> LAYOUT.regions({"history": 7, "scratch": 6})
>>> F_COLOUR, F_COUNT, F_PASSES, F_HASH, BOARD
(8, 9, 11, 12, 13)
>>> LAYOUT.place({"BOARD": 25, "history": 4, "scratch": 2})
{7: 38, 6: 42, 9: 44}

A layout registers itself under its game's id, so that one conformance test checks every game's
(:func:`declared`): no two fields overlap, all lie inside the state, none inside the header.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from boardlab.core.kernel import HEADER

_DECLARED: dict[str, StateLayout] = {}


@dataclass(frozen=True)
class Field:
    """One named stretch of the state vector: ``length`` entries from ``start``."""

    name: str
    start: int
    length: int

    @property
    def end(self) -> int:
        return self.start + self.length


class StateLayout:
    """The fields of one game's state vector, in order, laid end to end after the kernel header.

    ``total`` is the spec field holding the state's length; ``lengths(spec)`` gives the length of
    each sized field and region under the options that spec was built for (the conformance check
    reads the regions' starts from the spec, as the kernels do, and these lengths).
    """

    def __init__(self, game: str, total: int, lengths: Callable[[np.ndarray], Mapping[str, int]]) -> None:
        self.game = game
        self.total = total
        self.lengths = lengths
        self._fixed: list[Field] = []
        self._end = HEADER  # where the next constant-start field goes
        self._sized: str | None = None
        self._regions: dict[str, int] = {}  # region name -> the spec field holding its start
        _DECLARED[game] = self

    def field(self, name: str, length: int = 1) -> int:
        """Declare a field of fixed length; returns its start (a compile-time constant)."""
        if self._sized is not None:
            raise ValueError(f"{self.game}: field {name!r} comes after the sized field {self._sized!r}, "
                             "so its start depends on the options: declare it as a region")
        self._check_new(name)
        start = self._end
        self._fixed.append(Field(name, start, length))
        self._end += length
        return start

    def several(self, *names: str, length: int = 1) -> tuple[int, ...]:
        """Declare several fields of ``length`` each, in order; returns their starts, to unpack into names as
        ``F_A, F_B = LAYOUT.several("F_A", "F_B")``."""
        return tuple(self.field(name, length) for name in names)

    def spare(self, length: int) -> None:
        """Leave ``length`` entries unused (saved state vectors keep their length and order)."""
        self.field(f"spare {self._end}", length)

    def sized(self, name: str) -> int:
        """Declare the field whose length depends on the options; returns its (constant) start."""
        if self._sized is not None:
            raise ValueError(f"{self.game}: only one sized field may have a constant start; "
                             f"{name!r} comes after {self._sized!r}: declare it as a region")
        self._check_new(name)
        self._sized = name
        return self._end

    def region(self, name: str, spec_field: int) -> None:
        """Declare a region after the sized field; its start is kept in ``spec[spec_field]``."""
        if self._sized is None:
            raise ValueError(f"{self.game}: region {name!r} before any sized field: declare it as a field")
        self._check_new(name)
        if spec_field in self._regions.values() or spec_field == self.total:
            raise ValueError(f"{self.game}: spec field {spec_field} holds the start of two regions")
        self._regions[name] = spec_field

    def regions(self, spec_fields: Mapping[str, int]) -> None:
        """Declare regions in order, each name with the spec field that keeps its start (:meth:`region`)."""
        for name, spec_field in spec_fields.items():
            self.region(name, spec_field)

    def _check_new(self, name: str) -> None:
        if name in self._regions or name == self._sized or any(f.name == name for f in self._fixed):
            raise ValueError(f"{self.game}: field {name!r} declared twice")

    def place(self, lengths: Mapping[str, int]) -> dict[int, int]:
        """The spec fields to write for these lengths: each region's start, and ``total`` the state's length.

        ``lengths`` names the sized field and every region, each once.
        """
        expected = ([self._sized] if self._sized else []) + list(self._regions)
        if sorted(lengths) != sorted(expected):
            raise ValueError(f"{self.game}: lengths given for {sorted(lengths)}; the layout has {sorted(expected)}")
        at = self._end + (lengths[self._sized] if self._sized else 0)
        starts = {}
        for name, spec_field in self._regions.items():
            starts[spec_field] = at
            at += lengths[name]
        starts[self.total] = at
        return starts

    def fields(self, spec: np.ndarray) -> list[Field]:
        """Every field as the kernels find it under ``spec``: fixed starts, region starts read from the spec."""
        lengths = {name: int(length) for name, length in self.lengths(spec).items()}
        fields = list(self._fixed)
        if self._sized is not None:
            fields.append(Field(self._sized, self._end, lengths[self._sized]))
        fields += [Field(name, int(spec[spec_field]), lengths[name]) for name, spec_field in self._regions.items()]
        return fields

    def problems(self, spec: np.ndarray, state_length: int) -> list[str]:
        """What is wrong with this layout under ``spec`` for a state of ``state_length``: ``[]`` if nothing."""
        found = []
        if int(spec[self.total]) != state_length:
            found.append(f"the spec says the state has {int(spec[self.total])} entries; it has {state_length}")
        fields = sorted(self.fields(spec), key=lambda f: (f.start, f.end))
        for field in fields:
            if field.length < 0:
                found.append(f"{field.name} has a negative length {field.length}")
            if field.start < HEADER:
                found.append(f"{field.name} starts at {field.start}, inside the kernel header (0 to {HEADER - 1})")
            if field.end > state_length:
                found.append(f"{field.name} ends at {field.end}, past the state's {state_length} entries")
        reaching: Field | None = None  # of the fields so far, the one that ends last
        for field in fields:
            if not field.length:
                continue
            if reaching is not None and field.start < reaching.end:
                found.append(f"{reaching.name} ({reaching.start} to {reaching.end - 1}) overlaps "
                             f"{field.name} ({field.start} to {field.end - 1})")
            if reaching is None or field.end > reaching.end:
                reaching = field
        return found


def declared(game_id: str) -> StateLayout:
    """The state layout a game's kernels declared (import the game first: the kernels declare it)."""
    if game_id not in _DECLARED:
        raise KeyError(f"{game_id} declares no state layout (boardlab.core.layout.StateLayout); "
                       f"declared: {', '.join(_DECLARED) or 'none'}")
    return _DECLARED[game_id]
