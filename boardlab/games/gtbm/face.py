"""GTBM's Python face: options, algebraic notation, position text and the text board.

>>> import boardlab
>>> game = boardlab.load("gtbm", size=4)
>>> state = game.new_game().play("b1-c2").play("c4-b3")
>>> print(state)
4  W W . W
3  . W . .
2  . . B .
1  B . B B
   a b c d
B Black, moves up · W White, moves down · 2 plies without capture (limit 100)

Position text: the ranks from the top (rank N first), ``/``-separated, each as ``B``, ``W`` and counts
of empty squares (as in FEN); the side to move (``b`` or ``w``); the ply; the plies since the last
capture; and, once the game is over, ``end:<reason>``:

>>> state.to_text()
'WW1W/1W2/2B1/B1BB b 2 2'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.numbers import MAX_PLY, whole_number
from boardlab.core.options import OptionValue
from boardlab.core.view import View
from boardlab.errors import IllegalMove, InvalidMove, OptionError, PositionError
from boardlab.games.gtbm import INFO
from boardlab.games.gtbm import kernel as k

SIDES = ("Black", "White")
PIECES = "BW"
_CODES = kit.ChoiceCodes(INFO, k, capture_reach="REACH_", stuck_check="STUCK_", cap_adjudication="ADJUDICATE_")
_END_TOKENS = kit.EndTokens(INFO, {k.REASON_NO_MOVE: "no-move"})
_STEP_NAMES = ("diagonally forward toward file a", "diagonally forward toward the last file", "straight back")
# from, an optional separator (-, x or space), to, then capture marks: x, each optionally naming a square
_MOVE = re.compile(r"([a-z])(\d{1,2})\s*([-x]?)\s*([a-z])(\d{1,2})((?:\s*x\s*(?:[a-z]\d{1,2})?)*)")
_SQUARE = re.compile(r"[a-z]\d{1,2}")


class Gtbm(kit.NamedCells, kit.SquareBoard, Game, kernels=k):
    """GTBM with its options fixed."""

    info = INFO

    @property
    def num_distinct_actions(self) -> int:
        """``cell * 3 + k``: a piece's step ``k``."""
        return 3 * len(self.cell_names())

    @property
    def max_decisions(self) -> int:
        """One decision a turn; at most ``no_capture_limit`` turns pass between two captures (G6),
        and at most ``2 * size`` pieces can be captured."""
        return (2 * int(self.options["size"]) + 1) * int(self.options["no_capture_limit"])

    search_cutoff = 0  # measured: the cut-off drew all 20 games against plain UCT, so it is not the default
    search_algorithm = "alphabeta"  # measured: alpha-beta on material beat plain UCT (see docs/rules/gtbm.md)
    search_key_field = k.F_HASH  # alpha-beta's transposition table keys positions by their Zobrist hash
    noisy_kernel = staticmethod(k.is_capture)  # and its quiescence search goes on with captures
    # ``evaluation=material``: pieces alone (before 25 November 2026); ``fitted``: weights fitted to the
    # results of recorded games (bench/gtbm_texel.py), ``fitted_shallow`` to games between shallow searches.
    # Measured against the default in docs/findings/search.md, GTBM.
    evaluations = MappingProxyType({"material": k.evaluate_material, "fitted": k.evaluate_fitted,
                                    "fitted_shallow": k.evaluate_fitted_shallow})

    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        size = int(resolved["size"])
        if size % 2:
            raise OptionError(
                f"gtbm: option size={size} is odd; accepted: an even number from 4 to 26 (8, or 16 as in the seed)"
            )

    # -- board and tables -----------------------------------------------------------------------

    def build_spec(self) -> np.ndarray:
        size = self.size
        topology = self.topology
        cells = topology.size
        spec = kit.SpecBuilder(k.SPEC_HEADER)
        spec[k.S_SIZE] = size
        spec[k.S_CELLS] = cells
        spec[k.S_REACH] = _CODES(self.options, "capture_reach")
        spec[k.S_MANDATORY] = self.options["mandatory_capture"]
        spec[k.S_STUCK] = _CODES(self.options, "stuck_check")
        spec[k.S_REPETITION] = self.options["repetition"] == "draw"
        spec[k.S_LIMIT] = self.options["no_capture_limit"]
        spec[k.S_ADJUDICATION] = _CODES(self.options, "cap_adjudication")
        spec.table(topology.neighbours, at=k.S_NEIGH)
        spec.table(kit.zobrist_keys(0x6774626D, 2 * cells + 1), at=k.S_ZOBRIST)
        for side, directions in enumerate(k.STEP_DIRECTIONS):
            spec[k.S_STEPS + 3 * side: k.S_STEPS + 3 * side + 3] = directions
        spec.fields(k.layout(size, int(self.options["no_capture_limit"])))
        # Algebraic names: ``0`` is the top-left square, ``a8`` on 8×8.
        self.naming = kit.CellNaming.files_and_ranks(topology)
        self._names = self.naming.names
        return spec.build()

    def seat_name(self, seat: int) -> str:
        return SIDES[seat]

    # -- states ---------------------------------------------------------------------------------

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        size = self.size
        for col in range(size):
            k.place_piece(data, self.spec, (size - 1) * size + col, 0)
            k.place_piece(data, self.spec, col, 1)
        k.start_history(data, self.spec)
        return data

    # -- moves ----------------------------------------------------------------------------------

    def _destination(self, side: int, cell: int, step: int) -> int:
        direction = k.STEP_DIRECTIONS[side][step]
        return int(self.topology.neighbours[cell, direction])

    def _taken(self, data: np.ndarray, side: int, cell: int, step: int) -> list[int]:
        if step == k.BACK:
            return []
        found = [k.first_capture(data, self.spec, side, cell, step),
                 k.second_capture(data, self.spec, side, cell, step)]
        return [int(c) for c in found if c >= 0]

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        cell, step = divmod(action, 3)
        side = int(data[k.F_SIDE])
        return self._text(side, cell, step, self._taken(data, side, cell, step))

    def key_text(self, key: int) -> str:
        action, extra = divmod(key, self.num_distinct_actions)[::-1]
        side, rest = extra % 2, extra // 2
        cells = self.size * self.size
        taken = [c - 1 for c in (rest % (cells + 1), rest // (cells + 1)) if c]
        cell, step = divmod(action, 3)
        return self._text(side, cell, step, taken)

    def _text(self, side: int, cell: int, step: int, taken: list[int]) -> str:
        to = self._destination(side, cell, step)
        return f"{self._names[cell]}-{self._names[to]}" + "".join(f"x{self._names[c]}" for c in sorted(taken))

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip().lower()
        match = _MOVE.fullmatch(word)
        if not match:
            raise InvalidMove(
                f"{text!r} is not a move; a move is the square moved from and the square moved to, such as "
                f"c3-d4 (also c3d4 or c3 d4), with a capture marked as c3-d4xd3 or c3-d4x if you like"
            )
        start, end = match.group(1) + match.group(2), match.group(4) + match.group(5)
        cell, to = self.cell_index(start), self.cell_index(end)
        last = self._names[self.size - 1]
        for name, index in ((start, cell), (end, to)):
            if index is None:
                raise InvalidMove(f"{text!r}: there is no square {name} on this board (squares run from a1 to {last})")
        assert cell is not None and to is not None
        side = int(data[k.F_SIDE])
        piece = int(data[k.BOARD + cell])
        if piece != side + 1:
            raise IllegalMove(f"{start}-{end}: {self._not_yours(cell, piece, side)}")
        steps = [self._destination(side, cell, step) for step in range(3)]
        if to not in steps:
            raise IllegalMove(
                f"{start}-{end}: a piece moves one square, diagonally forward or straight back "
                f"({SIDES[side]} moves {'up' if side == 0 else 'down'} the board)"
            )
        step = steps.index(to)
        claimed = "x" in match.group(3) + match.group(6)
        if claimed and self._is_legal(data, cell * 3 + step):
            taken = {self._names[c] for c in self._taken(data, side, cell, step)}
            named = set(_SQUARE.findall(match.group(6)))
            if not taken:
                raise IllegalMove(f"{text.strip()}: {start}-{end} captures nothing; write {start}-{end}")
            if named and named != taken:
                raise IllegalMove(
                    f"{text.strip()}: {start}-{end} captures {' and '.join(sorted(taken))}, "
                    f"not {' and '.join(sorted(named))}"
                )
        return (cell * 3 + step,)

    def _is_legal(self, data: np.ndarray, action: int) -> bool:
        out = np.empty(kernel.MAX_ACTIONS, np.int64)
        count = k.legal(data.copy(), self.spec, out)
        return action in out[:count].tolist()

    def _not_yours(self, cell: int, piece: int, side: int) -> str:
        name = self._names[cell]
        if piece == 0:
            return f"there is no piece on {name}"
        return f"the piece on {name} is {SIDES[piece - 1]}'s; {SIDES[side]} is to move"

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        cell, step = divmod(action, 3)
        side = int(data[k.F_SIDE])
        piece = int(data[k.BOARD + cell])
        if piece != side + 1:
            return self._not_yours(cell, piece, side)
        to = self._destination(side, cell, step)
        if data[k.BOARD + to]:
            return f"{self._names[to]} is occupied"
        if self.options["mandatory_capture"] and not self._taken(data, side, cell, step):
            return "a capture is possible, so a capturing move must be played (option mandatory_capture=true)"
        return "that move is not legal in this position"

    # -- position text --------------------------------------------------------------------------

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        pieces = data[k.BOARD:k.BOARD + self.size * self.size]
        return np.where(pieces > 0, pieces - 1, -1)

    def position_text(self, data: np.ndarray) -> str:
        size = self.size
        values = data[k.BOARD:k.BOARD + size * size].tolist()
        ranks = [kit.write_row(".BW"[value] for value in values[row * size:(row + 1) * size]) for row in range(size)]
        fields = ["/".join(ranks), "bw"[int(data[k.F_SIDE])], str(int(data[kernel.PLY])), str(int(data[k.F_QUIET]))]
        return " ".join(fields + _END_TOKENS.ended(data))

    def parse_position(self, text: str) -> np.ndarray:
        form = "'<ranks from the top, separated by /> <b|w to move> <ply> <plies without capture> [end:<reason>]'"
        board_text, side_text, ply_text, quiet_text, *flags = kit.position_fields(text, form, 4, 5)
        size = self.size
        data = self._blank()
        rank_texts = board_text.split("/")
        if len(rank_texts) != size:
            raise PositionError(f"{text!r}: the board has {size} ranks, not {len(rank_texts)}")
        for row, rank_text in enumerate(rank_texts):
            rank = size - row
            col = 0
            for token in kit.read_row(rank_text, size * size, f"{text!r}: rank {rank}'s run of empty squares"):
                if isinstance(token, int):
                    col += token
                    continue
                if token.upper() not in PIECES:
                    raise PositionError(f"{text!r}: rank {rank} has {token!r}; ranks use B, W and digits")
                if col < size:
                    side = PIECES.index(token.upper())
                    if data[k.F_COUNT + side] == size:
                        raise PositionError(f"{text!r}: {SIDES[side]} has more than {size} pieces")
                    k.place_piece(data, self.spec, row * size + col, side)
                col += 1
            if col != size:
                raise PositionError(f"{text!r}: rank {rank} has {col} squares, not {size}")
        if side_text not in ("b", "w"):
            raise PositionError(f"{text!r}: the side to move is {side_text!r}; expected b or w")
        for name, value in (("ply", ply_text), ("count of plies without a capture", quiet_text)):
            if not value.isdecimal():
                raise PositionError(f"{text!r}: the {name} is {value!r}; expected a whole number")
        ply = whole_number(ply_text, MAX_PLY, f"{text!r}: the ply")
        quiet = whole_number(quiet_text, MAX_PLY, f"{text!r}: the count of plies without a capture")
        limit = int(self.options["no_capture_limit"])
        if quiet > limit:
            raise PositionError(f"{text!r}: {quiet} plies without a capture is past the limit {limit}")
        if quiet > ply:
            raise PositionError(f"{text!r}: {quiet} plies without a capture, but only {ply} plies played")
        data[k.F_SIDE] = "bw".index(side_text)
        if data[k.F_SIDE]:
            data[k.F_HASH] ^= self.spec[int(self.spec[k.S_ZOBRIST]) + 2 * size * size]
        data[kernel.PLY] = ply
        data[k.F_QUIET] = quiet
        k.start_history(data, self.spec)
        end = None
        for flag in flags:
            end = _END_TOKENS.code(flag)
            if end is None:
                raise PositionError(
                    f"{text!r}: unexpected {flag!r}; after the count of plies without a capture may come "
                    f"{_END_TOKENS.fields()}"
                )
        self._set_outcome(data, end, text)
        self._check_history(data, text, ply)
        return data

    def _check_history(self, data: np.ndarray, text: str, ply: int) -> None:
        """What the ply implies (G7): Black moves first and the sides alternate (no passing); a piece
        away from its home row took at least one forward step per rank, and every capture took a
        move of the capturing side."""
        side = int(data[k.F_SIDE])
        if side != ply % 2:
            raise PositionError(f"{text!r}: at ply {ply} {SIDES[ply % 2]} is to move (Black moves first), "
                                f"not {SIDES[side]}")
        size = self.size
        board = data[k.BOARD:k.BOARD + size * size].reshape(size, size)
        moves = ((ply + 1) // 2, ply // 2)  # moves Black and White have made
        for piece, home_row in ((0, size - 1), (1, 0)):
            rows = np.nonzero(board == piece + 1)[0]
            steps = int(np.abs(rows - home_row).sum())
            lost_by_other = size - int(np.count_nonzero(board == 2 - piece))
            if steps > moves[piece] or lost_by_other > moves[piece]:
                raise PositionError(
                    f"{text!r}: {SIDES[piece]} has made at most {moves[piece]} moves by ply {ply}, too few to "
                    f"reach these squares from its home row and take {lost_by_other} pieces")

    def _set_outcome(self, data: np.ndarray, end: int | None, text: str) -> None:
        winner, reason = k.stuck_outcome(data, self.spec)
        if reason == 0 and data[k.F_QUIET] >= self.options["no_capture_limit"]:
            winner, reason = k.limit_winner(data, self.spec), k.REASON_LIMIT
        if end == k.REASON_REPETITION and reason in (0, k.REASON_LIMIT):
            winner, reason = -1, k.REASON_REPETITION
        _END_TOKENS.check(text, end, reason)
        if reason:
            k.finish(data, winner, reason)
        else:
            data[kernel.TO_MOVE] = data[k.F_SIDE]

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """The board with Black at the bottom, ranks at the left and files below, then a legend."""
        data = view.data
        size = self.size
        width = len(str(size))
        lines = []
        for row in range(size):
            cells = " ".join(".BW"[int(data[k.BOARD + row * size + col])] for col in range(size))
            lines.append(f"{size - row:>{width}}  {cells}")
        lines.append(" " * (width + 2) + " ".join(chr(ord("a") + col) for col in range(size)))
        quiet = int(data[k.F_QUIET])
        lines.append(
            f"B Black, moves up · W White, moves down · {quiet} {'ply' if quiet == 1 else 'plies'} "
            f"without capture (limit {self.options['no_capture_limit']})"
        )
        return "\n".join(lines)

    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_contents(self, view: View) -> list[CellContent]:
        """Each square with its piece: colour and seat 0 Black, 1 White."""
        values = view.data[k.BOARD: k.BOARD + self.size * self.size].tolist()
        return [CellContent(name, (Piece(value - 1, value - 1),) if value else ())
                for name, value in zip(self._names, values, strict=True)]

    def plies_without_capture(self, data: np.ndarray) -> int:
        """Plies in a row without a capture (the no-capture limit counts them)."""
        return int(data[k.F_QUIET])

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """The piece's square, then the square it steps to (what it takes goes by itself)."""
        if len(path) != 1 or not 0 <= path[0] < 3 * self.size * self.size:
            return ()
        cell, step = divmod(path[0], 3)
        to = self._destination(int(data[k.F_SIDE]), cell, step)
        return () if to < 0 else (self._names[cell], self._names[to])
