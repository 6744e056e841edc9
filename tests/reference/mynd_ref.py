"""A deliberately plain Mynd referee, written from the seed's text and the rules notes, to check the kernel.

No bitboards, no incremental hashes, no "only since the last placement" shortcut: the board is a dict
keyed by ``(x, y)`` (column from the left, row from the bottom, as Go players count), every legal
push is found by trying each piece in each direction, superko looks at every earlier position of
the game, and cut links are found by comparing every 2x2 block before and after each move.

The rules (seed 000, ``rules-notes.md`` §2): grow next to an own piece (diagonals too) where the new
piece has an empty neighbour (M2); sow anywhere with ``sowing`` (M1); push a run along a row or
column one point if the mover's pieces in it outnumber the others' and none leaves the board (M4,
M10); the older of two crossing diagonal links is cut (M3); territory by the rule chosen (M5, M6);
passing, superko, the end and the ply cap (M9).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardlab.games.mynd.face import supply_per_player
from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

COLUMNS = "abcdefghjklmnopqrstuvwxyz"
LETTERS = "BWRG"
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))  # up, right, down, left: the directions ^ > v <
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
ARROWS = "^>v<"

Point = tuple[int, int]


@dataclass
class Piece:
    seat: int
    peg: bool = False


@dataclass
class RefGame:
    size: int = 11
    players: int = 2
    supply: int = 40
    sowing: bool = False
    sowing_needs_liberty: bool = False
    liberty: int = 8
    links: str = "chrono_cut"
    push_mode: str = "whole_run"
    majority: str = "combined"
    slide: str = "run_of_one"
    push_pegs: bool = True
    territory: str = "trunk_anchored"
    nested: str = "void"
    lock: bool = False
    superko: str = "positional"
    pass_limit: int = 2
    ply_cap: int = 363
    pegs: list[Point] = field(default_factory=list)
    first: int = 0
    board: dict[Point, Piece | None] = field(default_factory=dict)
    hand: list[int] = field(default_factory=list)
    cuts: dict[tuple[Point, int], bool] = field(default_factory=dict)  # (block's lower-left, diagonal)
    locks: dict[Point, int] = field(default_factory=dict)
    seat: int = 0
    ply: int = 0
    passes: int = 0
    history: list[tuple] = field(default_factory=list)
    result: tuple[float, ...] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        self.board = {(x, y): None for x in range(self.size) for y in range(1, self.size + 1)}
        for seat, point in enumerate(self.pegs):
            self.board[point] = Piece(seat, peg=True)
        self.hand = [self.supply - 1] * self.players
        self.seat = self.first
        self.history = [self.key(self.board, self.seat)]

    # -- geometry -------------------------------------------------------------------------------

    def name(self, point: Point) -> str:
        return f"{COLUMNS[point[0]]}{point[1]}"

    def on_board(self, point: Point) -> bool:
        return point in self.board

    def owner(self, point: Point) -> int | None:
        piece = self.board.get(point)
        return None if piece is None else piece.seat

    def key(self, board: dict, seat: int) -> tuple:
        stones = tuple(sorted((p, (v.seat, v.peg)) for p, v in board.items() if v is not None))
        return (stones, seat) if self.superko != "positional" else (stones,)

    # -- moves ----------------------------------------------------------------------------------

    def legal(self) -> list[str]:
        if self.result is not None:
            return []
        moves = [self.name(p) for p in sorted(self.board) if self.can_place(p)]
        for point in sorted(self.board):
            for direction in range(4):
                segment = self.can_push(point, direction)
                if segment is not None:
                    moves.append(self.push_text(segment, direction))
        return [*moves, "pass"]

    def can_place(self, point: Point) -> bool:
        if self.hand[self.seat] == 0 or self.board[point] is not None:
            return False
        if self.locks.get(point, self.seat) != self.seat:
            return False
        steps = ORTHOGONAL + (DIAGONAL if self.liberty == 8 else ())
        free = any(self.on_board(q) and self.board[q] is None for q in self.around(point, steps))
        grows = any(self.owner(q) == self.seat for q in self.around(point, ORTHOGONAL + DIAGONAL))
        if grows and free:
            return True
        return self.sowing and (free or not self.sowing_needs_liberty)

    def around(self, point: Point, steps: tuple) -> list[Point]:
        return [(point[0] + dx, point[1] + dy) for dx, dy in steps]

    def segment_from(self, rear: Point, direction: int) -> list[Point]:
        dx, dy = ORTHOGONAL[direction]
        points = [rear]
        while self.owner((points[-1][0] + dx, points[-1][1] + dy)) is not None:
            points.append((points[-1][0] + dx, points[-1][1] + dy))
        return points

    def can_push(self, rear: Point, direction: int) -> list[Point] | None:
        """The pieces the push from ``rear`` moves, if it is legal."""
        if self.board[rear] is None:
            return None
        dx, dy = ORTHOGONAL[direction]
        segment = self.segment_from(rear, direction)
        if not self.on_board((segment[-1][0] + dx, segment[-1][1] + dy)):
            return None
        behind = (rear[0] - dx, rear[1] - dy)
        mine = self.owner(rear) == self.seat
        if self.push_mode == "from_pusher":
            allowed = mine and self.outnumbers(segment)
        else:
            whole = self.owner(behind) is None and self.outnumbers(segment)
            slide = self.slide == "any_own_piece" and mine and len(segment) == 1
            allowed = whole or slide
        if not allowed:
            return None
        if not self.push_pegs and any(self.board[p].peg for p in segment):  # type: ignore[union-attr]
            return None
        after = self.pushed(segment, direction)
        if self.lock and any(self.locks.get((p[0] + dx, p[1] + dy), self.board[p].seat)  # type: ignore[union-attr]
                             != self.board[p].seat for p in segment):  # type: ignore[union-attr]
            return None
        if self.superko != "off" and self.key(after, (self.seat + 1) % self.players) in self.history:
            return None
        return segment

    def outnumbers(self, segment: list[Point]) -> bool:
        counts = [sum(self.owner(p) == seat for p in segment) for seat in range(self.players)]
        mine = counts.pop(self.seat)
        return mine > (max(counts) if self.majority == "each_opponent" else sum(counts))

    def pushed(self, segment: list[Point], direction: int) -> dict:
        dx, dy = ORTHOGONAL[direction]
        board = dict(self.board)
        for point in segment:
            board[point] = None
        for point in segment:
            board[(point[0] + dx, point[1] + dy)] = self.board[point]
        return board

    def push_text(self, segment: list[Point], direction: int) -> str:
        run = self.name(segment[0]) if len(segment) == 1 else f"{self.name(segment[0])}-{self.name(segment[-1])}"
        return run + ARROWS[direction]

    def play(self, move: str) -> None:
        assert move in self.legal(), move
        old = dict(self.board)
        if move == "pass":
            self.passes += 1
        elif move[-1] in ARROWS:
            direction = ARROWS.index(move[-1])
            rear = next(p for p in self.board if move.startswith(self.name(p)) and
                        move[len(self.name(p))] in "-" + ARROWS)
            self.board = self.pushed(self.segment_from(rear, direction), direction)
            self.passes = 0
        else:
            point = next(p for p in self.board if self.name(p) == move)
            self.board[point] = Piece(self.seat)
            self.hand[self.seat] -= 1
            self.passes = 0
        self.update_cuts(old)
        if self.lock and move != "pass":
            for point, seat in self.claims().items():
                if seat >= 0:
                    self.locks.setdefault(point, seat)
        self.ply += 1
        self.seat = (self.seat + 1) % self.players
        key = self.key(self.board, self.seat)
        repeats = self.history.count(key)
        self.history.append(key)
        if self.passes >= self.pass_limit:
            self.finish("passes")
        elif self.superko == "off" and repeats >= 2:
            self.finish("repetition")
        elif self.ply >= self.ply_cap:
            self.finish("ply cap")

    # -- diagonal links -------------------------------------------------------------------------

    def diagonal_links(self, board: dict, corner: Point) -> dict[int, int]:
        """The links in the 2x2 block whose lower-left point is ``corner``: diagonal 0 runs from the
        lower-left to the upper-right point, 1 from the upper-left to the lower-right; seat per link."""
        x, y = corner
        found = {}
        for diagonal, (a, b) in enumerate((((x, y), (x + 1, y + 1)), ((x, y + 1), (x + 1, y)))):
            pa, pb = board[a], board[b]
            if pa is not None and pb is not None and pa.seat == pb.seat:
                found[diagonal] = pa.seat
        return found

    def crossed(self, board: dict, corner: Point) -> bool:
        links = self.diagonal_links(board, corner)
        return len(links) == 2 and links[0] != links[1]

    def update_cuts(self, old: dict) -> None:
        for x in range(self.size - 1):
            for y in range(1, self.size):
                corner = (x, y)
                if not self.crossed(self.board, corner):
                    self.cuts.pop((corner, 0), None)
                    self.cuts.pop((corner, 1), None)
                elif not self.crossed(old, corner):
                    before = self.diagonal_links(old, corner)
                    for diagonal in (0, 1):
                        if not before or diagonal in before:
                            self.cuts[(corner, diagonal)] = True

    def walls(self, corner: Point, diagonal: int) -> bool:
        """Whether the link on ``diagonal`` of the block at ``corner`` walls (it exists)."""
        if self.links == "always":
            return True
        if self.links == "none":
            return False
        if self.links == "mutual_cut":
            return not self.crossed(self.board, corner)
        return (corner, diagonal) not in self.cuts

    def diagonal_step(self, a: Point, b: Point) -> tuple[Point, int, Point, Point]:
        """For diagonal neighbours a, b: their block's lower-left point, the diagonal a-b is on,
        and the block's two other points."""
        corner = (min(a[0], b[0]), min(a[1], b[1]))
        on_zero = (a[0] - b[0]) == (a[1] - b[1])
        return corner, 0 if on_zero else 1, (a[0], b[1]), (b[0], a[1])

    # -- territory ------------------------------------------------------------------------------

    def trunk(self, seat: int) -> set[Point]:
        peg = next(p for p, v in self.board.items() if v is not None and v.peg and v.seat == seat)
        seen, todo = {peg}, [peg]
        while todo:
            point = todo.pop()
            for q in self.around(point, ORTHOGONAL + DIAGONAL):
                if q in seen or self.owner(q) != seat:
                    continue
                if q[0] != point[0] and q[1] != point[1]:
                    corner, diagonal, u, v = self.diagonal_step(point, q)
                    if self.owner(u) != seat and self.owner(v) != seat and not self.walls(corner, diagonal):
                        continue
                seen.add(q)
                todo.append(q)
        return seen

    def regions(self, seat: int) -> list[set[Point]]:
        left = {p for p in self.board if self.owner(p) != seat}
        found = []
        while left:
            start = min(left)
            region, todo = {start}, [start]
            while todo:
                point = todo.pop()
                for q in self.around(point, ORTHOGONAL + DIAGONAL):
                    if q not in left or q in region:
                        continue
                    if q[0] != point[0] and q[1] != point[1]:
                        corner, diagonal, u, v = self.diagonal_step(point, q)
                        if self.owner(u) != seat or self.owner(v) != seat:
                            continue  # an open side: q is reached through it
                        if self.walls(corner, 1 - diagonal):
                            continue
                    region.add(q)
                    todo.append(q)
            left -= region
            found.append(region)
        return found

    def counts_for(self, seat: int, region: set[Point], trunk: set[Point], largest: int) -> bool:
        pieces = [self.board[p] for p in region if self.board[p] is not None]
        if self.territory == "go_area":
            return not pieces
        if self.territory == "smaller_side":
            return len(region) < largest
        edge = any(p[0] in (0, self.size - 1) or p[1] in (1, self.size) for p in region)
        if not edge:
            return True
        if any(piece.peg for piece in pieces):  # type: ignore[union-attr]
            return False
        beside = {q for p in region for q in self.around(p, ORTHOGONAL)}
        if self.territory == "peg_adjacent":
            return any(self.board.get(q) is not None and self.board[q].peg and  # type: ignore[union-attr]
                       self.board[q].seat == seat for q in beside)  # type: ignore[union-attr]
        return bool(beside & trunk)

    def claims(self) -> dict[Point, int]:
        """Every empty point's scorer now: a seat, -1 for none, -2 for several (void)."""
        claimants: dict[Point, list[tuple[int, int]]] = {p: [] for p in self.board if self.board[p] is None}
        for seat in range(self.players):
            trunk = self.trunk(seat)
            regions = self.regions(seat)
            largest = max(len(r) for r in regions) if regions else 0
            for region in regions:
                if self.counts_for(seat, region, trunk, largest):
                    for point in region:
                        if point in claimants:
                            claimants[point].append((len(region), seat))
        result = {}
        for point, claims in claimants.items():
            if not claims:
                result[point] = -1
            elif self.nested == "void":
                result[point] = claims[0][1] if len(claims) == 1 else -2
            else:
                smallest = min(size for size, _ in claims)
                inner = [seat for size, seat in claims if size == smallest]
                result[point] = inner[0] if len(inner) == 1 else -2
        return result

    def scores(self) -> tuple[float, ...]:
        if self.lock:
            return tuple(float(sum(s == seat for s in self.locks.values())) for seat in range(self.players))
        claims = self.claims()
        return tuple(float(sum(s == seat for s in claims.values())) for seat in range(self.players))

    def finish(self, reason: str) -> None:
        self.reason = reason
        if reason == "repetition":
            self.result = tuple(0.5 for _ in range(self.players))
            return
        scores = self.scores()
        top = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == top]
        share = 1.0 if len(winners) == 1 else 0.5
        self.result = tuple(share if seat in winners else 0.0 for seat in range(self.players))

    # -- the kernel's position text, first field ------------------------------------------------

    def board_text(self) -> str:
        rows = []
        for y in range(self.size, 0, -1):
            text = ""
            for x in range(self.size):
                piece = self.board[(x, y)]
                lock = self.locks.get((x, y)) if self.lock else None
                if piece is None:
                    text += "." if lock is None else LETTERS[lock].lower()
                else:
                    text += LETTERS[piece.seat] + ("*" if piece.peg else "") + ("+" if lock is not None else "")
            rows.append(text)
        return "/".join(rows)


def start_points(size: int, players: int, layout: str, midpoint: str) -> list[tuple[int, int]]:
    """Where the pegs start, in the reference's (column, row from the bottom), from rules-notes M7."""
    left, right, bottom, top = 0, size - 1, 1, size
    middle = size // 2 if size % 2 else (size // 2 - 1 if midpoint == "left" else size // 2)
    if players == 2:
        return [(left, bottom), (right, top) if layout == "opposite" else (right, bottom)]
    if players == 3:
        return [(left, bottom), (middle, top), (right, bottom)]
    return [(left, bottom), (left, top), (right, top), (right, bottom)]


def reference_for(game: boardlab.Game) -> RefGame:
    o = game.options
    size, players = int(o["size"]), int(o["players"])
    return RefGame(
        size=size, players=players, supply=supply_per_player(size, players, str(o["supply"])),
        sowing=bool(o["sowing"]), sowing_needs_liberty=bool(o["sowing_needs_liberty"]),
        liberty=int(str(o["liberty_neighbourhood"])), links=str(o["diagonal_links"]), push_mode=str(o["push_mode"]),
        majority=str(o["push_majority"]), slide=str(o["slide"]), push_pegs=bool(o["push_pegs"]),
        territory=str(o["territory_rule"]), nested=str(o["nested"]), lock=bool(o["lock_on_enclose"]),
        superko=str(o["superko"]), pass_limit=players * (2 if o["end_on"] == "all_pass_twice" else 1),
        ply_cap=int(o["ply_cap"]), first=int(o["first_player"]),
        pegs=start_points(size, players, str(o["start_layout_2p"]), str(o["edge_midpoint"])),
    )


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(move, move) for move in self.ref.legal()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(reference_for(game))
