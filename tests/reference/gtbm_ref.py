"""A deliberately plain GTBM referee, written from the seed's text, to check the fast kernel.

No incremental bookkeeping, no hashing: the board is a dict from ``(file, rank)`` (0-based file,
rank 1 to N) to ``"B"`` or ``"W"``, and every question is answered by looking at it afresh. The rules
(seed 000 and ``rules-notes.md`` §1): one step diagonally forward or straight back onto an empty square;
a diagonal step takes the enemy beside the start square on the side stepped toward (G1, with the
``column`` and ``diagonal_also`` readings); ``mandatory_capture`` (G3); the player to move who cannot move
loses if the opponent could, else a draw (G5, and ``both_after_each_move``); threefold repetition and the
no-capture limit (G6, added).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

Square = tuple[int, int]
Move = tuple[Square, Square, tuple[Square, ...]]


def name(square: Square) -> str:
    return f"{chr(ord('a') + square[0])}{square[1]}"


@dataclass
class RefGtbm:
    size: int = 8
    capture_reach: str = "adjacent"
    mandatory_capture: bool = False
    stuck_check: str = "start_of_turn"
    repetition: str = "draw"
    no_capture_limit: int = 100
    cap_adjudication: str = "draw"
    board: dict[Square, str] = field(default_factory=dict)
    side: str = "B"
    quiet: int = 0
    history: list[tuple] = field(default_factory=list)
    result: tuple[float, float] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if not self.board:
            for file in range(self.size):
                self.board[(file, 1)] = "B"
                self.board[(file, self.size)] = "W"
        self.history = [self.key()]

    def key(self) -> tuple:
        return (tuple(sorted(self.board.items())), self.side)

    def on_board(self, square: Square) -> bool:
        return 0 <= square[0] < self.size and 1 <= square[1] <= self.size

    def taken(self, side: str, start: Square, towards: int) -> tuple[Square, ...]:
        """What a diagonal step of ``side`` from ``start`` toward file ``start + towards`` removes."""
        enemy = "W" if side == "B" else "B"
        forward = 1 if side == "B" else -1
        beside = (start[0] + towards, start[1])
        if self.capture_reach == "column":
            square = beside
            while self.on_board(square) and square not in self.board:
                square = (square[0], square[1] - forward)
            return (square,) if self.board.get(square) == enemy else ()
        found = [beside] if self.board.get(beside) == enemy else []
        if self.capture_reach == "diagonal_also":
            further = (start[0] + 2 * towards, start[1])
            if self.board.get(further) == enemy:
                found.append(further)
        return tuple(found)

    def moves_of(self, side: str) -> list[Move]:
        forward = 1 if side == "B" else -1
        moves: list[Move] = []
        for square, owner in sorted(self.board.items()):
            if owner != side:
                continue
            for towards in (-1, 1):
                to = (square[0] + towards, square[1] + forward)
                if self.on_board(to) and to not in self.board:
                    moves.append((square, to, self.taken(side, square, towards)))
            back = (square[0], square[1] - forward)
            if self.on_board(back) and back not in self.board:
                moves.append((square, back, ()))
        return moves

    def legal(self) -> list[Move]:
        if self.result is not None:
            return []
        moves = self.moves_of(self.side)
        if self.mandatory_capture and any(taken for _, _, taken in moves):
            moves = [move for move in moves if move[2]]
        return moves

    @staticmethod
    def text(move: Move) -> str:
        start, to, taken = move
        return f"{name(start)}-{name(to)}" + "".join(f"x{name(s)}" for s in sorted(taken))

    def count(self, side: str) -> int:
        return sum(1 for owner in self.board.values() if owner == side)

    def win(self, side: str, reason: str) -> None:
        self.result = (1.0, 0.0) if side == "B" else (0.0, 1.0)
        self.reason = reason

    def draw(self, reason: str) -> None:
        self.result, self.reason = (0.5, 0.5), reason

    def play(self, move: Move) -> None:
        start, to, taken = move
        self.board[to] = self.board.pop(start)
        for square in taken:
            del self.board[square]
        self.quiet = 0 if taken else self.quiet + 1
        mover = self.side
        self.side = "W" if mover == "B" else "B"
        self.history.append(self.key())
        to_move_can = bool(self.moves_of(self.side))
        mover_can = bool(self.moves_of(mover))
        stuck = None
        if not to_move_can and not mover_can:
            stuck = "neither"
        elif not to_move_can:
            stuck = self.side
        elif not mover_can and self.stuck_check == "both_after_each_move":
            stuck = mover
        if stuck == "neither":
            self.draw("neither can move")
        elif stuck is not None:
            winner = "W" if stuck == "B" else "B"
            self.win(winner, "all captured" if self.count(stuck) == 0 else "no legal move")
        elif self.repetition == "draw" and self.history.count(self.key()) >= 3:
            self.draw("repetition")
        elif self.quiet >= self.no_capture_limit:
            black, white = self.count("B"), self.count("W")
            if self.cap_adjudication == "most_pieces" and black != white:
                self.win("B" if black > white else "W", "no-capture limit")
            else:
                self.draw("no-capture limit")


def reference_for(game: boardlab.Game) -> RefGtbm:
    return RefGtbm(**dict(game.options))


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(self.ref.text(move), move) for move in self.ref.legal()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(reference_for(game))
