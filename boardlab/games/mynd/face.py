"""Mynd's Python face: options, Go-style notation, position text and the text board.

>>> import boardlab
>>> game = boardlab.load("mynd", size=5)
>>> state = game.new_game().play("b2").play("d4").play("b2^")
>>> print(state)
   a b c d e
 5 . . . . W*
 4 . . . W .
 3 . B . . .
 2 . . . . .
 1 B*. . . .
   a b c d e
black 6 in hand, white 6 in hand

Points are named as on a Go board: columns ``a``, ``b``, … without ``i``, rows numbered up from
the bottom. A push is written from its rear piece to its front piece, then the direction
(``^ > v <``); one piece alone is ``b2^``. Position text: the rows from the top, ``/``-separated,
each as piece letters (``B W R G``; ``*`` after a starting peg) and counts of empty points; the
seat to move (``b w r g``); the ply; then, where they apply, ``since:`` the moves since the last
placement (they decide which positions superko forbids), ``cut:`` the cut links and ``end:``:

>>> game.new_game().play("b2").to_text()
'4W*/5/5/1B3/B*4 w 1'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.options import OptionValue
from boardlab.core.view import View
from boardlab.errors import InvalidMove, OptionError, PositionError
from boardlab.games.mynd import INFO, territory
from boardlab.games.mynd import kernel as k
from boardlab.games.mynd import layout as lay
from boardlab.games.mynd.evaluation import evaluate

COLUMNS = "abcdefghjklmnopqrstuvwxyz"  # Go skips i
LETTERS = "BWRG"
COLOURS = ("black", "white", "red", "green")
ARROWS = "^>v<"  # directions 0-3: N, E, S, W
_DIRECTION_WORDS = {
    "^": 0, "n": 0, "up": 0, "north": 0, ">": 1, "e": 1, "right": 1, "east": 1,
    "v": 2, "s": 2, "down": 2, "south": 2, "<": 3, "w": 3, "left": 3, "west": 3,
}
_DIRECTION_NAMES = ("up", "right", "down", "left")
_POINT = r"[a-z]\d{1,2}"
_MOVE = re.compile(
    rf"(?:push\s*)?(?P<a>{_POINT})(?:\s*-\s*(?P<b>{_POINT}))?\s*(?P<dir>\^|v|<|>|up|down|left|right|north|south|"
    rf"east|west|n|s|e|w)?"
)
_POINT_TOKEN = re.compile(r"\d+|[A-Za-z]\*?\+?|.")
_SINCE_PUSH = re.compile(rf"({_POINT})(?:-({_POINT}))?([\^><v])")
_CODES = kit.ChoiceCodes(
    INFO, lay, superko="SUPERKO_", push_mode="PUSH_",
    push_majority={"combined": lay.MAJORITY_COMBINED, "each_opponent": lay.MAJORITY_EACH},
    slide={"run_of_one": lay.SLIDE_RUN_OF_ONE, "any_own_piece": lay.SLIDE_ANY_OWN},
    nested={"void": lay.NESTED_VOID, "inner_owner": lay.NESTED_INNER},
    diagonal_links={"chrono_cut": lay.LINKS_CHRONO, "mutual_cut": lay.LINKS_MUTUAL, "always": lay.LINKS_ALWAYS,
                    "none": lay.LINKS_NONE},
    territory_rule={"trunk_anchored": lay.TERRITORY_TRUNK, "peg_adjacent": lay.TERRITORY_PEG,
                    "go_area": lay.TERRITORY_GO, "smaller_side": lay.TERRITORY_SMALLER},
)
_END_TOKENS = kit.EndTokens(INFO)


def supply_per_player(size: int, players: int, rule: str) -> int:
    """Pieces each player has at the start, the peg included (M8).

    Two thirds of the board in all, split equally: round(2·size²/3 ÷ players), which gives every
    figure the seed and the rules notes quote (40/27/20 on 11×11, 85/57/43 on 16×16, 120/80/60 on 19×19).

    >>> [supply_per_player(n, 2, "two_thirds_total") for n in (11, 16, 19)]
    [40, 85, 120]
    >>> [supply_per_player(n, 3, "fixed_table") for n in (11, 16, 19)]
    [20, 43, 60]
    """
    if rule == "unlimited":
        return size * size
    return round(2 * size * size / (3 * (4 if rule == "fixed_table" else players)))


def start_points(size: int, players: int, layout_2p: str, midpoint: str) -> list[tuple[int, int]]:
    """The starting pegs' (row from the top, column), in seat order: clockwise from bottom-left (M7)."""
    bottom, top, right = size - 1, 0, size - 1
    middle = size // 2 if size % 2 else (size // 2 - 1 if midpoint == "left" else size // 2)
    if players == 2:
        return [(bottom, 0), (top, right) if layout_2p == "opposite" else (bottom, right)]
    if players == 3:
        return [(bottom, 0), (top, middle), (bottom, right)]
    return [(bottom, 0), (top, 0), (top, right), (bottom, right)]


class Mynd(kit.NamedCells, kit.SquareBoard, kit.PlyCapped, Game, kernels=k, evaluate=evaluate):
    """Mynd with its options fixed."""

    info = INFO
    state_length_at = lay.S_STATE_LEN
    plane_kinds = ("piece", "peg")

    @property
    def plane_marks(self) -> tuple[str, ...]:  # type: ignore[override]
        """With lock_on_enclose, each seat's banked points (``banked:<seat>``); else none."""
        if self.options["lock_on_enclose"]:
            return tuple(f"banked:{seat}" for seat in range(self.num_seats))
        return ()

    @property
    def num_distinct_actions(self) -> int:
        """A point places; ``cells + 4 * rear + direction`` pushes; ``5 * cells`` passes."""
        return 5 * len(self.cell_names()) + 1

    # max_decisions: one decision a ply; the ply cap (M9) ends the game (kit.PlyCapped).

    search_cutoff = 20

    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        if "ply_cap" not in given:
            resolved["ply_cap"] = 3 * int(resolved["size"]) ** 2
        players = int(resolved["players"])
        if int(resolved["first_player"]) >= players:
            raise OptionError(
                f"mynd: option first_player={resolved['first_player']} is not a seat of {players} players; "
                f"accepted: an integer from 0 to {players - 1}"
            )

    @property
    def num_seats(self) -> int:
        return int(self.options["players"])

    # -- board and tables -----------------------------------------------------------------------

    def build_spec(self) -> np.ndarray:
        size = self.size
        cells = self._cell_count = size * size
        self._since_text_cache: dict[int, str] = {}
        options = self.options
        ply_cap = int(options["ply_cap"])
        table = 1 << (2 * (ply_cap + 2) - 1).bit_length()
        spec = kit.SpecBuilder(lay.SPEC_HEADER)
        spec[lay.S_SIZE] = size
        spec[lay.S_CELLS] = cells
        spec[lay.S_PLAYERS] = self.num_seats
        spec[lay.S_SOWING] = options["sowing"]
        spec[lay.S_SOW_LIBERTY] = options["sowing_needs_liberty"]
        spec[lay.S_LIBERTY_DIRS] = int(str(options["liberty_neighbourhood"]))
        spec[lay.S_LINKS] = _CODES(options, "diagonal_links")
        spec[lay.S_PUSH_MODE] = _CODES(options, "push_mode")
        spec[lay.S_MAJORITY] = _CODES(options, "push_majority")
        spec[lay.S_SLIDE] = _CODES(options, "slide")
        spec[lay.S_TERRITORY] = _CODES(options, "territory_rule")
        spec[lay.S_NESTED] = _CODES(options, "nested")
        spec[lay.S_LOCK] = options["lock_on_enclose"]
        spec[lay.S_PUSH_PEGS] = options["push_pegs"]
        spec[lay.S_SUPERKO] = _CODES(options, "superko")
        spec[lay.S_PASS_LIMIT] = self.num_seats * (2 if options["end_on"] == "all_pass_twice" else 1)
        spec[lay.S_PLY_CAP] = ply_cap
        spec[lay.S_TABLE_MASK] = table - 1
        topology = self.topology
        rows = [row for row, _ in topology.coords]
        cols = [col for _, col in topology.coords]
        spec.table(topology.neighbours, at=lay.S_NEIGH)
        spec.table([int(row in (0, size - 1) or col in (0, size - 1)) for row, col in topology.coords], at=lay.S_EDGE)
        spec.table(rows, at=lay.S_ROW)
        spec.table(cols, at=lay.S_COL)
        rng = np.random.default_rng(0x6D796E64)  # one stream: keys, then the moments' weights and keys
        spec.table(kit.zobrist_keys(rng, lay.KEYS_PER_CELL * cells + 4), at=lay.S_KEYS)
        # Moments: a point weighs a*row + b*column, so a push shifts a run's weight by one constant.
        a, b = (int(x) for x in kit.zobrist_keys(rng, 2))
        moments = [_int64(a * row + b * col) for row, col in zip(rows, cols, strict=True)]
        spec.table([*moments, *kit.zobrist_keys(rng, 4), _int64(-a), _int64(b), _int64(a), _int64(-b)], at=lay.S_MOMENT)
        debruijn = [0] * 32
        for i in range(32):
            debruijn[(((1 << i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = i
        spec.table(debruijn, at=lay.S_DEBRUIJN)
        regions = lay.layout(size, self.num_seats, table, options["superko"] == "off", ply_cap)
        spec.fields(regions)
        # Go names: ``0`` is the top-left point, ``a11`` on 11×11.
        self.naming = kit.CellNaming.files_and_ranks(topology, COLUMNS)
        self._names = self.naming.names
        return spec.build()

    @property
    def cells(self) -> int:
        return self._cell_count

    @property
    def pass_action(self) -> int:
        return 5 * self.cells

    def seat_name(self, seat: int) -> str:
        return COLOURS[seat]

    @property
    def supply(self) -> int:
        """Pieces each player has at the start, the peg included."""
        return supply_per_player(self.size, self.num_seats, str(self.options["supply"]))

    # -- states ---------------------------------------------------------------------------------

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        options = self.options
        points = start_points(self.size, self.num_seats, str(options["start_layout_2p"]),
                              str(options["edge_midpoint"]))
        for seat, (row, col) in enumerate(points):
            data[lay.BOARD + row * self.size + col] = seat + 1 + lay.PEG
            data[lay.F_SUPPLY + seat] = self.supply - 1
        first = int(options["first_player"])
        data[kernel.TO_MOVE] = first
        data[lay.F_NEXT] = first
        k.rebuild(data, self.spec)
        key = k.position_key(data, self.spec, data[lay.F_HASH], first)
        k.remember(data, self.spec, key, data[lay.F_MOMENT], 0)
        return data

    # -- moves ----------------------------------------------------------------------------------

    def push_action(self, rear: int, direction: int) -> int:
        return self.cells + 4 * rear + direction

    def _push_text(self, rear: int, front: int, direction: int) -> str:
        run = self._names[rear] if rear == front else f"{self._names[rear]}-{self._names[front]}"
        return run + ARROWS[direction]

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        if action == self.pass_action:
            return "pass"
        if action < self.cells:
            return self._names[action]
        rear, direction = divmod(action - self.cells, 4)
        return self._push_text(rear, int(k.push_front(data, self.spec, rear, direction)), direction)

    def key_text(self, key: int) -> str:
        action, front = divmod(key, self.num_distinct_actions)[::-1]
        if front == 0:
            return self.action_text(np.empty(0, np.int64), (action,))
        rear, direction = divmod(action - self.cells, 4)
        return self._push_text(rear, front - 1, direction)

    def _point(self, text: str, name: str) -> int:
        cell = self.cell_index(name)
        if cell is None:
            last = f"{COLUMNS[self.size - 1]}{self.size}"
            if name[0] == "i":
                raise InvalidMove(f"{text!r}: there is no column i (as on a Go board, columns skip i; "
                                  f"points run from a1 to {last})")
            raise InvalidMove(f"{text!r}: no point {name} on this board (points run from a1 to {last})")
        return cell

    def _step(self, cell: int, direction: int) -> int:
        return int(self.spec[lay.SPEC_HEADER + cell * 8 + direction])

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip().lower()
        if word == "pass":
            return (self.pass_action,)
        match = _MOVE.fullmatch(word)
        if not match:
            raise InvalidMove(
                f"{text!r} is not a move; moves are a point such as d4 (a placement), a push written from "
                f"its rear piece to its front piece and a direction such as d4-d6^ or d4> (^ > v < or up, "
                f"right, down, left), or 'pass'"
            )
        first = self._point(text, match["a"])
        second = self._point(text, match["b"]) if match["b"] else None
        if match["dir"] is None and second is None:
            return (first,)
        if match["dir"] is not None:
            direction = _DIRECTION_WORDS[match["dir"]]
        else:
            assert second is not None
            direction = self._direction_between(text, first, second)
        rear = first
        if second is not None and match["dir"] is not None:
            rear = self._rear_of(text, first, second, direction)
        if data[lay.BOARD + rear] and second is not None:
            front = int(k.push_front(data, self.spec, rear, direction))
            named = second if rear == first else first
            if named != front and (match["dir"] is not None or named != self._step(front, direction)):
                raise InvalidMove(
                    f"{text!r}: the pieces pushed from {self._names[rear]} {_DIRECTION_NAMES[direction]} "
                    f"are {self._push_text(rear, front, direction)[:-1]} "
                    f"(write {self._push_text(rear, front, direction)})"
                )
        return (self.push_action(rear, direction),)

    def _direction_between(self, text: str, a: int, b: int) -> int:
        (ra, ca), (rb, cb) = divmod(a, self.size), divmod(b, self.size)
        if a != b and ca == cb:
            return 0 if rb < ra else 2
        if a != b and ra == rb:
            return 1 if cb > ca else 3
        raise InvalidMove(f"{text!r}: a push runs along a row or a column, between two different points")

    def _rear_of(self, text: str, a: int, b: int, direction: int) -> int:
        """Of two points on a line along ``direction``, the one at the back."""
        if a == b:
            return a
        along = self._direction_between(text, a, b)
        if along % 2 != direction % 2:
            raise InvalidMove(f"{text!r}: {self._names[a]} and {self._names[b]} are not on a line going "
                              f"{_DIRECTION_NAMES[direction]}")
        return a if along == direction else b

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        (action,) = path
        mover = int(data[kernel.TO_MOVE])
        colour = COLOURS[mover]
        if action < self.cells:
            return self._why_placement_illegal(data, action, mover)
        rear, direction = divmod(action - self.cells, 4)
        name = self._names[rear]
        if not data[lay.BOARD + rear]:
            return f"there is no piece on {name} to push"
        front = int(k.push_front(data, self.spec, rear, direction))
        text = self._push_text(rear, front, direction)
        run = text[:-1]
        if self._step(front, direction) < 0:
            return f"{run} would be pushed off the board"
        values = [int(data[lay.BOARD + c]) for c in self._line(rear, front, direction)]
        owners = [(v - 1) & 3 for v in values]
        behind = self._step(rear, k.opposite(direction))
        own_lone = owners[0] == mover and len(values) == 1
        if self.options["push_mode"] == "from_pusher":
            if owners[0] != mover:
                return f"the rear piece of a push must be {colour}'s (push_mode=from_pusher)"
        elif behind >= 0 and data[lay.BOARD + behind]:
            whole_rear = int(k.push_front(data, self.spec, rear, k.opposite(direction)))
            whole = self._push_text(whole_rear, front, direction)
            if self.options["slide"] == "any_own_piece" and own_lone:
                pass
            elif self.options["slide"] == "any_own_piece" and owners[0] == mover:
                return f"only an end piece may step out of its run (slide=any_own_piece); the whole run is {whole}"
            else:
                return f"the whole run moves (push_mode=whole_run): {whole}"
        mine = owners.count(mover)
        others = [owners.count(seat) for seat in range(self.num_seats) if seat != mover]
        if self.options["push_majority"] == "each_opponent":
            if mine <= max(others):
                return (f"{colour}'s pieces in {run} ({mine}) do not outnumber each other player's "
                        f"({max(others)}) (push_majority=each_opponent)")
        elif mine <= sum(others):
            return f"{colour}'s pieces in {run} ({mine}) do not outnumber the others' ({sum(others)})"
        if not self.options["push_pegs"] and any(v > lay.PEG for v in values):
            return f"{run} holds a starting peg, and pegs may not be pushed (push_pegs=false)"
        if self.options["lock_on_enclose"]:
            locks = int(self.spec[lay.S_LOCKS])
            for cell, seat in zip(self._line(rear, front, direction), owners, strict=True):
                lock = int(data[locks + self._step(cell, direction)])
                if lock and lock != seat + 1:
                    return f"{text} would move a piece onto territory banked by {COLOURS[lock - 1]} (lock_on_enclose)"
        return f"{text} would repeat an earlier position (superko={self.options['superko']})"

    def _why_placement_illegal(self, data: np.ndarray, cell: int, mover: int) -> str:
        name, colour = self._names[cell], COLOURS[mover]
        if data[lay.BOARD + cell]:
            return f"{name} is occupied"
        if data[lay.F_SUPPLY + mover] <= 0:
            return f"{colour} has no pieces left in hand (only pushes and passes)"
        lock = int(data[int(self.spec[lay.S_LOCKS]) + cell])
        if self.options["lock_on_enclose"] and lock and lock != mover + 1:
            return f"{name} is territory banked by {COLOURS[lock - 1]} (lock_on_enclose)"
        neighbourhood = self.options["liberty_neighbourhood"]
        if self.options["sowing"]:
            return f"a sown piece on {name} would have no empty neighbour (sowing_needs_liberty=true, " \
                   f"liberty_neighbourhood={neighbourhood})"
        neighbours = [self._step(cell, direction) for direction in range(8)]
        if not any(other >= 0 and data[lay.BOARD + other] and (data[lay.BOARD + other] - 1) & 3 == mover
                   for other in neighbours):
            return f"{name} is not next to a {colour} piece (diagonals count; sowing=false)"
        return f"a piece on {name} would have no empty neighbour (liberty_neighbourhood={neighbourhood})"

    def _reaches(self, rear: int, front: int, direction: int) -> bool:
        cell = rear
        while cell >= 0 and cell != front:
            cell = self._step(cell, direction)
        return cell == front and self._step(front, direction) >= 0

    def _line(self, rear: int, front: int, direction: int) -> list[int]:
        cells = [rear]
        while cells[-1] != front:
            cells.append(self._step(cells[-1], direction))
        return cells

    # -- territory ------------------------------------------------------------------------------

    def scores(self, data: np.ndarray) -> tuple[float, ...]:
        """Each seat's territory now (M5): empty points it would score if the game ended here."""
        work = data.copy()
        territory.territory_scores(work, self.spec)
        return tuple(float(work[kernel.SCORE + seat]) for seat in range(self.num_seats))

    def claims(self, data: np.ndarray) -> list[int]:
        """For every point, the seat it scores for now; -1 for none, -2 for a point several claim."""
        work = data.copy()
        if self.options["lock_on_enclose"]:
            locks = int(self.spec[lay.S_LOCKS])
            return [int(work[locks + cell]) - 1 for cell in range(self.cells)]
        territory.claim_territory(work, self.spec)
        claim = int(self.spec[lay.S_CLAIM])
        return [int(work[claim + cell]) if not work[lay.BOARD + cell] else lay.NO_CLAIM for cell in range(self.cells)]

    # -- position text --------------------------------------------------------------------------

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        values = data[lay.BOARD:lay.BOARD + self.cells]
        return np.where(values > 0, (values - 1) & 3, -1)

    def position_text(self, data: np.ndarray) -> str:
        size, cells = self.size, self.cells
        locked = bool(self.options["lock_on_enclose"])
        values = data[lay.BOARD: lay.BOARD + cells].tolist()
        locks = data[int(self.spec[lay.S_LOCKS]):][:cells].tolist() if locked else [0] * cells
        tokens = [self._point_token(value, lock) for value, lock in zip(values, locks, strict=True)]
        rows = [kit.write_row(tokens[row * size:(row + 1) * size]) for row in range(size)]
        fields = ["/".join(rows), LETTERS[int(data[lay.F_NEXT])].lower(), str(int(data[kernel.PLY]))]
        since = self._since_texts(data)
        if since:
            fields.append("since:" + ",".join(since))
        cuts = self._cut_texts(data)
        if cuts:
            fields.append("cut:" + ",".join(cuts))
        return " ".join(fields + _END_TOKENS.ended(data))

    @staticmethod
    def _point_token(value: int, lock: int) -> str:
        """A point in the position text: ``.`` empty, a banked point's owner in lower case, a piece's
        letter (``*`` after a peg, ``+`` where it stands on a banked point)."""
        if value == 0:
            return LETTERS[lock - 1].lower() if lock else "."
        return LETTERS[(value - 1) & 3] + ("*" if value > lay.PEG else "") + ("+" if lock else "")

    def _since_texts(self, data: np.ndarray) -> list[str]:
        start = int(self.spec[lay.S_SINCE])
        cache = self._since_text_cache
        texts = []
        for entry in data[start: start + int(data[lay.F_SINCE])].tolist():
            text = cache.get(entry)
            if text is None:
                action, front = divmod(entry, lay.FRONT)
                rear, direction = divmod(action - self.cells, 4)
                text = cache[entry] = "pass" if action == self.pass_action else self._push_text(rear, front, direction)
            texts.append(text)
        return texts

    def _cut_texts(self, data: np.ndarray) -> list[str]:
        if self.options["diagonal_links"] != "chrono_cut":
            return []
        cut = int(self.spec[lay.S_CUT])
        texts = []
        for block in np.flatnonzero(data[cut: cut + self.cells]).tolist():
            bits = int(data[cut + block])
            holders = [block, block + 1]  # the \ link starts top-left, the / link top-right
            letters = "".join(LETTERS[(int(data[lay.BOARD + holders[i]]) - 1) & 3] for i in range(2) if bits & (1 << i))
            texts.append(self._names[block + self.size] + letters)
        return texts

    def parse_position(self, text: str) -> np.ndarray:
        form = "'<rows separated by /> <b|w|r|g to move> <ply> [since:…] [cut:…] [end:<reason>]'"
        board_text, seat_text, ply_text, *flags = kit.position_fields(text, form, 3)
        data = self._blank()
        self._parse_board(data, board_text, text)
        seats = LETTERS[: self.num_seats].lower()
        if len(seat_text) != 1 or seat_text.lower() not in seats:
            raise PositionError(f"{text!r}: the player to move is {seat_text!r}; expected one of {', '.join(seats)}")
        ply, seat = kit.count_field(text, ply_text), seats.index(seat_text.lower())
        self._check_against_ply(data, ply, seat, text)
        data[kernel.PLY] = ply
        data[kernel.TO_MOVE] = seat
        data[lay.F_NEXT] = seat
        since: list[str] = []
        cuts: list[str] = []
        end, flags = _END_TOKENS.split(flags)
        for flag in flags:
            name, _, value = flag.partition(":")
            if name == "since" and value and not since:
                since = value.split(",")
            elif name == "cut" and value and not cuts:
                cuts = value.split(",")
            else:
                raise PositionError(f"{text!r}: unexpected {flag!r}; after the ply come since:<moves>, cut:<blocks> "
                                    f"and end:passes, end:ply-cap or end:repetition")
        k.rebuild(data, self.spec)
        self._set_cuts(data, cuts, text)
        self._set_history(data, since, text)
        self._set_outcome(data, end, text)
        return data

    def _parse_board(self, data: np.ndarray, board_text: str, text: str) -> None:
        size, players = self.size, self.num_seats
        rows = board_text.split("/")
        if len(rows) != size:
            raise PositionError(f"{text!r}: the board has {size} rows, not {len(rows)}")
        locked = bool(self.options["lock_on_enclose"])
        letters = LETTERS[:players]
        piece = re.compile(rf"([{letters}])(\*?)(\+?)")
        banked = re.compile(rf"[{letters.lower()}]")
        counts, pegs = [0] * players, [0] * players
        for row, row_text in enumerate(rows):
            label = size - row
            points: list[tuple[int, int]] = []  # (board value, lock)
            what = f"{text!r}: row {label}'s run of empty points"
            for token in kit.read_row(row_text, size * size, what, _POINT_TOKEN):
                if isinstance(token, int):
                    points.extend([(0, 0)] * token)
                elif (found := piece.fullmatch(token)) and (locked or not found[3]):
                    seat = letters.index(found[1])
                    points.append((seat + 1 + (lay.PEG if found[2] else 0), seat + 1 if found[3] else 0))
                    counts[seat] += 1
                    pegs[seat] += bool(found[2])
                elif locked and banked.fullmatch(token):
                    points.append((0, letters.lower().index(token) + 1))
                else:
                    extra = ", lower case for banked points and + after a banked piece" if locked else ""
                    raise PositionError(f"{text!r}: row {label} has {token!r}; rows use {', '.join(letters)} "
                                        f"(with * after a peg) and digits{extra}")
            if len(points) != size:
                raise PositionError(f"{text!r}: row {label} has {len(points)} points, not {size}")
            for col, (value, lock) in enumerate(points):
                data[lay.BOARD + row * size + col] = value
                data[int(self.spec[lay.S_LOCKS]) + row * size + col] = lock
        for seat in range(players):
            if pegs[seat] != 1:
                raise PositionError(f"{text!r}: {COLOURS[seat]} has {pegs[seat]} starting pegs; "
                                    f"each player has exactly one ({LETTERS[seat]}*)")
            if counts[seat] > self.supply:
                raise PositionError(f"{text!r}: {COLOURS[seat]} has {counts[seat]} pieces on the board, more than "
                                    f"the supply of {self.supply}")
            data[lay.F_SUPPLY + seat] = self.supply - counts[seat]

    def _check_against_ply(self, data: np.ndarray, ply: int, seat: int, text: str) -> None:
        """What the ply implies: play goes round the seats from ``first_player``, one decision a ply,
        and a piece beyond the starting peg needs a turn of its owner's to be placed."""
        players, first = self.num_seats, int(self.options["first_player"])
        expected = (first + ply) % players
        if seat != expected:
            raise PositionError(f"{text!r}: at ply {ply} it is {COLOURS[expected]} ({LETTERS[expected].lower()}) "
                                f"to move, not {COLOURS[seat]}; {COLOURS[first]} moves first")
        for owner in range(players):
            turns = (ply - (owner - first) % players + players - 1) // players
            placed = self.supply - int(data[lay.F_SUPPLY + owner]) - 1
            if placed > turns:
                raise PositionError(f"{text!r}: {COLOURS[owner]} has {placed + 1} pieces on the board, but has had "
                                    f"only {turns} turn{'s' if turns != 1 else ''} by ply {ply} (one piece placed "
                                    f"a turn, besides the starting peg)")

    def _set_cuts(self, data: np.ndarray, tokens: list[str], text: str) -> None:
        if tokens and self.options["diagonal_links"] != "chrono_cut":
            raise PositionError(f"{text!r}: cut links are recorded only with diagonal_links=chrono_cut")
        cut, size = int(self.spec[lay.S_CUT]), self.size
        for block in range(self.cells):
            inside = block % size < size - 1 and block // size < size - 1
            if inside and territory.block_links(data, self.spec, block) >= 4:
                data[cut + block] = 3  # unless listed: as if both links were made in one move
        for token in tokens:
            match = re.fullmatch(rf"({_POINT})([A-Z]{{1,2}})", token)
            lower_left = self.cell_index(match[1]) if match else None
            if match is None or lower_left is None or lower_left < size or lower_left % size == size - 1:
                raise PositionError(f"{text!r}: cut {token!r} is not a 2×2 block (named by its lower-left point) "
                                    f"followed by the letters of the players whose link there is cut")
            block = lower_left - size
            if territory.block_links(data, self.spec, block) < 4:
                raise PositionError(f"{text!r}: cut {token!r}: no two links cross in the block at {match[1]}")
            holders = {LETTERS[(int(data[lay.BOARD + block + i]) - 1) & 3]: 1 << i for i in range(2)}
            if any(letter not in holders for letter in match[2]):
                raise PositionError(f"{text!r}: cut {token!r}: the links there are {' and '.join(holders)}'s")
            data[cut + block] = sum(holders[letter] for letter in set(match[2]))

    def _set_history(self, data: np.ndarray, tokens: list[str], text: str) -> None:
        """Rebuild the positions since the last placement from the ``since:`` moves, walking back."""
        boards = [data[lay.BOARD: lay.BOARD + self.cells].copy()]
        actions = []
        for token in reversed(tokens):
            board = boards[-1].copy()
            if token == "pass":
                actions.append(self.pass_action * lay.FRONT)
                boards.append(board)
                continue
            push = _SINCE_PUSH.fullmatch(token)
            rear = self.cell_index(push[1]) if push else None
            front = self.cell_index(push[2] or push[1]) if push else None
            direction = ARROWS.index(push[3]) if push else 0
            if rear is None or front is None or not self._reaches(rear, front, direction):
                raise PositionError(f"{text!r}: since: {token!r} is not a pass or a push (d4-d6^) on this board")
            action = self.push_action(rear, direction)
            line = self._line(rear, front, direction)
            if board[rear] or any(board[self._step(cell, direction)] == 0 for cell in line):
                raise PositionError(f"{text!r}: since: the push {token} does not fit the board it led to")
            for cell in line:
                board[cell] = board[self._step(cell, direction)]
            board[self._step(front, direction)] = 0
            actions.append(action * lay.FRONT + front)
            boards.append(board)
        since = int(self.spec[lay.S_SINCE])
        actions.reverse()
        boards.reverse()
        data[lay.F_SINCE] = len(actions)
        data[since: since + len(actions)] = actions
        data[lay.F_PUSHES] = sum(action != self.pass_action * lay.FRONT for action in actions)
        data[lay.F_PASSES] = len(tokens) - len(list(_strip_passes(tokens)))
        players = self.num_seats
        for index, board in enumerate(boards):
            board_hash, moment = k.board_signature(data, self.spec, board)
            seat = (int(data[lay.F_NEXT]) - (len(boards) - 1 - index)) % players
            key = k.position_key(data, self.spec, board_hash, seat)
            if k.remember(data, self.spec, key, moment, index) >= 3 and index < len(boards) - 1:
                raise PositionError(f"{text!r}: since: a position occurs a third time before the end")

    def _set_outcome(self, data: np.ndarray, end: int | None, text: str) -> None:
        ply, cap = int(data[kernel.PLY]), int(self.options["ply_cap"])
        passes, limit = int(data[lay.F_PASSES]), int(self.spec[lay.S_PASS_LIMIT])
        if end is None:
            if ply >= cap:
                raise PositionError(f"{text!r}: ply {ply} is not before the ply cap {cap}; add end:ply-cap")
            if passes >= limit:
                raise PositionError(f"{text!r}: {passes} passes in succession end the game; add end:passes")
            return
        if end == lay.REASON_PLY_CAP and ply != cap:
            raise PositionError(f"{text!r}: end:ply-cap, but ply {ply} is not the ply cap {cap}")
        if end == lay.REASON_PASSES and passes < limit:
            raise PositionError(f"{text!r}: end:passes, but only {passes} passes end the since: list "
                                f"({limit} needed)")
        if end == lay.REASON_REPETITION and self.options["superko"] != "off":
            raise PositionError(f"{text!r}: end:repetition happens only with superko=off")
        territory.finish(data, self.spec, end)

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """The board with Go coordinates: ``B W R G`` pieces, ``*`` after a peg, ``.`` empty points
        (with lock_on_enclose, banked empty points in lower case), and the pieces in hand."""
        return self._draw(view.data, self.claims(view.data) if self.options["lock_on_enclose"] else None)

    def render_territory(self, view: View) -> str:
        """The board with the territory each player would score now in lower case (``?``: claimed by
        several, scoring for nobody), and the scores."""
        scores = self.scores(view.data)
        line = ", ".join(f"{COLOURS[seat]} {int(score)}" for seat, score in enumerate(scores))
        return self._draw(view.data, self.claims(view.data)) + f"\nterritory now: {line}"

    def _draw(self, data: np.ndarray, claims: list[int] | None) -> str:
        size = self.size
        header = "   " + " ".join(COLUMNS[:size])
        lines = [header]
        for row in range(size):
            text = f"{size - row:>2} "
            for cell in range(row * size, row * size + size):
                value = int(data[lay.BOARD + cell])
                if value:
                    text += LETTERS[(value - 1) & 3] + ("*" if value > lay.PEG else " ")
                elif claims is not None and claims[cell] >= 0:
                    text += LETTERS[claims[cell]].lower() + " "
                elif claims is not None and claims[cell] == lay.VOID:
                    text += "? "
                else:
                    text += ". "
            lines.append(text.rstrip())
        lines.append(header)
        lines.append(", ".join(f"{COLOURS[seat]} {int(data[lay.F_SUPPLY + seat])} in hand"
                               for seat in range(self.num_seats)))
        return "\n".join(lines)


    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_contents(self, view: View) -> list[CellContent]:
        """Each point with its piece (kind ``peg`` for a starting peg; colour and seat alike); with
        lock_on_enclose, a banked point (or piece) is marked ``banked:<seat>``."""
        data = view.data
        values = data[lay.BOARD: lay.BOARD + self.cells].tolist()
        locked = bool(self.options["lock_on_enclose"])
        locks = data[int(self.spec[lay.S_LOCKS]):][: self.cells].tolist() if locked else [0] * self.cells
        contents = []
        for name, value, lock in zip(self._names, values, locks, strict=True):
            seat = (value - 1) & 3
            pieces = (Piece(seat, seat, "peg" if value > lay.PEG else "piece"),) if value else ()
            contents.append(CellContent(name, pieces, frozenset({f"banked:{lock - 1}"} if lock else ())))
        return contents

    def trunks(self, view: View) -> list[tuple[str, ...]]:
        """Each seat's trunk (M5): the points of its pieces joined to its peg (diagonally where the link walls)."""
        work = view.data.copy()
        trunk = int(self.spec[lay.S_TRUNK])
        work[trunk: trunk + self.cells] = 0
        for seat in range(self.num_seats):
            territory._mark_trunk(work, self.spec, seat)
        stamps = work[trunk: trunk + self.cells].tolist()
        return [tuple(self._names[c] for c, stamp in enumerate(stamps) if stamp == seat + 1)
                for seat in range(self.num_seats)]

    def in_hand(self, data: np.ndarray) -> tuple[int, ...]:
        """Pieces each seat still has to place."""
        return tuple(int(data[lay.F_SUPPLY + seat]) for seat in range(self.num_seats))

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """A placement is its point; a push is its rear piece, then the point that piece moves to
        (the next point in the push's direction); ``pass`` is a button."""
        if len(path) != 1 or not 0 <= path[0] <= self.pass_action:
            return ()
        action = path[0]
        if action == self.pass_action:
            return ("pass",)
        if action < self.cells:
            return (self._names[action],)
        rear, direction = divmod(action - self.cells, 4)
        to = self._step(rear, direction)
        return () if to < 0 else (self._names[rear], self._names[to])

    def click_text(self, data: np.ndarray, steps: tuple[str, ...]) -> str:
        """A push's two points as the notation writes it: the rear piece and the direction (``d4^``)."""
        if len(steps) == 2:
            rear, to = self.cell_index(steps[0]), self.cell_index(steps[1])
            for direction in range(4):
                if rear is not None and to is not None and self._step(rear, direction) == to:
                    return steps[0] + ARROWS[direction]
        return super().click_text(data, steps)


def _int64(value: int) -> int:
    """``value`` wrapped to a signed 64-bit integer, as the kernels' arithmetic wraps."""
    return (value + 2**63) % 2**64 - 2**63


def _strip_passes(tokens: list[str]) -> list[str]:
    """``tokens`` without its trailing passes."""
    end = len(tokens)
    while end and tokens[end - 1] == "pass":
        end -= 1
    return tokens[:end]
