"""A deliberately plain referee for Horsmeier's strength race, written from the seed, to check the kernel.

No incremental row sums, no hashing, no shortcuts in the repetition count: the board is a dict from
``(file, row)`` (0-based file, row 1 to 11 from White's side) to a :class:`Piece`, and row sums are
added up afresh for every question. The rules (seed 004 and ``rules-notes.md`` §6): one orthogonal
step onto an empty square, unless the opponent's strength on the destination row is at least the
mover's on its row (J2); the far row wins (J8); forward moves upgrade and backward moves degrade
(J3, J4); the moved piece's life span resets and the mover's others age, with expiry (J5–J7; under
the added ``expiry_rule=never`` nothing ages); a player without a move passes and ages (J9);
repetition and a ply cap draw (J10).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

STRENGTHS = [1, 2, 3, 5, 8]
SETUP = [(1, 1, "bdfhj"), (2, 2, "cfi"), (3, 3, "dh"), (5, 5, "f")]
STEPS = {"n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0)}

Square = tuple[int, int]


@dataclass(frozen=True)
class Piece:
    colour: str  # "w" or "b"
    strength: int
    life: int
    start: int  # own-side row the piece began on
    since: int  # own-side row where it got its current strength


def name(square: Square) -> str:
    return f"{chr(ord('a') + square[0])}{square[1]}"


def own_row(colour: str, row: int) -> int:
    return row if colour == "w" else 12 - row


@dataclass
class RefHorsmeier:
    first_player: str = "white"
    sideways_blocking: str = "literal"
    backward_blocking: str = "literal"
    own_sum: str = "row"
    upgrade_rule: str = "band"
    expiry_rule: str = "degrade_and_reset"
    no_move_rule: str = "pass_decay"
    repetition: str = "draw"
    ply_cap: int = 400
    board: dict[Square, Piece] = field(default_factory=dict)
    colour: str = "w"
    ply: int = 0
    history: list[tuple] = field(default_factory=list)
    result: tuple[float, float] | None = None
    reason: str | None = None

    def __post_init__(self) -> None:
        if self.board:
            self.history = [self.key()]
            return
        for colour in "wb":
            for strength, row, files in SETUP:
                for file in files:
                    square = (ord(file) - ord("a"), row if colour == "w" else 12 - row)
                    self.board[square] = Piece(colour, strength, 11, row, row)
        self.colour = "w" if self.first_player == "white" else "b"
        self.history = [self.key()]

    def key(self) -> tuple:
        pieces = []
        for square, piece in sorted(self.board.items()):
            memory = {"band": 0, "since_last_change": piece.since, "from_own_start": piece.start}[self.upgrade_rule]
            pieces.append((square, piece.colour, piece.strength, piece.life, memory))
        return (tuple(pieces), self.colour)

    def row_sum(self, colour: str, row: int) -> int:
        return sum(p.strength for (_, r), p in self.board.items() if r == row and p.colour == colour)

    def blocked(self, square: Square, to: Square, direction: str) -> bool:
        piece = self.board[square]
        other = "b" if piece.colour == "w" else "w"
        against = self.row_sum(other, to[1])
        own = self.row_sum(piece.colour, square[1]) if self.own_sum == "row" else piece.strength
        if against == 0 or against < own:
            return False
        if to[1] == square[1]:
            return self.sideways_blocking == "literal"
        backward = direction == ("s" if piece.colour == "w" else "n")
        return not (backward and self.backward_blocking == "exempt")

    def moves_of(self, colour: str) -> list[tuple[Square, Square, str]]:
        moves = []
        for square, piece in sorted(self.board.items()):
            if piece.colour != colour:
                continue
            for direction, (dx, dy) in STEPS.items():
                to = (square[0] + dx, square[1] + dy)
                if 0 <= to[0] < 11 and 1 <= to[1] <= 11 and to not in self.board and not self.blocked(
                        square, to, direction):
                    moves.append((square, to, direction))
        return moves

    def legal(self) -> list:
        if self.result is not None:
            return []
        moves: list = self.moves_of(self.colour)
        if not moves and self.no_move_rule == "pass_decay":
            return ["pass"]
        return moves

    @staticmethod
    def text(move: object) -> str:
        if move == "pass":
            return "pass"
        start, to, _ = move  # type: ignore[misc]
        return f"{name(start)}-{name(to)}"

    def seat_of(self, colour: str) -> int:
        first = "w" if self.first_player == "white" else "b"
        return 0 if colour == first else 1

    def finish(self, winner: str | None, reason: str) -> None:
        if winner is None:
            self.result = (0.5, 0.5)
        else:
            self.result = (1.0, 0.0) if self.seat_of(winner) == 0 else (0.0, 1.0)
        self.reason = reason

    def changed_strength(self, piece: Piece, step: int, row: int) -> Piece:
        strength = STRENGTHS[STRENGTHS.index(piece.strength) + step]
        return replace(piece, strength=strength, since=row)

    def play(self, move: object) -> None:
        mover = self.colour
        other = "b" if mover == "w" else "w"
        self.ply += 1
        moved_to = None
        if move != "pass":
            start, to, direction = move  # type: ignore[misc]
            piece = self.board.pop(start)
            self.board[to] = piece
            row = own_row(mover, to[1])
            if row == 11:
                self.colour = other
                self.finish(mover, "far row")
                return
            forward = direction == ("n" if mover == "w" else "s")
            backward = direction == ("s" if mover == "w" else "n")
            n = piece.strength
            if forward and n < 8:
                threshold = {"band": 2 * n, "since_last_change": piece.since + n,
                             "from_own_start": piece.start + n}[self.upgrade_rule]
                if row >= threshold:
                    piece = self.changed_strength(piece, 1, row)
            elif backward and n > 1 and row < n:
                piece = self.changed_strength(piece, -1, row)
            self.board[to] = replace(piece, life=11)
            moved_to = to
        for square, piece in list(self.board.items()):
            if piece.colour != mover or square == moved_to or self.expiry_rule == "never":
                continue  # under the added expiry_rule=never nothing ages
            life = max(piece.life - 1, 0)
            if life > 0:
                self.board[square] = replace(piece, life=life)
            elif piece.strength == 1 or self.expiry_rule == "remove_any":
                del self.board[square]
            else:
                piece = self.changed_strength(piece, -1, own_row(mover, square[1]))
                self.board[square] = replace(piece, life=11 if self.expiry_rule == "degrade_and_reset" else 0)
        self.colour = other
        self.history.append(self.key())
        if not any(p.colour == mover for p in self.board.values()):
            self.finish(other, "no pieces")
        elif self.no_move_rule != "pass_decay" and not self.moves_of(other):
            self.finish(mover if self.no_move_rule == "lose" else None, "no legal move")
        elif self.repetition == "draw" and self.history.count(self.key()) >= 3:
            self.finish(None, "repetition")
        elif self.ply >= self.ply_cap:
            self.finish(None, "ply cap")


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(self.ref.text(move), move) for move in self.ref.legal()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(RefHorsmeier(**dict(game.options)))
