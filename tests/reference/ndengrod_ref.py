"""A deliberately plain Ndengrod referee, written from the seed's text, to check the fast kernel.

No incremental bookkeeping, no hashing: the board is a dict, groups are found by search each time.
The rules (seed 001 and ``rules-notes.md`` §3): place on an empty cell; remove enemy groups without
freedom, then the mover's own (N1); a line of ``length`` or more wins (N2, N3); threefold repetition
and the ply cap draw (N6, added); swap (N5); with ``self_capture=False`` a placement whose group has no
freedom after the enemy removals is illegal, and a player with no placement passes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

AXES = ((0, 1), (1, 1), (1, 0))


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, d = cell
    return [(r + dr, d + dd) for dr, dd in ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))]


@dataclass
class RefGame:
    cells: list[tuple[int, int]]
    length: int = 5
    self_capture: bool = True
    win_check: str = "after_captures"
    swap: bool = False
    repetition: str = "draw"
    ply_cap: int = 300
    board: dict[tuple[int, int], int] = field(default_factory=dict)
    colour: int = 1  # 1 = x, 2 = o
    swapped: bool = False
    ply: int = 0
    passes: int = 0
    history: list[tuple] = field(default_factory=list)
    result: tuple[float, float] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        self.board = {cell: 0 for cell in self.cells}
        self.history = [self.key()]

    def key(self) -> tuple:
        return (tuple(sorted(self.board.items())), self.colour)

    def group(self, start: tuple[int, int]) -> tuple[set, bool]:
        colour = self.board[start]
        seen, todo, free = {start}, [start], False
        while todo:
            cell = todo.pop()
            for other in neighbours(cell):
                if other not in self.board:
                    continue
                if self.board[other] == 0:
                    free = True
                elif self.board[other] == colour and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen, free

    def line(self, cell: tuple[int, int]) -> bool:
        colour = self.board[cell]
        for dr, dd in AXES:
            count = 1
            for sign in (1, -1):
                r, d = cell[0] + sign * dr, cell[1] + sign * dd
                while self.board.get((r, d)) == colour:
                    count += 1
                    r, d = r + sign * dr, d + sign * dd
            if count >= self.length:
                return True
        return False

    def resolve(self, cell: tuple[int, int]) -> tuple[bool, bool]:
        """Place for the colour to move and remove; return (won, captured)."""
        me, enemy = self.colour, 3 - self.colour
        self.board[cell] = me
        captured = False
        for other in neighbours(cell):
            if self.board.get(other) == enemy:
                stones, free = self.group(other)
                if not free:
                    captured = True
                    for stone in stones:
                        self.board[stone] = 0
        won = self.win_check == "before_self_capture" and self.line(cell)
        stones, free = self.group(cell)
        if not free:
            captured = True
            for stone in stones:
                self.board[stone] = 0
        if not won and self.board[cell] == me:
            won = self.line(cell)
        return won, captured

    def seat(self, colour: int) -> int:
        return (colour - 1) ^ int(self.swapped)

    def legal(self) -> list[str]:
        if self.result is not None:
            return []
        moves = []
        for cell in self.cells:
            if self.board[cell]:
                continue
            if not self.self_capture:
                trial = RefGame(self.cells, self.length, colour=self.colour)
                trial.board = dict(self.board)
                trial.resolve(cell)
                if trial.board[cell] == 0:
                    continue
            moves.append(cell)
        result: list = list(moves)
        if self.swap and self.ply == 1 and not self.swapped:
            result.append("swap")
        if not result:
            result.append("pass")
        return result

    def play(self, move) -> None:
        won = False
        mover = self.seat(self.colour)
        if move == "pass":
            self.passes += 1
            self.colour = 3 - self.colour
        elif move == "swap":
            self.swapped = True
        else:
            self.passes = 0
            won, _ = self.resolve(move)
            self.colour = 3 - self.colour
        self.ply += 1
        key = self.key()
        repeats = self.history.count(key)
        self.history.append(key)
        if won:
            self.result = (1.0, 0.0) if mover == 0 else (0.0, 1.0)
            self.reason = "line"
        elif self.passes >= 2:
            self.result, self.reason = (0.5, 0.5), "passes"
        elif self.repetition == "draw" and repeats >= 2:
            self.result, self.reason = (0.5, 0.5), "repetition"
        elif self.ply >= self.ply_cap:
            self.result, self.reason = (0.5, 0.5), "ply cap"


def reference_for(game: boardlab.Game) -> RefGame:
    options = game.options
    return RefGame(
        list(game.topology.coords),  # type: ignore[attr-defined]
        length=int(options["length"]),
        self_capture=bool(options["self_capture"]),
        win_check=str(options["win_check"]),
        swap=bool(options["swap"]),
        repetition=str(options["repetition"]),
        ply_cap=int(options["ply_cap"]),
    )


def name(move: object) -> str:
    """A move's text: a cell's (row letter, diagonal number) or "swap" and "pass" as they are."""
    if isinstance(move, str):
        return move
    row, diag = move  # type: ignore[misc]
    return f"{chr(ord('a') + row)}{diag + 1}"


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(name(move), move) for move in self.ref.legal()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(reference_for(game))
