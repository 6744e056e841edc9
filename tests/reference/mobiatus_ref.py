"""A deliberately plain Möbiatus referee, written from the seed's text, to check the fast kernel.

No tables, no incremental state, no search tricks: faces are ``(x, y)`` pairs, pieces a dict, and
every legal turn is found by listing every complete path (all hops of every capture chain) and
filtering the list. The rules (seed 003 and ``rules-notes.md`` §5, IDs B1–B12):

- faces ``(x, y)``, ``x`` mod ``2·length``, ``y`` in ``0 … width − 1``; opposite ``(x + length, width − 1 − y)``;
- a piece (its *dot*) moves like a knight (or, with the added option ``movement``, as a camel
  (1, 3), a zebra (2, 3), or a knight that may instead step one square orthogonally, a wazir); each
  hop leaps straight to its target, over whatever lies between; it may not land on a dot or on a circle of its own
  colour (the face opposite one of its own pieces); landing on an enemy circle captures the piece
  opposite; landing on a singularity slides it out of the orthogonally connected group of
  singularities onto any face next to the group that it could land on;
- after a capture the piece must move again, never landing on or sliding through a face touched in
  the chain (its origin, every landing face, every face of every group slid through, and the
  captured pieces' faces); a capture is allowed only if the chain can end on a free face;
- when the move ends, the origin and its opposite become singular, as do both faces of every
  captured piece; a player with no pieces or no legal move at the start of a turn loses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.reference import ByText

if TYPE_CHECKING:
    import boardlab

Face = tuple[int, int]
ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))


def leaper(m: int, n: int) -> set[tuple[int, int]]:
    """Every (dx, dy) of an (m, n) leaper: m one way and n at right angles, any signs."""
    return {(sx * a, sy * b) for a, b in ((m, n), (n, m)) for sx in (1, -1) for sy in (1, -1)}


LEAPS = {"knight": leaper(1, 2), "camel": leaper(1, 3), "zebra": leaper(2, 3),
         "knight_wazir": leaper(1, 2) | set(ORTHOGONAL)}
NAMES = ("Red", "Blue")


@dataclass(frozen=True)
class Hop:
    target: Face  # where the knight move lands
    rest: Face | None  # where a slide out of a singularity ends (None: no slide)
    capture: bool


@dataclass
class RefGame:
    length: int = 30
    width: int = 5
    blue_offset: int = 15
    line_gap: int = 0
    first_player: str = "red"
    origin_joins: bool = False
    must_continue: bool = False
    mandatory: str = "off"
    move_pair_limit: int = 70
    limit_result: str = "draw"
    movement: str = "knight"
    dots: dict[Face, int] = field(default_factory=dict)  # face of each piece -> colour (0 Red, 1 Blue)
    singular: set[Face] = field(default_factory=set)
    colour: int = 0
    turns: int = 0
    swapped: bool = False
    result: tuple[float, float] | None = None
    reason: str | None = None
    known: dict[str, tuple[Face, list[Hop]]] | None = None  # the moves of this position, once listed

    def __post_init__(self) -> None:
        loop = 2 * self.length
        lines = ((0, 1 + self.line_gap), (self.blue_offset, (self.blue_offset + 1 + self.line_gap) % loop))
        for colour, columns in enumerate(lines):
            for x in columns:
                for y in range(self.width):
                    self.dots[(x, y)] = colour
        self.colour = 1 if self.first_player == "blue" else 0
        self.settle()

    # -- the surface ------------------------------------------------------------------------------

    def opposite(self, face: Face) -> Face:
        x, y = face
        return ((x + self.length) % (2 * self.length), self.width - 1 - y)

    def step(self, face: Face, dx: int, dy: int) -> Face | None:
        x, y = face
        if not 0 <= y + dy < self.width:
            return None
        return ((x + dx) % (2 * self.length), y + dy)

    def name(self, face: Face) -> str:
        x, y = face
        if x < self.length:
            return f"F{x + 1}{'abcdefghijkl'[y]}"
        return f"B{x - self.length + 1}{'abcdefghijkl'[self.width - 1 - y]}"

    # -- what a face holds, part way through a turn ------------------------------------------------

    def kind(self, face: Face, gone: set[Face], extra_singular: set[Face]) -> str:
        """'free', 'singular', 'enemy' (an enemy circle) or 'blocked', for the colour to move.

        ``gone`` are pieces captured earlier in this turn (both their faces are singular now);
        ``extra_singular`` holds faces singular at lift-off (origin_joins_slide_group).
        """
        if face in self.singular or face in extra_singular:
            return "singular"
        if face in gone or self.opposite(face) in gone:
            return "singular"
        if face in self.dots:
            return "blocked"
        owner = self.dots.get(self.opposite(face))
        if owner is None:
            return "free"
        return "enemy" if owner != self.colour else "blocked"

    def group(self, start: Face, touched: set[Face], gone: set[Face], extra: set[Face]) -> set[Face]:
        found, todo = {start}, [start]
        while todo:
            face = todo.pop()
            for dx, dy in ORTHOGONAL:
                other = self.step(face, dx, dy)
                if (other is not None and other not in found and other not in touched
                        and self.kind(other, gone, extra) == "singular"):
                    found.add(other)
                    todo.append(other)
        return found

    # -- every complete turn --------------------------------------------------------------------

    def finishes(self, cur: Face, touched: set[Face], gone: set[Face], extra: set[Face],
                 origin: Face | None = None) -> list[list[Hop]]:
        """Every way to complete the move from ``cur``: lists of hops, the last one not capturing.

        ``origin`` is given for the first hop only: it counts as touched from the first capture on.
        """
        later = touched | ({origin} if origin is not None else set())
        ways: list[list[Hop]] = []
        for dx, dy in sorted(LEAPS[self.movement]):
            target = self.step(cur, dx, dy)
            if target is None or target in touched:
                continue
            what = self.kind(target, gone, extra)
            if what == "free":
                ways.append([Hop(target, None, False)])
            elif what == "enemy":
                for rest in self.after_capture(target, later | {target}, gone, extra):
                    ways.append([Hop(target, None, True), *rest])
            elif what == "singular":
                group = self.group(target, touched, gone, extra)
                exits = set()
                for face in group:
                    for sx, sy in ORTHOGONAL:
                        other = self.step(face, sx, sy)
                        if other is not None and other not in group and other not in touched:
                            exits.add(other)
                for rest_face in sorted(exits):
                    what = self.kind(rest_face, gone, extra)
                    if what == "free":
                        ways.append([Hop(target, rest_face, False)])
                    elif what == "enemy":
                        for rest in self.after_capture(rest_face, later | group | {rest_face}, gone, extra):
                            ways.append([Hop(target, rest_face, True), *rest])
        if origin is None and self.must_continue and any(way[0].capture for way in ways):
            ways = [way for way in ways if way[0].capture]
        return ways

    def after_capture(self, face: Face, touched: set[Face], gone: set[Face], extra: set[Face]) -> list[list[Hop]]:
        victim = self.opposite(face)
        return self.finishes(face, touched | {victim}, gone | {victim}, extra)

    def moves(self) -> dict[str, tuple[Face, list[Hop]]]:
        """Every legal move for the colour to move, by its text."""
        if self.known is None:
            self.known = self.list_moves()
        return self.known

    def list_moves(self) -> dict[str, tuple[Face, list[Hop]]]:
        if self.result is not None:
            return {}
        found: list[tuple[Face, list[Hop]]] = []
        for origin in sorted(face for face, colour in self.dots.items() if colour == self.colour):
            extra = {origin, self.opposite(origin)} if self.origin_joins else set()
            for way in self.finishes(origin, set(), set(), extra, origin):
                found.append((origin, way))
        captures = [sum(hop.capture for hop in way) for _, way in found]
        most = max(captures, default=0)
        if self.mandatory == "on" and most > 0:
            found = [move for move, count in zip(found, captures, strict=True) if count > 0]
        elif self.mandatory == "maximal" and most > 0:
            found = [move for move, count in zip(found, captures, strict=True) if count == most]
        moves = {self.text(origin, way): (origin, way) for origin, way in found}
        if self.first_player == "pie" and self.turns == 1 and not self.swapped:
            moves["swap"] = ((0, 0), [])
        return moves

    def text(self, origin: Face, way: list[Hop]) -> str:
        text = self.name(origin)
        for hop in way:
            text += f"-{self.name(hop.target)}"
            if hop.rest is not None:
                text += f"~{self.name(hop.rest)}"
            if hop.capture:
                text += "*"
        return text

    # -- playing ----------------------------------------------------------------------------------

    def play(self, text: str) -> None:
        origin, way = self.moves()[text]
        self.known = None
        if text == "swap":
            self.swapped = True
            self.settle()
            return
        colour = self.colour
        for hop in way:
            if hop.capture:
                victim = self.opposite(hop.rest or hop.target)
                del self.dots[victim]
                self.singular |= {victim, self.opposite(victim)}
        rest = way[-1].rest or way[-1].target
        del self.dots[origin]
        self.singular |= {origin, self.opposite(origin)}
        self.dots[rest] = colour
        self.turns += 1
        self.colour = 1 - colour
        self.settle()

    def seat(self, colour: int) -> int:
        return colour ^ int(self.swapped)

    def settle(self) -> None:
        """At the start of a turn: has the player to move lost, or is the move-pair limit reached?"""
        mover = 1 - self.colour
        pieces = [sum(1 for c in self.dots.values() if c == colour) for colour in (0, 1)]
        pie_pending = self.first_player == "pie" and self.turns == 1 and not self.swapped
        if pieces[self.colour] == 0:
            self.end(self.seat(mover), "no pieces")
        elif not pie_pending and not self.moves():
            self.end(self.seat(mover), "no moves")
        elif self.move_pair_limit and self.turns >= 2 * self.move_pair_limit:
            winner = None
            if self.limit_result == "more_pieces_wins" and pieces[0] != pieces[1]:
                winner = self.seat(0 if pieces[0] > pieces[1] else 1)
            self.end(winner, "move-pair limit")

    def end(self, winner: int | None, reason: str) -> None:
        self.known = None
        self.result = (0.5, 0.5) if winner is None else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        self.reason = reason

    def front_board(self) -> str:
        """The front board's rows as drawn (``.`` free), for comparing with the kernel's position text."""
        rows = []
        for y in range(self.width):
            marks = ""
            for x in range(self.length):
                face = (x, y)
                if face in self.singular:
                    marks += "x"
                elif face in self.dots:
                    marks += "RB"[self.dots[face]]
                elif self.opposite(face) in self.dots:
                    marks += "rb"[self.dots[self.opposite(face)]]
                else:
                    marks += "."
            rows.append(marks)
        return "/".join(rows)


def reference_for(game: boardlab.Game) -> RefGame:
    options = game.options
    return RefGame(
        length=int(options["length"]), width=int(options["width"]), blue_offset=int(options["blue_offset"]),
        line_gap=int(options["line_gap"]), first_player=str(options["first_player"]),
        origin_joins=bool(options["origin_joins_slide_group"]),
        must_continue=options["chain_capture"] == "must_continue_capturing",
        mandatory=str(options["mandatory_capture"]), move_pair_limit=int(options["move_pair_limit"]),
        limit_result=str(options["limit_result"]), movement=str(options["movement"]),
    )


class Referee(ByText):
    def moves(self) -> list[tuple[str, Any]]:
        return [(text, text) for text in self.ref.moves()]


def referee(game: boardlab.Game) -> Referee:
    return Referee(reference_for(game))
