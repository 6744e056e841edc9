"""Tic-tac-toe's rules in plain Python, written apart from the kernels, for the differential test."""

from __future__ import annotations


def lines(size: int, length: int) -> list[list[tuple[int, int]]]:
    found = []
    for row in range(size):
        for col in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + dr * i, col + dc * i) for i in range(length)]
                if all(0 <= r < size and 0 <= c < size for r, c in cells):
                    found.append(cells)
    return found


class Referee:
    """A position as a dict of (row, column) -> "x" or "o"; rows counted from the top."""

    def __init__(self, size: int = 3, length: int = 3, misere: bool = False) -> None:
        self.size, self.length, self.misere = size, length, misere
        self.stones: dict[tuple[int, int], str] = {}
        self.result: tuple[float, float] | None = None

    @property
    def to_move(self) -> str:
        return "xo"[len(self.stones) % 2]

    def name(self, cell: tuple[int, int]) -> str:
        return f"{'abcde'[cell[1]]}{self.size - cell[0]}"

    def legal_moves(self) -> list[str]:
        if self.result is not None:
            return []
        return sorted(self.name((r, c)) for r in range(self.size) for c in range(self.size)
                      if (r, c) not in self.stones)

    def play(self, text: str) -> None:
        assert text in self.legal_moves(), text
        mover = self.to_move
        cell = (self.size - int(text[1:]), "abcde".index(text[0]))
        self.stones[cell] = mover
        if any(all(self.stones.get(c) == mover for c in line) for line in lines(self.size, self.length)):
            wins = (mover == "x") != self.misere
            self.result = (1.0, 0.0) if wins else (0.0, 1.0)
        elif len(self.stones) == self.size * self.size:
            self.result = (0.5, 0.5)
