"""Ndengrod's Python face: options, pbmserv notation, position text and the text board.

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=3, length=3)
>>> print(game.new_game().play("b2").play("c3"))
       1 2 3
      / / / 4
  a- . . . / 5
 b- . x . . /
c- . . o . .
 d- . . . .
  e- . . .

Position text: the rows from the top, ``/``-separated, each as ``x``, ``o`` and counts of empty
cells (as in FEN); the colour to move; the ply; then any of ``swapped``, ``passed`` (the last move
was a pass) and ``end:<reason>``:

>>> game.new_game().play("b2").to_text()
'3/1x2/5/4/3 o 1'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.options import OptionValue
from boardlab.core.topology import Topology, hex_layout, hex_trapezoid, hexhex
from boardlab.core.view import View
from boardlab.errors import InvalidMove, OptionError, PositionError
from boardlab.games.ndengrod import INFO
from boardlab.games.ndengrod import kernel as k

COLOURS = "xo"
_CODES = kit.ChoiceCodes(INFO, k, repetition="REPETITION_", win_check="WIN_")
_END_TOKENS = kit.EndTokens(INFO)
_CELL = re.compile(r"([a-z])(\d{1,2})")

# A position's text: stone codes (0 empty, 1 and 2 the colours) as letters, and a run of empty cells.
_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".xo")
_STONE_LETTERS = np.frombuffer(b".xo", dtype=np.uint8)  # the same, indexed by stone code (drawing)
_EMPTY_RUN = re.compile(r"\.+")


def _run_length(run: re.Match[str]) -> str:
    return str(len(run.group()))


@functools.lru_cache(maxsize=1 << 12)
def _row_text(letters: str) -> str:
    """A row's letters with its runs of empty cells counted. Kept: the same rows come back from position
    to position (a move changes one or two of them), and a server writes a position's text for every answer."""
    return _EMPTY_RUN.sub(_run_length, letters)


class Ndengrod(kit.NamedCells, kit.TextOfAction, kit.PlyCapped, Game, kernels=k):
    """Ndengrod with its options fixed."""

    info = INFO
    plane_kinds = ("stone",)

    @property
    def num_distinct_actions(self) -> int:
        """A cell places there; ``cells`` passes; ``cells + 1`` swaps."""
        return len(self.cell_names()) + 2

    # max_decisions: one decision a ply; the ply cap (N6) ends the game (kit.PlyCapped).


    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        if resolved["board"] == "trapezoid" and "size" not in given:
            resolved["size"] = 7
        size = int(resolved["size"])
        longest = 2 * size - 1
        if int(resolved["length"]) > longest:
            raise OptionError(
                f"ndengrod: option length={resolved['length']} cannot be made on a board whose longest "
                f"line has {longest} cells; accepted: an integer from 2 to {longest}"
            )

    # -- board and tables -----------------------------------------------------------------------

    @property
    def topology(self) -> Topology:
        size = int(self.options["size"])
        return hexhex(size) if self.options["board"] == "hexhex" else hex_trapezoid(size)

    def build_spec(self) -> np.ndarray:
        topology = self.topology
        self._topology = topology
        cells = topology.size
        spec = kit.SpecBuilder(k.SPEC_HEADER)
        spec[k.S_CELLS] = cells
        spec[k.S_LENGTH] = self.options["length"]
        spec[k.S_SELF_CAPTURE] = self.options["self_capture"]
        spec[k.S_SWAP] = self.options["swap"]
        spec[k.S_REPETITION] = _CODES(self.options, "repetition")
        spec[k.S_PLY_CAP] = self.options["ply_cap"]
        spec[k.S_WIN_CHECK] = _CODES(self.options, "win_check")
        spec.table(topology.neighbours, at=k.S_NEIGH)
        spec.table(kit.zobrist_keys(0x6E646E67, 2 * cells + 1), at=k.S_ZOBRIST)
        spec.fields(k.layout(cells, int(self.options["ply_cap"])))
        # pbmserv names: the row letter, then the number of the / diagonal (``0`` is ``a1``).
        self.naming = kit.CellNaming.rows_and_numbers(topology)
        self._names = self.naming.names
        return spec.build()

    @property
    def cells(self) -> int:
        return len(self._names)

    def seat_name(self, seat: int) -> str:
        return COLOURS[seat]

    def seat_label(self, data: np.ndarray, seat: int) -> str:
        return COLOURS[seat ^ int(data[k.F_SWAPPED])]

    # -- states ---------------------------------------------------------------------------------

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        k.rebuild(data, self.spec)
        return data

    # -- moves ----------------------------------------------------------------------------------

    def key_text(self, key: int) -> str:
        """An action's text never depends on the position: its key is the action."""
        action = key
        if action == self.cells:
            return "pass"
        if action == self.cells + 1:
            return "swap"
        return self._names[action]

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip().lower()
        if word == "pass":
            return (self.cells,)
        if word == "swap":
            return (self.cells + 1,)
        cell = self.cell_index(word)
        if cell is None:
            first, last = self._names[0], self._names[-1]
            if _CELL.fullmatch(word):
                raise InvalidMove(f"{text!r}: no such cell on this board (cells run from {first} to {last})")
            raise InvalidMove(
                f"{text!r} is not a move; moves are a cell such as {first} or d3 (row letter, then the "
                f"number of the / diagonal), 'pass' or 'swap'"
            )
        return (cell,)

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        cells = self.cells
        if action == cells:
            return "passing is allowed only when no placement is legal"
        if action == cells + 1:
            if not self.options["swap"]:
                return "swapping is not part of these rules (option swap=false)"
            return "only the second player may swap, instead of their first placement"
        if data[k.BOARD + action]:
            return f"{self._names[action]} is occupied"
        if not self.options["self_capture"]:
            return (
                f"a stone on {self._names[action]} would leave its group without freedom "
                f"(option self_capture=false forbids that)"
            )
        return f"placing on {self._names[action]} would repeat an earlier position (superko)"

    # -- position text --------------------------------------------------------------------------

    def _rows(self) -> list[list[int]]:
        """Each row's cells (consecutive numbers), worked out once per board: a server writes a position's
        text for every answer."""
        found: list[list[int]] | None = getattr(self, "_row_cells", None)
        if found is not None:
            return found
        rows: list[list[int]] = []
        for cell, (row, _) in enumerate(self._topology.coords):
            if row == len(rows):
                rows.append([])
            rows[row].append(cell)
        self._row_cells = rows
        return rows

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        colours = data[k.BOARD:k.BOARD + self.topology.size] & 3
        return np.where(colours > 0, (colours - 1) ^ int(data[k.F_SWAPPED]), -1)

    def position_text(self, data: np.ndarray) -> str:
        # The cells as letters in one string, each row a slice of it, its runs of empty cells counted (FEN).
        letters = data[k.BOARD:k.BOARD + self.cells].astype(np.uint8).tobytes().translate(_LETTERS).decode()
        parts = [_row_text(letters[row[0]:row[-1] + 1]) for row in self._rows()]
        fields = ["/".join(parts), COLOURS[int(data[k.F_COLOUR])], str(int(data[kernel.PLY]))]
        if data[k.F_SWAPPED]:
            fields.append("swapped")
        if data[k.F_PASSES]:
            fields.append("passed")
        return " ".join(fields + _END_TOKENS.ended(data))

    def parse_position(self, text: str) -> np.ndarray:
        form = "'<rows separated by /> <x|o to move> <ply> [swapped] [passed] [end:<reason>]'"
        board_text, colour_text, ply_text, *flags = kit.position_fields(text, form, 3)
        data = self._blank()
        rows = self._rows()
        row_texts = board_text.split("/")
        if len(row_texts) != len(rows):
            raise PositionError(f"{text!r}: the board has {len(rows)} rows, not {len(row_texts)}")
        for letter, (row, row_text) in zip("abcdefghijklmnopqrstuvwxyz", zip(rows, row_texts, strict=True),
                                           strict=False):
            cells: list[int] = []
            for token in kit.read_row(row_text, self.cells, f"{text!r}: row {letter}'s run of empty cells"):
                if isinstance(token, int):
                    cells.extend([0] * token)
                elif token in COLOURS:
                    cells.append(COLOURS.index(token) + 1)
                else:
                    raise PositionError(f"{text!r}: row {letter} has {token!r}; rows use x, o and digits")
            if len(cells) != len(row):
                raise PositionError(f"{text!r}: row {letter} has {len(cells)} cells, not {len(row)}")
            for cell, stone in zip(row, cells, strict=True):
                data[k.BOARD + cell] = stone
        if colour_text not in COLOURS:
            raise PositionError(f"{text!r}: the player to move is {colour_text!r}; expected x or o")
        ply = kit.count_field(text, ply_text)
        colour = COLOURS.index(colour_text)
        data[k.F_COLOUR] = colour
        data[kernel.PLY] = ply
        data[k.F_HIST_START] = ply
        end, flags = _END_TOKENS.split(flags)
        for flag in flags:
            if flag == "swapped" and self.options["swap"] and ply >= 2:
                data[k.F_SWAPPED] = 1
            elif flag == "passed" and not data[k.F_PASSES]:
                data[k.F_PASSES] = 1
            else:
                raise PositionError(
                    f"{text!r}: unexpected {flag!r}; after the ply come swapped (with swap=true, from ply 2),"
                    f" passed, end:line, end:repetition, end:ply-cap or end:passes"
                )
        if ply > int(self.options["ply_cap"]) or (ply == int(self.options["ply_cap"]) and end is None):
            raise PositionError(f"{text!r}: ply {ply} is past the ply cap {self.options['ply_cap']}")
        k.rebuild(data, self.spec)
        self._check_groups(data, text)
        data[int(self.spec[k.S_HIST]) + ply] = data[k.F_HASH]
        self._set_outcome(data, end, text)
        self._check_counts(data, text, ply, colour)
        return data

    def _check_counts(self, data: np.ndarray, text: str, ply: int, colour: int) -> None:
        """What the ply implies: x moves first and the colours alternate (the swap takes a ply but
        keeps the colour), and each colour has at most one stone per turn it had."""
        expected = (ply + int(data[k.F_SWAPPED])) % 2
        if colour != expected:
            raise PositionError(f"{text!r}: at ply {ply} {COLOURS[expected]} is to move, not {COLOURS[colour]}")
        board = data[k.BOARD:k.BOARD + self.cells] & 3
        for stone, turns in ((0, (ply + 1) // 2), (1, ply // 2)):
            count = int(np.count_nonzero(board == stone + 1))
            if count > turns:
                raise PositionError(f"{text!r}: {COLOURS[stone]} has {count} stones, but has had only {turns} "
                                    f"turns by ply {ply}")

    def _check_groups(self, data: np.ndarray, text: str) -> None:
        probe = data.copy()
        for cell in range(self.cells):
            if probe[k.BOARD + cell] and k._flood(probe, self.spec, cell, -1) > 0:
                raise PositionError(
                    f"{text!r}: the group at {self._names[cell]} has no freedom, which no move leaves"
                )

    def _set_outcome(self, data: np.ndarray, end: int | None, text: str) -> None:
        colour = int(data[k.F_COLOUR])
        lines = [c for c in (0, 1) if self._has_line(data, c)]
        if end is None:
            if lines:
                raise PositionError(f"{text!r}: {COLOURS[lines[0]]} has a line, so the game is over")
            data[kernel.TO_MOVE] = colour ^ int(data[k.F_SWAPPED])
            return
        mover = 1 - colour
        if end == k.REASON_LINE:
            if self.options["win_check"] == "after_captures" and lines != [mover]:
                raise PositionError(f"{text!r}: end:line, but {COLOURS[mover]} (who moved last) has no line")
            winner = mover ^ int(data[k.F_SWAPPED])
        else:
            if lines:
                raise PositionError(f"{text!r}: {COLOURS[lines[0]]} has a line, so the game was not drawn")
            winner = -1
        k.finish(data, winner, end)

    def _has_line(self, data: np.ndarray, colour: int) -> bool:
        return any(
            data[k.BOARD + cell] == colour + 1 and k.has_line(data, self.spec, cell)
            for cell in range(self.cells)
        )

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """The board in the seed's style: row letters at the left, diagonal numbers above and right."""
        blank, places = self._drawing_bytes()
        drawn = blank.copy()
        drawn[places] = _STONE_LETTERS[view.data[k.BOARD:k.BOARD + self.cells]]
        return drawn.tobytes().decode("ascii")

    def _drawing_bytes(self) -> tuple[np.ndarray, np.ndarray]:
        """The empty board's drawing as ASCII bytes, and each cell's place in them: made once per board, so
        that drawing a position (a server does for every answer) is a copy and one assignment."""
        found: tuple[np.ndarray, np.ndarray] | None = getattr(self, "_drawn_bytes", None)
        if found is not None:
            return found
        lines, places = self._drawing()
        starts = np.cumsum([0] + [len(line) + 1 for line in lines[:-1]])  # each line's start, after its "\n"
        blank = np.frombuffer("\n".join(lines).encode("ascii"), dtype=np.uint8).copy()
        self._drawn_bytes = (blank, np.array([starts[line] + column for line, column in places], dtype=np.intp))
        return self._drawn_bytes

    def _drawing(self) -> tuple[list[str], list[tuple[int, int]]]:
        """The empty board's lines and each cell's (line, column) in them: drawn once per board, since a
        server draws the board for every answer (a stone is never a space, so no line gets shorter)."""
        found: tuple[list[str], list[tuple[int, int]]] | None = getattr(self, "_drawn", None)
        if found is not None:
            return found
        topology = self._topology
        layout = hex_layout(topology)
        margin = 3
        top_lines = 2
        grid: dict[tuple[int, int], str] = {}
        places: list[tuple[int, int]] = []

        def put(line: int, column: int, text: str) -> None:
            for i, char in enumerate(text):
                grid[(line + top_lines, column + margin + i)] = char

        first_in_row: dict[int, int] = {}
        first_on_diag: dict[int, tuple[int, int]] = {}
        for (row, diag), (line, column) in zip(topology.coords, layout, strict=True):
            put(line, column, ".")
            places.append((line + top_lines, column + margin))
            first_in_row.setdefault(row, column)
            first_on_diag.setdefault(diag, (line, column))
        for row, column in first_in_row.items():
            put(row, column - 3, f"{chr(ord('a') + row)}-")
        for diag, (line, column) in first_on_diag.items():
            put(line - 1, column + 1, "/")
            put(line - 2, column + 2, str(diag + 1))
        lines = max(line for line, _ in grid) + 1
        text_lines = []
        for line in range(lines):
            columns = [c for (ln, c) in grid if ln == line]
            width = max(columns) + 1 if columns else 0
            text_lines.append("".join(grid.get((line, c), " ") for c in range(width)).rstrip())
        self._drawn = (text_lines, places)
        return self._drawn

    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_contents(self, view: View) -> list[CellContent]:
        """Each cell with its stone: colour 0 is x, 1 is o; the seat is the colour's player now (swap)."""
        data = view.data
        swapped = int(data[k.F_SWAPPED])
        stones = data[k.BOARD: k.BOARD + self.cells].tolist()
        return [CellContent(name, (Piece(stone - 1, (stone - 1) ^ swapped, "stone"),) if stone else ())
                for name, stone in zip(self._names, stones, strict=True)]

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """A placement is its cell; ``pass`` and ``swap`` are buttons."""
        if len(path) != 1 or not 0 <= path[0] <= self.cells + 1:
            return ()
        return (self.action_text(data, path),)
