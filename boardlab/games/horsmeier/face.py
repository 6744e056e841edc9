"""Horsmeier's Python face: options, notation, position text and a board that shows strengths and life spans.

>>> import boardlab
>>> state = boardlab.load("horsmeier").new_game().play("f5-f6")
>>> print(state)  # doctest: +NORMALIZE_WHITESPACE
       a    b    c    d    e    f    g    h    i    j    k     Σw  Σb
    +----+----+----+----+----+----+----+----+----+----+----+
 11 |    |1b11|    |1b11|    |1b11|    |1b11|    |1b11|    |  11   0   5
    +----+----+----+----+----+----+----+----+----+----+----+
 10 |    |    |2b11|    |    |2b11|    |    |2b11|    |    |  10   0   6
    +----+----+----+----+----+----+----+----+----+----+----+
  9 |    |    |    |3b11|    |    |    |3b11|    |    |    |   9   0   6
    +----+----+----+----+----+----+----+----+----+----+----+
  8 |    |    |    |    |    |    |    |    |    |    |    |   8   0   0
    +----+----+----+----+----+----+----+----+----+----+----+
  7 |    |    |    |    |    |5b11|    |    |    |    |    |   7   0   5
    +----+----+----+----+----+----+----+----+----+----+----+
  6 |    |    |    |    |    |5w11|    |    |    |    |    |   6   5   0
    +----+----+----+----+----+----+----+----+----+----+----+
  5 |    |    |    |    |    |    |    |    |    |    |    |   5   0   0
    +----+----+----+----+----+----+----+----+----+----+----+
  4 |    |    |    |    |    |    |    |    |    |    |    |   4   0   0
    +----+----+----+----+----+----+----+----+----+----+----+
  3 |    |    |    |3w10|    |    |    |3w10|    |    |    |   3   6   0
    +----+----+----+----+----+----+----+----+----+----+----+
  2 |    |    |2w10|    |    |2w10|    |    |2w10|    |    |   2   6   0
    +----+----+----+----+----+----+----+----+----+----+----+
  1 |    |1w10|    |1w10|    |1w10|    |1w10|    |1w10|    |   1   5   0
    +----+----+----+----+----+----+----+----+----+----+----+
A piece: strength (1 2 3 5 8), colour (w White, moves up; b Black, moves down), life span left
in its owner's turns. Σw Σb: each colour's strength on the row (strength blocking).

Position text: the rows from the top (row 11 first), ``/``-separated; in a row, comma-separated
items, each a count of empty squares or a piece written as on the board (``5w11``: strength 5,
White, 11 turns to live; with an ``upgrade_rule`` other than ``band``, ``^R`` adds the row its
upgrades count from); then the colour to move (``w`` or ``b``), the ply, and once the game is over
``end:<reason>``:

>>> boardlab.load("horsmeier").new_game().to_text().split("/")[0]
'1,1b11,1,1b11,1,1b11,1,1b11,1,1b11,1'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.restriction import Restriction
from boardlab.core.topology import Topology, square
from boardlab.core.view import View
from boardlab.errors import IllegalMove, InvalidMove, PositionError
from boardlab.games.horsmeier import INFO
from boardlab.games.horsmeier import kernel as k

COLOURS = ("White", "Black")
STRENGTHS = (1, 2, 3, 5, 8)
# Each colour's pieces as (strength, own-side row, files), from the seed's diagram.
SETUP = ((1, 1, "bdfhj"), (2, 2, "cfi"), (3, 3, "dh"), (5, 5, "f"))
DIRECTIONS = {"n": 0, "e": 1, "s": 2, "w": 3, "north": 0, "east": 1, "south": 2, "west": 3,
              "up": 0, "right": 1, "down": 2, "left": 3}
_CODES = kit.ChoiceCodes(INFO, k, upgrade_rule="UPGRADE_", expiry_rule="EXPIRY_", no_move_rule="NO_MOVE_")
_END_TOKENS = kit.EndTokens(INFO, {k.REASON_NO_MOVE: "no-move"})
_MOVE = re.compile(r"([a-z])(\d{1,2})\s*-?\s*(?:([a-z])(\d{1,2})|([a-z]+))")
_PIECE = re.compile(r"([1-9])([wb])(\d{1,2})(?:\^(\d{1,2}))?")


class Horsmeier(kit.NamedCells, kit.TextOfAction, kit.PlyCapped, Game, kernels=k):
    """Horsmeier's strength race with its options fixed."""

    info = INFO
    plane_numbers = ("strength", "life", "from_row")

    @property
    def num_distinct_actions(self) -> int:
        """``cell * 4 + direction``; ``4 * cells`` passes."""
        return 4 * len(self.cell_names()) + 1

    # max_decisions: one decision a ply; the ply cap (J10) ends the game (kit.PlyCapped).

    search_cutoff = 20

    @property
    def restrictions(self) -> Mapping[str, Restriction]:
        """``no_sideways`` and ``ignore_lifespan`` (:mod:`boardlab.games.horsmeier.restrictions`)."""
        from boardlab.games.horsmeier.restrictions import RESTRICTIONS

        return RESTRICTIONS

    # -- board and tables -----------------------------------------------------------------------

    @property
    def topology(self) -> Topology:
        return self._topology

    @property
    def tracks_reference_rows(self) -> bool:
        """Whether upgrades depend on a remembered row per piece (J3 other than ``band``)."""
        return self.options["upgrade_rule"] != "band"

    def build_spec(self) -> np.ndarray:
        topology = square(k.SIZE)
        self._topology = topology
        cells = k.CELLS
        spec = kit.SpecBuilder(k.SPEC_HEADER)
        spec[k.S_FIRST] = self.options["first_player"] == "black"
        spec[k.S_UPGRADE] = _CODES(self.options, "upgrade_rule")
        spec[k.S_SIDEWAYS] = self.options["sideways_blocking"] == "exempt"
        spec[k.S_BACKWARD] = self.options["backward_blocking"] == "exempt"
        spec[k.S_OWN_SUM] = self.options["own_sum"] == "piece_only"
        spec[k.S_EXPIRY] = _CODES(self.options, "expiry_rule")
        spec[k.S_NO_MOVE] = _CODES(self.options, "no_move_rule")
        spec[k.S_REPETITION] = self.options["repetition"] == "draw"
        spec[k.S_PLY_CAP] = self.options["ply_cap"]
        spec.table(topology.neighbours[:, :4], at=k.S_NEIGH)
        spec.table([k.SIZE - 1 - row for row, _ in topology.coords], at=k.S_ROW)
        # Hash keys for each cell's piece by colour: its level, its life span, its reference row; then the side.
        level_keys, life_keys, ref_keys = 2 * cells * k.LEVELS, 2 * cells * (k.LIFE + 1), 2 * cells * (k.SIZE + 1)
        keys = kit.zobrist_keys(0x686F7273, level_keys + life_keys + ref_keys + 1)
        spec[k.S_KEYS_LEVEL] = spec.table(keys)
        spec[k.S_KEYS_LIFE] = spec[k.S_KEYS_LEVEL] + level_keys
        spec[k.S_KEYS_REF] = spec[k.S_KEYS_LIFE] + life_keys
        spec[k.S_KEY_SIDE] = keys[-1]
        spec[k.S_STATE_LEN] = k.state_length(int(self.options["ply_cap"]))
        spec[k.S_STRENGTHS: k.S_STRENGTHS + k.LEVELS] = STRENGTHS
        # Algebraic names: ``0`` is ``a11``, the top left.
        self.naming = kit.CellNaming.files_and_ranks(topology)
        self._names = self.naming.names
        return spec.build()

    def colour_of_seat(self, seat: int) -> int:
        return seat ^ int(self.options["first_player"] == "black")

    def seat_name(self, seat: int) -> str:
        return COLOURS[self.colour_of_seat(seat)]

    # -- states ---------------------------------------------------------------------------------

    def _square(self, colour: int, file: str, own_row: int) -> int:
        row = own_row if colour == 0 else k.SIZE + 1 - own_row
        cell = self.naming.index(f"{file}{row}")
        assert cell is not None
        return cell

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        for colour in range(2):
            piece = colour * k.SLOTS
            for strength, row, files in SETUP:
                for file in files:
                    ref = row if self.tracks_reference_rows else 0
                    k.place_piece(data, self.spec, piece, self._square(colour, file, row),
                                  STRENGTHS.index(strength), k.LIFE, ref)
                    piece += 1
        data[k.HIST] = data[k.F_HASH]
        data[kernel.TO_MOVE] = 0
        data[k.F_COLOUR] = self.colour_of_seat(0)
        if data[k.F_COLOUR]:
            data[k.F_HASH] ^= self.spec[k.S_KEY_SIDE]
        data[k.HIST] = data[k.F_HASH]
        return data

    # -- moves ----------------------------------------------------------------------------------

    def key_text(self, key: int) -> str:
        """An action's text never depends on the position: its key is the action."""
        action = key
        if action == k.PASS:
            return "pass"
        cell, direction = divmod(action, 4)
        to = int(self.topology.neighbours[cell, direction])
        return f"{self._names[cell]}-{self._names[to]}"

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip().lower()
        if word == "pass":
            return (k.PASS,)
        match = _MOVE.fullmatch(word)
        if not match or (match.group(5) and match.group(5) not in DIRECTIONS):
            raise InvalidMove(
                f"{text!r} is not a move; a move is the square moved from and the square moved to, such as "
                f"f5-f6 (also f5f6 or f5 f6), or a square and a direction n, e, s or w (f5n), or 'pass'"
            )
        start = match.group(1) + match.group(2)
        cell = self.cell_index(start)
        names = [start] if match.group(5) else [start, match.group(3) + match.group(4)]
        for name in names:
            if self.cell_index(name) is None:
                raise InvalidMove(f"{text!r}: there is no square {name} on this board (a1 to k11)")
        assert cell is not None
        neighbours = [int(n) for n in self.topology.neighbours[cell, :4]]
        if match.group(5):
            direction = DIRECTIONS[match.group(5)]
            if neighbours[direction] < 0:
                raise IllegalMove(f"{text.strip()}: that step leaves the board")
            return (4 * cell + direction,)
        to = self.cell_index(names[1])
        if to not in neighbours:
            raise IllegalMove(f"{start}-{names[1]}: a piece moves one square left, right, forward or back")
        return (4 * cell + neighbours.index(to),)

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        colour = int(data[k.F_COLOUR])
        if action == k.PASS:
            if self.options["no_move_rule"] != "pass_decay":
                return f"passing is not part of these rules (option no_move_rule={self.options['no_move_rule']})"
            return "passing is allowed only when no move is legal"
        cell, direction = divmod(action, 4)
        name = self._names[cell]
        piece = int(data[k.BOARD + cell]) - 1
        if piece < 0:
            return f"there is no piece on {name}"
        if piece // k.SLOTS != colour:
            return f"the piece on {name} is {COLOURS[1 - colour]}'s; {COLOURS[colour]} is to move"
        to = int(self.topology.neighbours[cell, direction])
        if data[k.BOARD + to]:
            return f"{self._names[to]} is occupied (physical block)"
        row, target = self.row_number(cell), self.row_number(to)
        against = self.row_sum(data, 1 - colour, target)
        if self.options["own_sum"] == "row":
            own = f"{COLOURS[colour]}'s strength on row {row} ({self.row_sum(data, colour, row)})"
        else:
            own = f"the piece's strength ({STRENGTHS[int(data[k.P_LEVEL + piece])]})"
        return f"strength block: {COLOURS[1 - colour]}'s strength on row {target} ({against}) is at least {own}"

    def row_number(self, cell: int) -> int:
        """The row of ``cell`` in the notation, 1 (White's home) to 11."""
        return int(self.spec[int(self.spec[k.S_ROW]) + cell]) + 1

    def row_sum(self, data: np.ndarray, colour: int, row: int) -> int:
        """The sum of ``colour``'s strengths on ``row`` (1 to 11)."""
        return int(data[k.ROWSUM + k.SIZE * colour + row - 1])

    # -- position text --------------------------------------------------------------------------

    def _piece_text(self, data: np.ndarray, piece: int) -> str:
        strength = STRENGTHS[int(data[k.P_LEVEL + piece])]
        text = f"{strength}{'wb'[piece // k.SLOTS]}{int(data[k.P_LIFE + piece])}"
        if self.tracks_reference_rows:
            text += f"^{int(data[k.P_REF + piece])}"
        return text

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        pieces = data[k.BOARD:k.BOARD + k.CELLS]
        flip = int(self.options["first_player"] == "black")
        return np.where(pieces > 0, ((pieces - 1) // k.SLOTS) ^ flip, -1)

    def position_text(self, data: np.ndarray) -> str:
        board = data[k.BOARD:k.BOARD + k.CELLS].tolist()
        items = [self._piece_text(data, piece - 1) if piece else "" for piece in board]
        rows = [kit.write_row(items[row * k.SIZE:(row + 1) * k.SIZE], empty="", separator=",") for row in range(k.SIZE)]
        fields = ["/".join(rows), "wb"[int(data[k.F_COLOUR])], str(int(data[kernel.PLY]))]
        return " ".join(fields + _END_TOKENS.ended(data))

    def parse_position(self, text: str) -> np.ndarray:
        form = "'<rows from row 11 down, separated by /> <w|b to move> <ply> [end:<reason>]'"
        board_text, colour_text, ply_text, *flags = kit.position_fields(text, form, 3, 4)
        data = self._blank()
        data[k.P_CELL: k.P_CELL + 2 * k.SLOTS] = -1  # slots that no piece fills
        row_texts = board_text.split("/")
        if len(row_texts) != k.SIZE:
            raise PositionError(f"{text!r}: the board has {k.SIZE} rows, not {len(row_texts)}")
        for top_row, row_text in enumerate(row_texts):
            self._parse_row(data, top_row, row_text, text)
        if colour_text not in ("w", "b"):
            raise PositionError(f"{text!r}: the colour to move is {colour_text!r}; expected w or b")
        ply = kit.count_field(text, ply_text)
        cap = int(self.options["ply_cap"])
        if ply > cap:
            raise PositionError(f"{text!r}: ply {ply} is past the ply cap {cap}")
        colour = "wb".index(colour_text)
        data[k.F_COLOUR] = colour
        if colour:
            data[k.F_HASH] ^= self.spec[k.S_KEY_SIDE]
        data[kernel.PLY] = ply
        data[k.F_HIST_START] = ply
        data[k.HIST + ply] = data[k.F_HASH]
        data[k.P_LAST: k.P_LAST + 2 * k.SLOTS] = ply
        end = None
        for flag in flags:
            end = _END_TOKENS.code(flag)
            if end is None:
                raise PositionError(f"{text!r}: unexpected {flag!r}; after the ply may come {_END_TOKENS.fields()}")
        self._set_outcome(data, end, text)
        return data

    def _parse_row(self, data: np.ndarray, top_row: int, row_text: str, text: str) -> None:
        row = k.SIZE - top_row
        col = 0
        what = f"{text!r}: row {row}'s run of empty squares"
        for item in kit.read_row(row_text, k.SIZE * k.SIZE, what, separator=","):
            if isinstance(item, int):
                col += item
                continue
            match = _PIECE.fullmatch(item)
            if not match:
                raise PositionError(
                    f"{text!r}: row {row} has {item!r}; a row lists counts of empty squares and pieces such "
                    f"as 5w11 (strength, w or b, life span{', ^row' if self.tracks_reference_rows else ''}), "
                    f"separated by commas"
                )
            strength, colour_letter, life_text, ref_text = match.groups()
            colour = "wb".index(colour_letter)
            if int(strength) not in STRENGTHS:
                raise PositionError(f"{text!r}: {item!r} has strength {strength}; strengths are 1, 2, 3, 5 and 8")
            life = int(life_text)
            # 0 arises under degrade_each_turn; under never, in the model of such a position.
            lowest = 0 if self.options["expiry_rule"] in ("degrade_each_turn", "never") else 1
            if not lowest <= life <= k.LIFE:
                raise PositionError(
                    f"{text!r}: {item!r} has life span {life}; accepted: {lowest} to {k.LIFE} "
                    f"(0 only with expiry_rule=degrade_each_turn or never)"
                )
            if (ref_text is None) == self.tracks_reference_rows:
                need = "needs" if self.tracks_reference_rows else "takes no"
                raise PositionError(
                    f"{text!r}: {item!r}: with upgrade_rule={self.options['upgrade_rule']} a piece {need} "
                    f"^row (the row its upgrades count from)"
                )
            ref = 0 if ref_text is None else int(ref_text)
            if self.tracks_reference_rows and not 1 <= ref <= k.SIZE - 1:
                raise PositionError(f"{text!r}: {item!r} counts upgrades from row {ref}; accepted: 1 to 10")
            if data[k.F_COUNT + colour] == k.SLOTS:
                raise PositionError(f"{text!r}: {COLOURS[colour]} has more than {k.SLOTS} pieces")
            if col < k.SIZE:
                piece = colour * k.SLOTS + int(data[k.F_COUNT + colour])
                k.place_piece(data, self.spec, piece, top_row * k.SIZE + col,
                              STRENGTHS.index(int(strength)), life, ref)
            col += 1
        if col != k.SIZE:
            raise PositionError(f"{text!r}: row {row} has {col} squares, not {k.SIZE}")

    def _natural_outcome(self, data: np.ndarray, text: str) -> tuple[int, int]:
        colour = int(data[k.F_COLOUR])
        far = int(k.far_row_winner(data, self.spec))
        if far == -2:
            raise PositionError(f"{text!r}: both colours have a piece on the far row")
        if far >= 0:
            if far == colour:
                raise PositionError(
                    f"{text!r}: {COLOURS[far]} has a piece on the far row, so {COLOURS[far]} moved last "
                    f"and cannot be to move"
                )
            return far, k.REASON_FAR_ROW
        counts = [int(data[k.F_COUNT + c]) for c in range(2)]
        if counts == [0, 0]:
            raise PositionError(f"{text!r}: neither colour has a piece")
        if 0 in counts:
            return 1 - counts.index(0), k.REASON_NO_PIECES
        rule = self.options["no_move_rule"]
        if rule != "pass_decay" and not k.has_move(data, self.spec, colour):
            return (1 - colour if rule == "lose" else -1), k.REASON_NO_MOVE
        if data[kernel.PLY] >= self.options["ply_cap"]:
            return -1, k.REASON_PLY_CAP
        return -1, 0

    def _set_outcome(self, data: np.ndarray, end: int | None, text: str) -> None:
        winner, reason = self._natural_outcome(data, text)
        if end == k.REASON_REPETITION and reason in (0, k.REASON_PLY_CAP):
            winner, reason = -1, k.REASON_REPETITION
        _END_TOKENS.check(text, end, reason)
        if reason:
            k.finish(data, self.spec, winner, reason)
        else:
            data[kernel.TO_MOVE] = int(data[k.F_COLOUR]) ^ int(self.spec[k.S_FIRST])

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """The seed's grid, each piece as strength, colour and life span; row sums at the right."""
        return self._drawing(view, compact=False)

    def render_compact(self, view: View) -> str:
        """The grid without the rules between rows, and a one-line legend: 15 lines, not 26."""
        return self._drawing(view, compact=True)

    def _drawing(self, view: View, compact: bool) -> str:
        data = view.data
        rule = "    " + "+----" * k.SIZE + "+"
        header = "     " + "".join(f"  {chr(ord('a') + col)}  " for col in range(k.SIZE)) + "   Σw  Σb"
        lines = [header.rstrip(), rule]
        for top_row in range(k.SIZE):
            row = k.SIZE - top_row
            cells = []
            for col in range(k.SIZE):
                piece = int(data[k.BOARD + top_row * k.SIZE + col]) - 1
                if piece < 0:
                    cells.append("    ")
                    continue
                strength = STRENGTHS[int(data[k.P_LEVEL + piece])]
                cells.append(f"{strength}{'wb'[piece // k.SLOTS]}{int(data[k.P_LIFE + piece]):>2}")
            sums = f"{self.row_sum(data, 0, row):>4}{self.row_sum(data, 1, row):>4}"
            lines.append(f" {row:>2} |" + "|".join(cells) + f"|  {row:>2}" + sums)
            if not compact or top_row == k.SIZE - 1:
                lines.append(rule)
        if compact:
            lines.append("5w 6: strength 5, White (moves up), 6 turns to live · b Black · Σ row strength")
        else:
            lines.append("A piece: strength (1 2 3 5 8), colour (w White, moves up; b Black, moves down),")
            lines.append("life span left in its owner's turns. Σw Σb: each colour's strength on the row")
            lines.append("(strength blocking).")
        if self.tracks_reference_rows:
            refs = [f"{self._names[cell]} {int(data[k.P_REF + data[k.BOARD + cell] - 1])}"
                    for cell in range(k.CELLS) if data[k.BOARD + cell]]
            lines.extend(textwrap.wrap(f"Upgrades count from (row on the owner's side): {', '.join(refs)}", 80))
        return "\n".join(lines)

    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_contents(self, view: View) -> list[CellContent]:
        """Each square with its piece: colour 0 White, 1 Black; ``numbers`` hold ``strength`` and
        ``life`` (turns left), and ``from_row`` where upgrades count from a remembered row (J3)."""
        data = view.data
        first_black = int(self.options["first_player"] == "black")
        contents = []
        for cell, name in enumerate(self._names):
            piece = int(data[k.BOARD + cell]) - 1
            if piece < 0:
                contents.append(CellContent(name))
                continue
            colour = piece // k.SLOTS
            numbers = {"strength": STRENGTHS[int(data[k.P_LEVEL + piece])], "life": int(data[k.P_LIFE + piece])}
            if self.tracks_reference_rows:
                numbers["from_row"] = int(data[k.P_REF + piece])
            contents.append(CellContent(name, (Piece(colour, colour ^ first_black, "piece", numbers),)))
        return contents

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """The piece's square, then the square it moves to; ``pass`` is a button."""
        if len(path) != 1 or not 0 <= path[0] <= k.PASS:
            return ()
        if path[0] == k.PASS:
            return ("pass",)
        cell, direction = divmod(path[0], 4)
        to = int(self.topology.neighbours[cell, direction])
        return () if to < 0 else (self._names[cell], self._names[to])
