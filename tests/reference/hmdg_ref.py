"""A deliberately plain Hidden Move Double Gomoku referee, written from the seed's text, to check the kernel.

No tables, no counters: the board is two dicts of point -> "hidden"/"revealed", and every five is
found by looking at every run of points on the board each time. The rules (seed 002 and
``rules-notes.md`` §4): pie setup (H7); commit and announce a line, the responder reveals any of
their hidden stones on it, the target is revealed if anything was, a revealed stone on it makes the
move fail (H1, H4); revealed points are closed, a target holds none of the mover's stones (H2);
stacks (H3); two fives sharing at most one point win (H5); new fives are announced (H6); a mover
without a target passes, two passes draw (H8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

ROWS = "abcdefghjklm"
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass
class RefGame:
    size: int = 9
    length: int = 5
    lines_needed: int = 2
    max_shared: int = 1
    overline_counts: bool = True
    announce: str = "every_new_segment"
    reveal_at_end: str = "winner"
    setup: str = "pie"
    allow_own_stack: bool = False
    reveal_stack_partner: bool = False
    no_target: str = "pass"
    stones: dict[str, dict[tuple[int, int], str]] = field(default_factory=lambda: {"x": {}, "o": {}})
    phase: str = "setup"
    x_seat: int | None = None
    mover: str = "o"
    target: tuple[int, int] | None = None
    line: tuple[str, int] | None = None  # ("row", r) or ("col", c)
    passes: int = 0
    announced_five: dict[str, bool] = field(default_factory=lambda: {"x": False, "o": False})
    last_fives: int = 0
    hidden_count: dict[str, int] = field(default_factory=lambda: {"x": 0, "o": 0})
    result: tuple[float, float] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if self.setup == "fixed":
            centre = (self.size - 1) // 2
            self.stones["x"][(centre, centre)] = "revealed"
            self.x_seat, self.phase = 1, "commit"

    # -- names ----------------------------------------------------------------------------------

    def name(self, point: tuple[int, int]) -> str:
        return f"{ROWS[point[0]]}{point[1] + 1}"

    def line_points(self, line: tuple[str, int]) -> list[tuple[int, int]]:
        kind, index = line
        return [(index, j) if kind == "row" else (j, index) for j in range(self.size)]

    @property
    def points(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.size) for c in range(self.size)]

    def seat_of(self, colour: str) -> int:
        assert self.x_seat is not None
        return self.x_seat if colour == "x" else 1 - self.x_seat

    @property
    def to_move(self) -> int | None:
        if self.result is not None:
            return None
        if self.phase == "setup":
            return 0
        if self.phase == "choose":
            return 1
        other = "o" if self.mover == "x" else "x"
        return self.seat_of(self.mover if self.phase == "commit" else other)

    # -- rules ----------------------------------------------------------------------------------

    def closed(self, point: tuple[int, int]) -> bool:
        return any(self.stones[c].get(point) == "revealed" for c in "xo")

    def legal(self) -> list[str]:
        """Every legal move, in the kernel's notation."""
        if self.result is not None:
            return []
        if self.phase == "setup":
            return [self.name(p) for p in self.points]
        if self.phase == "choose":
            return ["x", "o"]
        if self.phase == "commit":
            own = self.stones[self.mover]
            targets = [p for p in self.points if not self.closed(p)
                       and (p not in own or (self.allow_own_stack and own[p] == "hidden"))]
            if not targets:
                return ["pass"]
            return [f"{self.name(p)}/{kind}" for p in targets for kind in ("row", "col")]
        responder = "o" if self.mover == "x" else "x"
        assert self.line is not None
        mine = [p for p in self.line_points(self.line) if self.stones[responder].get(p) == "hidden"]
        moves = []
        for size in range(len(mine) + 1):
            for chosen in combinations(mine, size):
                moves.append("reveal " + " ".join(self.name(p) for p in chosen) if chosen else "none")
        return moves

    def play(self, move: str) -> None:
        assert move in self.legal(), move
        if self.phase == "setup":
            point = (ROWS.index(move[0]), int(move[1:]) - 1)
            self.stones["x"][point] = "revealed"
            self.phase = "choose"
        elif self.phase == "choose":
            self.x_seat = 1 if move == "x" else 0
            self.phase, self.mover = "commit", "o"
        elif move == "pass":
            self.passes += 1
            self.last_fives = 0
            if self.no_target == "draw":
                self.finish(None, "no target")
            elif self.passes == 2:
                self.finish(None, "passes")
            else:
                self.mover = "o" if self.mover == "x" else "x"
        elif self.phase == "commit":
            cell, kind = move.split("/")
            self.target = (ROWS.index(cell[0]), int(cell[1:]) - 1)
            self.line = (kind, self.target[0] if kind == "row" else self.target[1])
            self.phase = "respond"
        else:
            self.respond(move)

    def respond(self, move: str) -> None:
        mover, responder = self.mover, ("o" if self.mover == "x" else "x")
        shown = [(ROWS.index(w[0]), int(w[1:]) - 1) for w in move.split()[1:]]
        assert self.target is not None
        target = self.target
        for point in shown:
            self.stones[responder][point] = "revealed"
            self.hidden_count[responder] -= 1
            if self.reveal_stack_partner and self.stones[mover].get(point) == "hidden":
                self.stones[mover][point] = "revealed"
                self.hidden_count[mover] -= 1
        before = self.fives(mover)
        landed = False
        if not shown:
            self.hidden_count[mover] += 1
            self.stones[mover].setdefault(target, "hidden")
            landed = True
        elif target not in shown:
            self.stones[mover][target] = "revealed"
            if self.reveal_stack_partner and self.stones[responder].get(target) == "hidden":
                self.stones[responder][target] = "revealed"
                self.hidden_count[responder] -= 1
            landed = True
        new = len(self.fives(mover) - before) if landed else 0
        if self.announce == "none" or (self.announce == "first_five_only" and self.announced_five[mover]):
            self.last_fives = 0
        else:
            self.last_fives = new
        if self.last_fives:
            self.announced_five[mover] = True
        self.passes = 0
        self.target, self.line = None, None
        if new and self.wins(mover):
            self.finish(mover, "lines")
        else:
            self.phase, self.mover = "commit", responder

    def fives(self, colour: str) -> set[frozenset[tuple[int, int]]]:
        """Every five of ``colour``: runs of ``length`` of its stones (with overline_counts=false,
        only runs not continued by another of its stones at either end)."""
        own = self.stones[colour]
        found = set()
        for start in self.points:
            for dr, dc in DIRECTIONS:
                run = [(start[0] + i * dr, start[1] + i * dc) for i in range(self.length)]
                if not all(0 <= r < self.size and 0 <= c < self.size and (r, c) in own for r, c in run):
                    continue
                if not self.overline_counts:
                    before = (start[0] - dr, start[1] - dc)
                    after = (run[-1][0] + dr, run[-1][1] + dc)
                    if before in own or after in own:
                        continue
                found.add(frozenset(run))
        return found

    def wins(self, colour: str) -> bool:
        fives = list(self.fives(colour))
        for chosen in combinations(fives, self.lines_needed):
            if all(len(a & b) <= self.max_shared for a, b in combinations(chosen, 2)):
                return True
        return False

    def finish(self, winner: str | None, reason: str) -> None:
        self.reason = reason
        for colour in "xo":
            if self.reveal_at_end == "all" or colour == winner:
                for point in self.stones[colour]:
                    self.stones[colour][point] = "revealed"
                self.hidden_count[colour] = 0
        if winner is None:
            self.result = (0.5, 0.5)
        else:
            self.result = (1.0, 0.0) if self.seat_of(winner) == 0 else (0.0, 1.0)


def reference_for(game: boardlab.Game) -> RefGame:
    options = dict(game.options)
    options["length"] = options.pop("line_length")
    return RefGame(**options)


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(move, move) for move in self.ref.legal()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(reference_for(game))
