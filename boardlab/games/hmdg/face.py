"""Hidden Move Double Gomoku's Python face: options, notation, what each seat may see, text board.

>>> import boardlab
>>> game = boardlab.load("hmdg", size=5, line_length=3)
>>> state = game.new_game().play("c3").play("o").play("b2/row")
>>> [str(move) for move in state.view(1).history()]
['c3', 'o', 'b2/row']
>>> [str(move) for move in state.view(0).history()]
['c3', 'o', 'row b']
>>> state.to_text()
'5/5/2X2/5/5 o 3 x=0 announced=row:b target=b2'
>>> state.view(0).to_text()
'5/5/2X2/5/5 o 3 x=0 announced=row:b'
>>> after = state.play("none")
>>> after.to_text(), after.view(0).to_text()
('5/1o3/2X2/5/5 x 4 x=0', '5/5/2X2/5/5 x 4 x=0 hidden=0,1')

Position text: the rows from the top (``A``), ``/``-separated, each as point tokens and counts of
empty points (as in FEN): ``x``/``o`` a hidden stone, ``X``/``O`` a revealed one, ``(xo)``, ``(Xo)``,
``(xO)``, ``(XO)`` both players' stones on one point. Then whose turn it is (``setup``, ``choose``, or
the mover's colour ``x``/``o``), the ply, and optional fields: ``x=SEAT`` (who plays x),
``announced=row:e`` or ``announced=col:5`` and ``target=e5`` while the responder decides, ``hidden=NX,NO``
(hidden placements not yet revealed, written when the board shows a different number),
``fives=x``/``o``/``xo`` (who has announced a five), ``passed``, and ``end:lines``, ``end:passes`` or
``end:no-target``. A view's text is the same with what its seat may not know left out.
"""

from __future__ import annotations

import functools
import random
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.move import Move
from boardlab.core.numbers import whole_number
from boardlab.core.options import OptionValue
from boardlab.core.view import View
from boardlab.errors import IllegalMove, InvalidMove, OptionError, PositionError
from boardlab.games.hmdg import INFO
from boardlab.games.hmdg import kernel as k

if TYPE_CHECKING:
    from boardlab.core.state import State

COLOURS = "xo"
ROW_LETTERS = "abcdefghjklm"  # no i, as on a go board
_CODES = kit.ChoiceCodes(INFO, k, reveal_at_end="END_REVEAL_", no_target="NO_TARGET_",
                     announce={"every_new_segment": k.ANNOUNCE_EVERY, "first_five_only": k.ANNOUNCE_FIRST,
                               "none": k.ANNOUNCE_NONE})
_END_TOKENS = kit.EndTokens(INFO)
_AXES = ("row", "col")
# (direction in topology.SQUARE_DIRECTIONS, its opposite): along a row, a column, "\" and "/".
_WALKS = ((1, 3), (2, 0), (5, 7), (6, 4))
_POINT = re.compile(r"([a-z])(\d{1,2})")
_COMMIT = re.compile(r"([a-z]\d{1,2})\s*[/ ]\s*(row|r|column|col|c)")
_TOKEN = re.compile(r"\([xX][oO]\)|\d+|.")


class HiddenMoveDoubleGomoku(kit.NamedCells, kit.SquareBoard, Game, kernels=k):
    """Hidden Move Double Gomoku with its options fixed."""

    info = INFO
    plane_kinds = ("hidden", "revealed")
    plane_marks = ("closed", "target")

    @property
    def max_decisions(self) -> int:
        """Every completed commit lands a stone on a point without one of the mover's, or reveals a
        stone (closing a point); passes come singly or end the game (H8); a turn is two decisions."""
        moves = 3 * self.cells
        return 2 * (2 * moves + 2) + 2


    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        size, length = int(resolved["size"]), int(resolved["line_length"])
        if length > size:
            raise OptionError(
                f"hmdg: option line_length={length} does not fit on a board of size {size}; "
                f"accepted: an integer from 2 to {size}"
            )
        if int(resolved["max_shared"]) >= length:
            raise OptionError(
                f"hmdg: option max_shared={resolved['max_shared']} must be smaller than line_length={length}; "
                f"accepted: an integer from 0 to {length - 1}"
            )

    # -- board and tables -----------------------------------------------------------------------

    @property
    def action_limit(self) -> int:
        """Reveals are ``reveal_base + mask``, a mask over the ``size`` points of a line."""
        return k.reveal_base(self.cells) + 2 ** int(self.options["size"])

    @property
    def cells(self) -> int:
        return self.size * self.size

    @functools.cached_property
    def observed_actions(self) -> np.ndarray:
        """A commit ``2 * target + axis`` shows the other player its announced line alone (the row or
        column of the target), so the commits to one line look the same; every other action is public."""
        observed = np.arange(self.action_limit, dtype=np.int64)
        for target in range(self.cells):
            row, column = divmod(target, self.size)
            for axis, line in ((0, row), (1, column)):
                observed[2 * target + axis] = self.action_limit + axis * self.size + line
        return observed

    def build_spec(self) -> np.ndarray:
        size, length = self.size, int(self.options["line_length"])
        topology = self.topology
        cells = topology.size
        geometry = np.zeros((cells, 4, 2), dtype=np.int64)
        for cell, (row, col) in enumerate(topology.coords):
            geometry[cell] = ((row, col), (col, row), (col - row + size - 1, row), (row + col, row))
        segments: list[tuple[int, list[int], int, int]] = []  # direction, points, before, after
        for direction, (step, back) in enumerate(_WALKS):
            for start in range(cells):
                points = [start]
                while len(points) < length and points[-1] >= 0:
                    points.append(int(topology.neighbours[points[-1], step]))
                if points[-1] < 0:
                    continue
                after = int(topology.neighbours[points[-1], step])
                segments.append((direction, points, int(topology.neighbours[start, back]), after))
        count = len(segments)
        stride = 1 + 4 * length
        seg_cells = k.SPEC_HEADER
        seg_ends = seg_cells + count * length
        seg_geom = seg_ends + 2 * count
        cell_segs = seg_geom + 3 * count
        cell_geom = cell_segs + cells * stride
        spec = np.zeros(cell_geom + cells * 8, dtype=np.int64)
        spec[k.S_SIZE] = size
        spec[k.S_CELLS] = cells
        spec[k.S_LENGTH] = length
        spec[k.S_LINES_NEEDED] = self.options["lines_needed"]
        spec[k.S_MAX_SHARED] = self.options["max_shared"]
        spec[k.S_OVERLINE] = self.options["overline_counts"]
        spec[k.S_ANNOUNCE] = _CODES(self.options, "announce")
        spec[k.S_OWN_STACK] = self.options["allow_own_stack"]
        spec[k.S_PARTNER] = self.options["reveal_stack_partner"]
        spec[k.S_END_REVEAL] = _CODES(self.options, "reveal_at_end")
        spec[k.S_NO_TARGET] = _CODES(self.options, "no_target")
        spec[k.S_SEGMENTS] = count
        for field, start in ((k.S_SEG_CELLS, seg_cells), (k.S_SEG_ENDS, seg_ends), (k.S_SEG_GEOM, seg_geom),
                             (k.S_CELL_SEGS, cell_segs), (k.S_CELL_GEOM, cell_geom)):
            spec[field] = start
        for seg, (direction, points, before, after) in enumerate(segments):
            spec[seg_cells + seg * length: seg_cells + (seg + 1) * length] = points
            spec[seg_ends + 2 * seg: seg_ends + 2 * seg + 2] = (before, after)
            line, low = geometry[points[0], direction]
            spec[seg_geom + 3 * seg: seg_geom + 3 * seg + 3] = (direction, line, low)
            for point in points:
                at = cell_segs + point * stride
                spec[at] += 1
                spec[at + spec[at]] = seg
        spec[cell_geom:] = geometry.ravel()
        for field, start in k.layout(cells, count).items():
            spec[field] = start
        # A row letter from the top (no i), then the column: ``0`` is ``a1``, top left.
        self.naming = kit.CellNaming.rows_and_numbers(topology, ROW_LETTERS)
        self._names = self.naming.names
        return spec

    # HMDG calls its cells points.
    point_name = kit.NamedCells.cell_name
    point_index = kit.NamedCells.cell_index

    def line_name(self, axis: int, line: int) -> str:
        """``row e`` or ``col 5``."""
        return f"row {ROW_LETTERS[line]}" if axis == 0 else f"col {line + 1}"

    def line_points(self, axis: int, line: int) -> list[int]:
        return [int(k.line_point(self.size, axis, line, j)) for j in range(self.size)]

    # -- seats ----------------------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        if self.options["setup"] == "fixed":
            return "o" if seat == 0 else "x"
        return "AB"[seat]

    def seat_label(self, data: np.ndarray, seat: int) -> str:
        x_seat = int(data[k.F_X_SEAT])
        if x_seat < 0:
            return self.seat_name(seat)
        return "x" if seat == x_seat else "o"

    def colour_of(self, data: np.ndarray, seat: int) -> int | None:
        """The colour (0 = x, 1 = o) that ``seat`` plays, ``None`` before the side choice."""
        x_seat = int(data[k.F_X_SEAT])
        return None if x_seat < 0 else (k.COLOUR_X if seat == x_seat else k.COLOUR_O)

    # -- states ---------------------------------------------------------------------------------

    def _blank(self) -> np.ndarray:
        data = super()._blank()
        data[k.F_X_SEAT] = -1
        data[k.F_TARGET] = data[k.F_AXIS] = data[k.F_LINE] = data[k.F_LAST_TARGET] = -1
        return data

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        if self.options["setup"] == "fixed":
            centre = (self.size - 1) // 2
            k.add_stone(data, self.spec, k.COLOUR_X, centre * self.size + centre, k.REVEALED)
            data[k.F_X_SEAT] = 1
            data[k.F_COLOUR] = k.COLOUR_O
            data[k.F_PHASE] = k.PH_COMMIT
            data[kernel.TO_MOVE] = 0
        return data

    # -- moves ----------------------------------------------------------------------------------

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        return self._text(action, int(data[k.F_AXIS]), int(data[k.F_LINE]))

    def key_text(self, key: int) -> str:
        action, extra = divmod(key, self.num_distinct_actions)[::-1]
        axis, line = divmod(extra - 1, self.size) if extra else (-1, -1)
        return self._text(action, axis, line)

    def _text(self, action: int, axis: int, line: int) -> str:
        cells = self.cells
        if action < 2 * cells:
            return f"{self._names[action >> 1]}/{_AXES[action & 1]}"
        if action == k.pass_action(cells):
            return "pass"
        if action < k.choose_x(cells):
            return self._names[action - k.setup_base(cells)]
        if action == k.choose_x(cells):
            return "x"
        if action == k.choose_o(cells):
            return "o"
        mask = action - k.reveal_base(cells)
        if mask == 0:
            return "none"
        points = self.line_points(axis, line)
        return "reveal " + " ".join(self._names[p] for j, p in enumerate(points) if mask >> j & 1)

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = " ".join(text.strip().lower().split())
        cells = self.cells
        phase = int(data[k.F_PHASE])
        if phase == k.PH_SETUP:
            cell = self.cell_index(word)
            if cell is None:
                raise InvalidMove(self._not_a_point(text, "the game starts with A placing an x on a point"))
            return (k.setup_base(cells) + cell,)
        if phase == k.PH_CHOOSE:
            if word in COLOURS:
                return (k.choose_x(cells) if word == "x" else k.choose_o(cells),)
            raise InvalidMove(f"{text!r}: B chooses a side: x (take the x stone; o moves first) or o (move first)")
        if phase == k.PH_COMMIT:
            return (self._parse_commit(text, word),)
        return (k.reveal_base(cells) + self._parse_reveal(data, text, word),)

    def _not_a_point(self, text: str, what: str) -> str:
        last = self._names[-1]
        if _POINT.fullmatch(" ".join(text.lower().split())):
            return f"{text!r}: no such point on this board (rows a to {last[0]}, no i; columns 1 to {self.size})"
        return f"{text!r}: {what}; points are a row letter and a column number, such as e5"

    def _parse_commit(self, text: str, word: str) -> int:
        if word == "pass":
            return k.pass_action(self.cells)
        match = _COMMIT.fullmatch(word)
        if match:
            cell = self.cell_index(match.group(1))
            if cell is None:
                raise InvalidMove(self._not_a_point(match.group(1), "no such point"))
            return 2 * cell + (0 if match.group(2).startswith("r") else 1)
        if self.cell_index(word) is not None:
            raise InvalidMove(f"{text!r}: announce its row or its column too: {word}/row or {word}/col")
        raise InvalidMove(
            f"{text!r} is not a move; on your turn commit a target and announce its row or column "
            f"(e5/row or e5/col), or pass when no target is legal"
        )

    def _parse_reveal(self, data: np.ndarray, text: str, word: str) -> int:
        axis, line = int(data[k.F_AXIS]), int(data[k.F_LINE])
        announced = self.line_name(axis, line)
        tokens = [t for t in re.split(r"[\s,+]+", word) if t]
        if tokens[:1] == ["reveal"]:
            tokens = tokens[1:]
        if tokens in ([], ["none"], ["-"]):
            return 0
        points = self.line_points(axis, line)
        mask = 0
        for token in tokens:
            cell = self.cell_index(token)
            if cell is None:
                raise InvalidMove(
                    f"{text!r}: {announced} was announced; answer none, or reveal and the points of your "
                    f"hidden stones on {announced} (for example reveal {self._names[points[0]]})"
                )
            if cell not in points:
                raise IllegalMove(f"{text}: {token} is not on {announced}, the announced line")
            mask |= 1 << points.index(cell)
        return mask

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        cells = self.cells
        colour = int(data[k.F_COLOUR])
        if action == k.pass_action(cells):
            return "passing is allowed only when no target is legal"
        if action < 2 * cells:
            cell = action >> 1
            name = self._names[cell]
            if any(data[k.STONES + c * cells + cell] == k.REVEALED for c in (0, 1)):
                return f"{name} is closed: a revealed stone stands there"
            return f"{name} already holds your stone (option allow_own_stack=false)"
        mask = action - k.reveal_base(cells)
        points = self.line_points(int(data[k.F_AXIS]), int(data[k.F_LINE]))
        theirs = k.STONES + (1 - colour) * cells
        missing = [self._names[p] for j, p in enumerate(points) if mask >> j & 1 and data[theirs + p] != k.HIDDEN]
        return f"you have no hidden stone on {', '.join(missing)}"

    # -- what each seat may know ----------------------------------------------------------------

    def _is_mover(self, data: np.ndarray, seat: int | None) -> bool:
        return seat is not None and data[k.F_X_SEAT] >= 0 and seat == k.seat_of(data, data[k.F_COLOUR])

    def observe(self, data: np.ndarray, seat: int | None) -> np.ndarray:
        """A copy of ``data`` without what ``seat`` may not know: other hidden stones, the target."""
        own = None if seat is None else self.colour_of(data, seat)
        return k.observed(data, self.spec, -1 if own is None else own, self._is_mover(data, seat))

    def revealed_at_end(self, result: Sequence[float]) -> frozenset[int]:
        """H6 (added): ``reveal_at_end=winner`` reveals the winner's hidden stones (a draw reveals nothing),
        ``all`` everybody's; however the game ended (by lines, passes, a resignation, time, agreement)."""
        seats = range(self.num_seats)
        if self.options["reveal_at_end"] == "all":
            return frozenset(seats)
        best = max(result)
        if all(score == best for score in result):
            return frozenset()
        return frozenset(seat for seat in seats if result[seat] == best)

    def public_move(self, data: np.ndarray, path: tuple[int, ...], seat: int | None) -> Move:
        text = self.action_text(data, path)
        phase = int(data[k.F_PHASE])
        if phase == k.PH_COMMIT and path[0] != k.pass_action(self.cells):
            if self._is_mover(data, seat):
                return Move(text, path)
            axis, cell = path[0] & 1, path[0] >> 1
            return Move(self.line_name(axis, cell // self.size if axis == 0 else cell % self.size), ())
        if phase != k.PH_RESPOND:
            return Move(text, path)
        return Move(f"{text}: {self.outcome(data, path[0])}", path)

    def move_words(self, data: np.ndarray, label: str, text: str) -> str:
        """A move in words: ``A placed the x stone on c3``, ``o announced row a``, ``x revealed nothing:
        the stone is placed hidden`` (the public text of an answer is ``none: placed hidden``)."""
        phase = int(data[k.F_PHASE])
        if phase == k.PH_SETUP:
            return f"{label} placed the x stone on {text}"
        if phase == k.PH_CHOOSE:
            return f"{label} chose to play {text}"
        if phase == k.PH_COMMIT:
            if text == "pass":
                return f"{label} passed"
            if "/" in text:  # the mover's own view: the target too
                point, axis = text.split("/", 1)
                return f"{label} aimed at {point} and announced its {'row' if axis.startswith('r') else 'column'}"
            return f"{label} announced {text}"
        answer, _, result = text.partition(": ")
        revealed = "nothing" if answer == "none" else answer.removeprefix("reveal ")
        first, _, rest = result.partition("; ")
        if first == "placed hidden":
            said = "the stone is placed hidden"
        elif first.endswith(" placed"):
            said = f"the stone stands on {first.removesuffix(' placed')}, revealed"
        elif first.endswith(" failed"):
            said = f"the move on {first.removesuffix(' failed')} failed"
        else:
            said = first
        return f"{label} revealed {revealed}: {said}" + (f"; {rest}" if rest else "")

    def outcome(self, data: np.ndarray, action: int) -> str:
        """What everybody learns when the responder plays ``action``: the resolution, in words."""
        after = data.copy()
        k.apply(after, self.spec, action)
        target = self._names[int(data[k.F_TARGET])]
        result = {k.OUT_HIDDEN: "placed hidden", k.OUT_PLACED: f"{target} placed",
                  k.OUT_FAILED: f"{target} failed"}[int(after[k.F_LAST_OUTCOME])]
        fives = int(after[k.F_LAST_FIVES])
        if fives:
            result += "; five" if fives == 1 else f"; {fives} fives"
        partners = []
        if self.options["reveal_stack_partner"]:
            cells, mover = self.cells, int(data[k.F_COLOUR])
            mask = action - k.reveal_base(cells)
            points = self.line_points(int(data[k.F_AXIS]), int(data[k.F_LINE]))
            for j, point in enumerate(points):
                if mask >> j & 1 and data[k.STONES + mover * cells + point] == k.HIDDEN:
                    partners.append(f"{COLOURS[mover]} {self._names[point]}")
            cell = int(data[k.F_TARGET])
            if after[k.F_LAST_OUTCOME] == k.OUT_PLACED and data[k.STONES + (1 - mover) * cells + cell] == k.HIDDEN:
                partners.append(f"{COLOURS[1 - mover]} {self._names[cell]}")
        if partners:
            result += "; stack partners revealed: " + ", ".join(partners)
        return result

    def determinize(self, view: View, rng: random.Random) -> State:
        from boardlab.games.hmdg.determinize import determinize

        return determinize(self, view, rng)

    # -- position text --------------------------------------------------------------------------

    def _token(self, data: np.ndarray, cell: int) -> str:
        x = int(data[k.STONES + cell])
        o = int(data[k.STONES + self.cells + cell])
        xs, os_ = ("", "x", "X")[x], ("", "o", "O")[o]
        if x and o:
            return f"({xs}{os_})"
        return xs or os_ or "."

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        """Seats per point, hidden stones included (the referee's view: for measuring, never for a seat)."""
        cells = self.cells
        owners = np.full(cells, -1, np.int64)
        for colour in (0, 1):
            seat = next((s for s in (0, 1) if self.colour_of(data, s) == colour), colour)
            owners[data[k.STONES + colour * cells:k.STONES + (colour + 1) * cells] != k.EMPTY] = seat
        return owners

    def position_text(self, data: np.ndarray) -> str:
        size = self.size
        rows = [kit.write_row(self._token(data, row * size + col) for col in range(size)) for row in range(size)]
        phase = int(data[k.F_PHASE])
        turn = ("setup", "choose")[phase] if phase < k.PH_COMMIT else COLOURS[int(data[k.F_COLOUR])]
        fields = ["/".join(rows), turn, str(int(data[kernel.PLY]))]
        if data[k.F_X_SEAT] >= 0:
            fields.append(f"x={int(data[k.F_X_SEAT])}")
        if phase == k.PH_RESPOND and data[kernel.TO_MOVE] >= 0:
            axis, line = int(data[k.F_AXIS]), int(data[k.F_LINE])
            fields.append(f"announced={_AXES[axis]}:{self.line_name(axis, line).split()[1]}")
            if data[k.F_TARGET] >= 0:
                fields.append(f"target={self._names[int(data[k.F_TARGET])]}")
        counted = [int(data[k.F_HIDDEN + c]) for c in (0, 1)]
        if counted != self._hidden_points(data):
            fields.append(f"hidden={counted[0]},{counted[1]}")
        fives = "".join(COLOURS[c] for c in (0, 1) if data[k.F_FIVE_FLAG + c])
        if fives:
            fields.append(f"fives={fives}")
        if data[k.F_PASSES]:
            fields.append("passed")
        return " ".join(fields + _END_TOKENS.ended(data))

    def _hidden_points(self, data: np.ndarray) -> list[int]:
        cells = self.cells
        return [int(np.count_nonzero(data[k.STONES + c * cells: k.STONES + (c + 1) * cells] == k.HIDDEN))
                for c in (0, 1)]

    def parse_position(self, text: str) -> np.ndarray:
        form = ("'<rows separated by /> <setup|choose|x|o> <ply> [x=SEAT] [announced=row:e target=e5] "
                "[hidden=NX,NO] [fives=xo] [passed] [end:lines|end:passes|end:no-target]'")
        board_text, turn, ply_text, *flags = kit.position_fields(text, form, 3)
        data = self._blank()
        self._parse_board(data, text, board_text)
        data[kernel.PLY] = kit.count_field(text, ply_text)
        if turn not in ("setup", "choose", "x", "o"):
            raise PositionError(f"{text!r}: the turn is {turn!r}; expected setup, choose, x or o")
        end = self._parse_flags(data, text, flags, form)
        self._set_turn(data, text, turn, end)
        self._check_counts(data, text)
        k.rebuild(data, self.spec)
        self._check_lines(data, text, end)
        return data

    def _check_counts(self, data: np.ndarray, text: str) -> None:
        """What the ply implies: every ply places at most one stone, hidden or not (the fixed setup's
        first stone comes before ply 0), so no more hidden stones than plies, no more stones than ply + 1."""
        ply, cells = int(data[kernel.PLY]), self.cells
        hidden = int(data[k.F_HIDDEN]) + int(data[k.F_HIDDEN + 1])
        stones = int(np.count_nonzero(data[k.STONES: k.STONES + 2 * cells]))
        if hidden > ply or stones > ply + 1:
            raise PositionError(f"{text!r}: {stones} stones, {hidden} of them hidden, cannot stand on the board "
                                f"by ply {ply}: each ply places at most one")

    def _parse_board(self, data: np.ndarray, text: str, board_text: str) -> None:
        size, cells = self.size, self.cells
        rows = board_text.split("/")
        if len(rows) != size:
            raise PositionError(f"{text!r}: the board has {size} rows, not {len(rows)}")
        values = {"x": (1, 0), "X": (2, 0), "o": (0, 1), "O": (0, 2)}
        for row, row_text in enumerate(rows):
            col = 0
            what = f"{text!r}: row {ROW_LETTERS[row]}'s run of empty points"
            for token in kit.read_row(row_text, cells, what, _TOKEN):
                if isinstance(token, int):
                    col += token
                    continue
                if len(token) == 4:  # a stack, (xo)
                    x, o = (1 if token[1] == "x" else 2), (1 if token[2] == "o" else 2)
                elif token in values:
                    x, o = values[token]
                else:
                    raise PositionError(
                        f"{text!r}: row {ROW_LETTERS[row]} has {token!r}; rows use x, o, X, O, (xo)-style stacks "
                        f"and digits"
                    )
                if col < size:
                    data[k.STONES + row * size + col] = x
                    data[k.STONES + cells + row * size + col] = o
                col += 1
            if col != size:
                raise PositionError(f"{text!r}: row {ROW_LETTERS[row]} has {col} points, not {size}")
        hidden = self._hidden_points(data)
        data[k.F_HIDDEN], data[k.F_HIDDEN + 1] = hidden

    def _parse_flags(self, data: np.ndarray, text: str, flags: list[str], form: str) -> int | None:
        end, flags = _END_TOKENS.split(flags)
        for flag in flags:
            name, _, value = flag.partition("=")
            if name == "x" and value in ("0", "1"):
                data[k.F_X_SEAT] = int(value)
            elif name == "announced" and re.fullmatch(r"(row|col):\w+", value):
                axis_text, line_text = value.split(":")
                axis = _AXES.index(axis_text)
                number = int(line_text) - 1 if line_text.isdecimal() and len(line_text) <= 2 else -1
                line = ROW_LETTERS.find(line_text) if axis == 0 else number
                if not 0 <= line < self.size:
                    raise PositionError(f"{text!r}: {flag}: no such line on this board")
                data[k.F_AXIS], data[k.F_LINE] = axis, line
            elif name == "target" and self.cell_index(value) is not None:
                data[k.F_TARGET] = self.cell_index(value)
            elif name == "hidden" and re.fullmatch(r"\d+,\d+", value):
                counts = [whole_number(v, self.cells, f"{text!r}: {name}") for v in value.split(",")]
                shown = self._hidden_points(data)
                if any(c < s or (c != s and not self.options["allow_own_stack"]) for c, s in zip(counts, shown,
                                                                                                 strict=True)):
                    raise PositionError(
                        f"{text!r}: {flag}, but the board shows {shown[0]},{shown[1]} hidden stones (only a stone "
                        f"stacked on its owner's own, with allow_own_stack=true, makes more)"
                    )
                data[k.F_HIDDEN], data[k.F_HIDDEN + 1] = counts
            elif name == "fives" and value in ("x", "o", "xo"):
                for c in value:
                    data[k.F_FIVE_FLAG + COLOURS.index(c)] = 1
            elif flag == "passed":
                data[k.F_PASSES] = 1
            else:
                raise PositionError(f"{text!r}: unexpected {flag!r}; expected {form}")
        return end

    def _set_turn(self, data: np.ndarray, text: str, turn: str, end: int | None) -> None:
        cells = self.cells
        stones = int(np.count_nonzero(data[k.STONES: k.STONES + 2 * cells]))
        if turn in ("setup", "choose"):
            first = turn == "setup"
            expected = "an empty board" if first else "exactly one stone, a revealed x"
            only_x = stones == 1 and int(np.count_nonzero(data[k.STONES: k.STONES + cells] == k.REVEALED)) == 1
            if self.options["setup"] != "pie" or end is not None or data[k.F_X_SEAT] >= 0 or (
                    stones != 0 if first else not only_x):
                raise PositionError(f"{text!r}: '{turn}' comes only at the start of a pie setup, with {expected}")
            data[k.F_PHASE] = k.PH_SETUP if first else k.PH_CHOOSE
            data[kernel.TO_MOVE] = 0 if first else 1
            return
        if data[k.F_X_SEAT] < 0:
            raise PositionError(f"{text!r}: after the setup the text says who plays x (x=0 or x=1)")
        if self.options["setup"] == "fixed" and data[k.F_X_SEAT] != 1:
            raise PositionError(f"{text!r}: with setup=fixed seat 1 plays x (x=1)")
        colour = COLOURS.index(turn)
        data[k.F_COLOUR] = colour
        data[k.F_PHASE] = k.PH_COMMIT
        if data[k.F_AXIS] >= 0:
            self._set_commit(data, text, colour)
        elif data[k.F_TARGET] >= 0:
            raise PositionError(f"{text!r}: a target comes only with the announced line (announced=row:e)")
        if end is None:
            data[kernel.TO_MOVE] = k.seat_of(data, 1 - colour if data[k.F_PHASE] == k.PH_RESPOND else colour)
            data[kernel.MID_TURN] = int(data[k.F_PHASE] == k.PH_RESPOND)
            return
        if data[k.F_PHASE] == k.PH_RESPOND:
            raise PositionError(f"{text!r}: a finished game has no announced line")
        winner = colour if end == k.REASON_LINES else -1
        reveal = k.END_REVEAL_ALL if self.options["reveal_at_end"] == "all" else k.END_REVEAL_WINNER
        for c in (0, 1):
            if (reveal == k.END_REVEAL_ALL or c == winner) and self._hidden_points(data)[c]:
                raise PositionError(f"{text!r}: the game is over, so {COLOURS[c]}'s stones are all revealed")
        data[kernel.TO_MOVE] = -1
        data[kernel.END_REASON] = end
        for seat in (0, 1):
            data[kernel.SCORE + seat] = 1 if winner < 0 else (2 if seat == k.seat_of(data, winner) else 0)

    def _set_commit(self, data: np.ndarray, text: str, colour: int) -> None:
        target = int(data[k.F_TARGET])
        if target < 0:
            raise PositionError(f"{text!r}: an announced line needs the mover's target (target=e5)")
        name = self._names[target]
        if target not in self.line_points(int(data[k.F_AXIS]), int(data[k.F_LINE])):
            raise PositionError(f"{text!r}: the target {name} is not on the announced line")
        cells = self.cells
        own = int(data[k.STONES + colour * cells + target])
        if data[k.STONES + (1 - colour) * cells + target] == k.REVEALED or own == k.REVEALED:
            raise PositionError(f"{text!r}: the target {name} is closed")
        if own == k.HIDDEN and not self.options["allow_own_stack"]:
            raise PositionError(f"{text!r}: the target {name} already holds the mover's stone")
        data[k.F_PHASE] = k.PH_RESPOND

    def _check_lines(self, data: np.ndarray, text: str, end: int | None) -> None:
        if data[k.F_PHASE] < k.PH_COMMIT:
            return
        mover = int(data[k.F_COLOUR])
        for colour in (0, 1):
            wins = bool(k.has_winning_lines(data, self.spec, colour))
            should = end == k.REASON_LINES and colour == mover
            if wins != should:
                state = "has winning lines, so the game is over" if wins else "has no winning lines"
                raise PositionError(f"{text!r}: {COLOURS[colour]} {state}" + (
                    " (end:lines names the colour that moved last)" if end == k.REASON_LINES else ""))

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """The board as ``view``'s seat sees it, rows A… from the top, then who holds what."""
        data, size, cells = view.data, self.size, self.cells
        target = int(data[k.F_TARGET])
        lines = ["    " + "".join(f"{col + 1:>3}" for col in range(size))]
        for row in range(size):
            tokens = []
            for col in range(size):
                cell = row * size + col
                token = self._token(data, cell).strip("()")
                tokens.append(f"{'*' if cell == target else token:>3}")
            lines.append(f" {ROW_LETTERS[row].upper():>2} " + "".join(tokens))
        lines.append("")
        lines.append("x o: hidden stones   X O: revealed (the point is closed)" + (
            "   *: your target" if target >= 0 else ""))
        if data[k.F_X_SEAT] >= 0:
            counts = []
            for colour in (0, 1):
                seat = int(k.seat_of(data, colour))
                shown = int(np.count_nonzero(data[k.STONES + colour * cells: k.STONES + (colour + 1) * cells]
                                             == k.REVEALED))
                five = ", announced a five" if data[k.F_FIVE_FLAG + colour] else ""
                counts.append(f"{COLOURS[colour]} (seat {seat}): {int(data[k.F_HIDDEN + colour])} hidden, "
                              f"{shown} revealed{five}")
            both = "; ".join(counts)
            lines.extend([both] if len(both) <= 80 else counts)  # 80 columns: a line each if need be
        lines.append(textwrap.fill(self._situation(view), width=80))
        return "\n".join(lines)

    def _situation(self, view: View) -> str:
        data = view.data
        phase = int(data[k.F_PHASE])
        if data[kernel.TO_MOVE] < 0:
            return "The game is over."
        if phase == k.PH_SETUP:
            return "A (seat 0) places the first x on any point; then B chooses a side."
        if phase == k.PH_CHOOSE:
            return "B (seat 1) chooses a side: x (keep the stone; o moves first) or o (move first)."
        mover = COLOURS[int(data[k.F_COLOUR])]
        if phase == k.PH_COMMIT:
            return f"{mover} commits a target and announces its row or column (e5/row, e5/col)."
        line = self.line_name(int(data[k.F_AXIS]), int(data[k.F_LINE]))
        responder = COLOURS[1 - int(data[k.F_COLOUR])]
        return (f"{mover} announced {line}: {responder} may reveal hidden stones on {line} "
                f"(none, or reveal and the points).")

    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_contents(self, view: View) -> list[CellContent]:
        """Each point with the stones ``view``'s seat may see: colour 0 x, 1 o, kind ``hidden`` or
        ``revealed`` (seat ``None`` before B has chosen a side); marks ``closed`` (a revealed stone
        stands there) and ``target`` (the mover's own secret target while the responder decides)."""
        data, cells = view.data, self.cells
        chosen = data[k.F_X_SEAT] >= 0
        target = int(data[k.F_TARGET])
        contents = []
        for cell, name in enumerate(self._names):
            pieces = []
            for colour in (k.COLOUR_X, k.COLOUR_O):
                value = int(data[k.STONES + colour * cells + cell])
                if value:
                    seat = int(k.seat_of(data, colour)) if chosen else None
                    pieces.append(Piece(colour, seat, "revealed" if value == k.REVEALED else "hidden"))
            marks = {"closed"} if any(p.kind == "revealed" for p in pieces) else set()
            if cell == target:
                marks.add("target")
            contents.append(CellContent(name, tuple(pieces), frozenset(marks)))
        return contents

    def announced_line(self, view: View) -> tuple[str, tuple[str, ...]] | None:
        """While the responder decides: the announced line's name (``row e``) and its points; else ``None``."""
        data = view.data
        if data[k.F_PHASE] != k.PH_RESPOND or data[kernel.TO_MOVE] < 0:
            return None
        axis, line = int(data[k.F_AXIS]), int(data[k.F_LINE])
        return self.line_name(axis, line), tuple(self._names[p] for p in self.line_points(axis, line))

    def status_lines(self, view: View) -> list[str]:
        """What the referee has made public: each colour's hidden and revealed stones and fives, and
        what happens next (the last lines of the text board)."""
        data, cells = view.data, self.cells
        lines = []
        if data[k.F_X_SEAT] >= 0:
            for colour in (0, 1):
                stones = data[k.STONES + colour * cells: k.STONES + (colour + 1) * cells]
                shown = int(np.count_nonzero(stones == k.REVEALED))
                five = ", announced a five" if data[k.F_FIVE_FLAG + colour] else ""
                lines.append(f"{COLOURS[colour]} (seat {int(k.seat_of(data, colour))}): "
                             f"{int(data[k.F_HIDDEN + colour])} hidden, {shown} revealed{five}")
        return [*lines, self._situation(view)]

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """Setup: the point. Side: ``x`` or ``o``. Commit: the target point, then ``row`` or ``col``;
        ``pass``. Response: the points of the stones to reveal, in line order, then ``reveal``; or ``none``."""
        if len(path) != 1:
            return ()
        action, cells, phase = path[0], self.cells, int(data[k.F_PHASE])
        if phase == k.PH_SETUP:
            point = action - k.setup_base(cells)
            return (self._names[point],) if 0 <= point < cells else ()
        if phase == k.PH_CHOOSE:
            return {k.choose_x(cells): ("x",), k.choose_o(cells): ("o",)}.get(action, ())
        if phase == k.PH_COMMIT:
            if action == k.pass_action(cells):
                return ("pass",)
            return (self._names[action >> 1], _AXES[action & 1]) if 0 <= action < 2 * cells else ()
        mask = action - k.reveal_base(cells)
        if not 0 <= mask < 2 ** self.size:
            return ()
        if mask == 0:
            return ("none",)
        points = self.line_points(int(data[k.F_AXIS]), int(data[k.F_LINE]))
        return (*(self._names[p] for j, p in enumerate(points) if mask >> j & 1), "reveal")

    def click_text(self, data: np.ndarray, steps: tuple[str, ...]) -> str:
        """``e5 row`` as ``e5/row``, ``e3 e7 reveal`` as ``reveal e3 e7``."""
        if len(steps) == 2 and steps[1] in _AXES:
            return f"{steps[0]}/{steps[1]}"
        if steps and steps[-1] == "reveal":
            return "reveal " + " ".join(steps[:-1])
        return super().click_text(data, steps)
