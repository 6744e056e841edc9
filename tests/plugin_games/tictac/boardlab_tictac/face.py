"""Tic-tac-toe's Python face: notation, position text and the text board.

>>> import boardlab
>>> state = boardlab.load("tictac").new_game().play("b2").play("a3")
>>> print(state)
3  o . .
2  . x .
1  . . .
   a b c
x to move · a line of 3 wins
>>> state.to_text()
'o2/1x1/3 x'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.options import OptionValue
from boardlab.core.view import View
from boardlab.errors import InvalidMove, OptionError, PositionError
from boardlab_tictac import INFO
from boardlab_tictac import kernel as k

STONES = "xo"
_CELL = re.compile(r"([a-z])(\d{1,2})")


class Tictac(Game):
    """Tic-tac-toe with its options fixed."""

    info = INFO
    turns_of_several_actions = False
    plane_kinds = ("stone",)
    legal_kernel = staticmethod(k.legal)
    apply_kernel = staticmethod(k.apply)
    turns_kernel = staticmethod(k.turns)

    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        if int(resolved["length"]) > int(resolved["size"]):
            raise OptionError(f"tictac: option length={resolved['length']} is longer than the board's side "
                              f"size={resolved['size']}; accepted: a length from 3 to the size")

    @property
    def size(self) -> int:
        return int(self.options["size"])

    @property
    def num_distinct_actions(self) -> int:
        """An action is a cell."""
        return self.size * self.size

    @property
    def max_decisions(self) -> int:
        """One stone a turn, and the board fills."""
        return self.size * self.size

    def seat_name(self, seat: int) -> str:
        return STONES[seat]

    def build_spec(self) -> np.ndarray:
        size, length = self.size, int(self.options["length"])
        lines = []
        for row in range(size):
            for col in range(size):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = row + dr * (length - 1), col + dc * (length - 1)
                    if 0 <= end_r < size and 0 <= end_c < size:
                        lines.append([(row + dr * i) * size + col + dc * i for i in range(length)])
        spec = np.zeros(k.SPEC_LINES + len(lines) * length, dtype=np.int64)
        spec[[k.S_SIZE, k.S_CELLS, k.S_LENGTH, k.S_MISERE, k.S_LINES]] = (
            size, size * size, length, int(bool(self.options["misere"])), len(lines))
        spec[k.SPEC_LINES:] = np.array(lines, dtype=np.int64).ravel()
        for field, start in k.LAYOUT.place({"BOARD": size * size}).items():
            spec[field] = start
        self._names = tuple(f"{chr(ord('a') + col)}{size - row}" for row in range(size) for col in range(size))
        self._cells = {name: cell for cell, name in enumerate(self._names)}
        return spec

    def cell_names(self) -> tuple[str, ...]:
        return self._names

    def cell_index(self, name: str) -> int | None:
        return self._cells.get(name.strip().lower())

    def initial_data(self) -> np.ndarray:
        return np.zeros(int(self.spec[k.S_STATE_LEN]), dtype=np.int64)

    # -- moves ----------------------------------------------------------------------------------

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        return self._names[path[0]]

    def key_text(self, key: int) -> str:
        return self._names[key]

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip().lower()
        cell = self.cell_index(word) if _CELL.fullmatch(word) else None
        if cell is None:
            raise InvalidMove(f"{text!r} is not a cell of this board; a move names the cell a stone goes on, "
                              f"from a1 to {self._names[self.size - 1]}")
        return (cell,)

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        return f"{self._names[path[0]]} is occupied"

    # -- positions ------------------------------------------------------------------------------

    def position_text(self, data: np.ndarray) -> str:
        rows = []
        for row in range(self.size):
            text, empty = "", 0
            for cell in range(row * self.size, (row + 1) * self.size):
                stone = int(data[k.BOARD + cell])
                if stone == 0:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + STONES[stone - 1]
                empty = 0
            rows.append(text + (str(empty) if empty else ""))
        seat = kernel.seat_to_move(data)
        return "/".join(rows) + " " + ("over" if seat is None else STONES[seat])

    def parse_position(self, text: str) -> np.ndarray:
        fields = text.split()
        expected = "the rows from the top as x, o and counts of empty cells, /-separated, then x, o or over, " \
                   "such as 'o2/1x1/3 x'"
        if len(fields) != 2 or len(fields[0].split("/")) != self.size:
            raise PositionError(f"{text!r} is no position of a {self.size}×{self.size} board; expected {expected}")
        data = self.initial_data()
        for row, written in enumerate(fields[0].split("/")):
            cells: list[int] = []
            for char in written:
                if char in STONES:
                    cells.append(STONES.index(char) + 1)
                elif char in "12345" and len(cells) < self.size:
                    cells += [0] * int(char)
                else:
                    raise PositionError(f"{text!r}: row {row + 1} has {char!r}; expected {expected}")
            if len(cells) != self.size:
                raise PositionError(f"{text!r}: row {row + 1} has {len(cells)} cells, not {self.size}")
            data[k.BOARD + row * self.size: k.BOARD + (row + 1) * self.size] = cells
        board = data[k.BOARD:]
        xs, os_ = int((board == 1).sum()), int((board == 2).sum())
        if xs - os_ not in (0, 1):
            raise PositionError(f"{text!r}: {xs} x and {os_} o cannot happen (x moves first, then each in turn)")
        data[k.F_FILLED] = data[kernel.PLY] = xs + os_
        last = 0 if xs > os_ else 1
        if k.has_line(data, self.spec, 2 - last):
            raise PositionError(f"{text!r}: {STONES[1 - last]} has a line, yet {STONES[last]} moved after it")
        data[kernel.TO_MOVE] = 1 - last
        if xs + os_ and k.has_line(data, self.spec, last + 1):
            winner = 1 - last if self.options["misere"] else last
            kernel.finish_two_seats(data, winner, kernel.REASON_WIN)
        elif xs + os_ == self.size * self.size:
            kernel.finish_two_seats(data, -1, k.REASON_FULL)
        seat = kernel.seat_to_move(data)
        if fields[1] != ("over" if seat is None else STONES[seat]):
            raise PositionError(f"{text!r}: this board has {'the game over' if seat is None else STONES[seat]} "
                                f"to move, not {fields[1]!r}")
        return data

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        data, size = view.data, self.size
        lines = []
        for row in range(size):
            stones = [".xo"[int(data[k.BOARD + row * size + col])] for col in range(size)]
            lines.append(f"{size - row}  " + " ".join(stones))
        lines.append("   " + " ".join(chr(ord("a") + col) for col in range(size)))
        seat = kernel.seat_to_move(data)
        rule = f"a line of {self.options['length']} {'loses' if self.options['misere'] else 'wins'}"
        lines.append(f"{'game over' if seat is None else STONES[seat] + ' to move'} · {rule}")
        return "\n".join(lines)

    def cell_contents(self, view: View) -> list[CellContent]:
        board = view.data[k.BOARD:]
        return [CellContent(name, () if not board[cell] else
                            (Piece(int(board[cell]) - 1, int(board[cell]) - 1, "stone"),))
                for cell, name in enumerate(self._names)]

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        return data[k.BOARD:].astype(np.int64) - 1
