"""What one seat's view of an HMDG game tells about the stones it cannot see (for determinization).

A seat does not know where the other player's hidden placements landed (each on a line it heard
announced), the other player's pending target (on the announced line), and, for a game that began
from a position text, where the other player's hidden stones stood then: the *unknowns*. Reading
the seat's views move by move, :class:`Evidence` collects what constrains them:

- *required points*: a colour must have a hidden stone on a point by a given ply if that stone was
  revealed there later (by its owner as responder, as a stack partner, at the end), or if the colour
  passed while the point was open to it;
- *forbidden points*: a colour never had a hidden stone where its stone would have been revealed as a
  stack partner, where everything of it was revealed at the end, or (unless it may stack on its own)
  on a point it later targeted openly;
- *announced fives* formed by a colour the seat cannot see;
- and the public fields every replayed move must reproduce (outcomes, five-announcements, counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from boardlab.core import kernel
from boardlab.core.view import View
from boardlab.games.hmdg import kernel as k

if TYPE_CHECKING:
    from boardlab.games.hmdg.face import HiddenMoveDoubleGomoku

# Public fields compared after every move of a replayed history.
CHECKED = np.array([kernel.TO_MOVE, kernel.END_REASON, k.F_LAST_OUTCOME, k.F_LAST_TARGET, k.F_LAST_FIVES,
                    k.F_HIDDEN, k.F_HIDDEN + 1, k.F_FIVE_FLAG, k.F_FIVE_FLAG + 1], dtype=np.int64)


@dataclass(frozen=True)
class Unknown:
    """A placement (or a pending target) whose point the seat does not know."""

    commit: int  # ply of the commit; -1: the first position's pending target
    colour: int
    axis: int
    points: tuple[int, ...]  # the announced line
    landed: int | None  # ply whose resolution put the stone down, hidden; None while pending


@dataclass(frozen=True)
class Five:
    """An announced five formed by a stone of a colour the seat cannot see."""

    ply: int
    colour: int
    count: int
    target: int | None  # known when the stone was placed revealed
    unknown: int | None  # else the index of the unknown placement that made it


class Evidence:
    """What a view tells about the unknowns; read once per view."""

    def __init__(self, game: HiddenMoveDoubleGomoku, view: View) -> None:
        self.game, self.view, self.spec = game, view, game.spec
        self.cells = game.cells
        views = [view]
        while (previous := views[-1].previous) is not None:
            views.append(previous)
        self.views = views[::-1]
        self.plies = len(self.views) - 1
        colour = None if view.seat is None else game.colour_of(view.data, view.seat)
        self.hidden_colours = [c for c in (k.COLOUR_X, k.COLOUR_O) if c != colour]
        self.closed_at = [self._closed(v.data) for v in self.views]  # public: closed points before each ply
        self.unknowns: list[Unknown] = []
        self.actions = np.full(max(self.plies, 1), -1, dtype=np.int64)
        self.root_target: int | None = None
        self._read_moves()
        self.expected = np.array([[int(v.data[f]) for f in CHECKED] for v in self.views[1:]],
                                 dtype=np.int64).reshape(self.plies, len(CHECKED))
        self.forbidden: dict[int, set[int]] = {c: set() for c in self.hidden_colours}
        self.required: dict[tuple[int, int], int] = {}
        self.fives: list[Five] = []
        self._read_log()
        self.known_targets = self._open_targets()
        if not game.options["allow_own_stack"]:
            for c in self.hidden_colours:  # a colour never had a hidden stone on a point it targeted openly
                self.forbidden[c] |= self.known_targets[c]
        root = self.views[0].data
        self.root_counts = {c: int(root[k.F_HIDDEN + c]) for c in self.hidden_colours}
        self._board_tables()

    def _board_tables(self) -> None:
        """Segments as arrays, the lines of each direction in order, and each point's zone."""
        spec, cells = self.spec, self.cells
        length, segments = int(spec[k.S_LENGTH]), int(spec[k.S_SEGMENTS])
        start = int(spec[k.S_SEG_CELLS])
        self.segment_points = spec[start: start + segments * length].reshape(segments, length)
        stride = 1 + 4 * length
        table = spec[int(spec[k.S_CELL_SEGS]):][: cells * stride].reshape(cells, stride)
        self.point_segments = np.where(np.arange(stride - 1) < table[:, :1], table[:, 1:], -1)
        geometry = spec[int(spec[k.S_CELL_GEOM]):].reshape(cells, 4, 2)
        self.lines: list[dict[int, list[int]]] = [{} for _ in range(4)]  # direction -> line id -> points
        for point in range(cells):
            for direction in range(4):
                self.lines[direction].setdefault(int(geometry[point, direction, 0]), []).append(point)
        for direction, lines in enumerate(self.lines):
            for points in lines.values():
                points.sort(key=lambda point, d=direction: int(geometry[point, d, 1]))  # type: ignore[misc]
        # A point's zone: the points whose stones can change the fives through it (one step beyond a
        # five's end matters when overlines do not count).
        self.zones = [{q for d in range(4) for q in self.lines[d][int(geometry[p, d, 0])]
                       if abs(int(geometry[q, d, 1]) - int(geometry[p, d, 1])) <= length} for p in range(cells)]

    def _open_targets(self) -> dict[int, set[int]]:
        """Per hidden colour, the points it targeted in commits the seat knows (revealed later)."""
        targets: dict[int, set[int]] = {c: set() for c in self.hidden_colours}
        for ply in range(self.plies):
            before, action = self.views[ply].data, int(self.actions[ply])
            if before[k.F_PHASE] == k.PH_COMMIT and 0 <= action < 2 * self.cells and \
                    int(before[k.F_COLOUR]) in self.hidden_colours:
                targets[int(before[k.F_COLOUR])].add(action >> 1)
        return targets

    # -- reading the view -----------------------------------------------------------------------

    def _line(self, axis: int, line: int) -> tuple[int, ...]:
        return tuple(self.game.line_points(axis, line))

    def _read_moves(self) -> None:
        """The actions the seat knows, and an :class:`Unknown` for each it does not."""
        views, plies = self.views, self.plies
        root = views[0].data
        if root[k.F_PHASE] == k.PH_RESPOND and root[kernel.TO_MOVE] >= 0 and root[k.F_TARGET] < 0:
            line = self._line(int(root[k.F_AXIS]), int(root[k.F_LINE]))
            revealed = int(views[1].data[k.F_LAST_TARGET]) if plies else -1
            if revealed >= 0:
                self.root_target = revealed
            else:
                self.unknowns.append(Unknown(-1, int(root[k.F_COLOUR]), int(root[k.F_AXIS]), line,
                                             0 if plies else None))
        for ply in range(plies):
            move = views[ply + 1].last_move
            assert move is not None
            if move.path:
                self.actions[ply] = move.path[0]
                continue
            after = views[ply + 1].data
            axis = int(after[k.F_AXIS])
            revealed = int(views[ply + 2].data[k.F_LAST_TARGET]) if ply + 1 < plies else -1
            if revealed >= 0:
                self.actions[ply] = 2 * revealed + axis
            else:
                line = self._line(axis, int(after[k.F_LINE]))
                landed = ply + 1 if ply + 1 < plies else None
                self.unknowns.append(Unknown(ply, int(views[ply].data[k.F_COLOUR]), axis, line, landed))

    def _stones(self, data: np.ndarray, colour: int) -> np.ndarray:
        return data[k.STONES + colour * self.cells: k.STONES + (colour + 1) * self.cells]

    def _closed(self, data: np.ndarray) -> np.ndarray:
        return (self._stones(data, 0) == k.REVEALED) | (self._stones(data, 1) == k.REVEALED)

    def _require(self, colour: int, point: int, deadline: int) -> None:
        key = (colour, point)
        self.required[key] = min(self.required.get(key, deadline), deadline)

    def _read_log(self) -> None:
        """Requirements, forbidden points and announced fives, from the seat's views move by move."""
        views, cells = self.views, self.cells
        partner = bool(self.game.options["reveal_stack_partner"])
        own_stack = bool(self.game.options["allow_own_stack"])
        landed_at = {u.landed: i for i, u in enumerate(self.unknowns) if u.landed is not None}
        for ply in range(self.plies):
            before, after = views[ply].data, views[ply + 1].data
            phase, mover = int(before[k.F_PHASE]), int(before[k.F_COLOUR])
            if phase == k.PH_SETUP:
                continue
            placed = int(after[k.F_LAST_TARGET]) if phase == k.PH_RESPOND and \
                after[k.F_LAST_OUTCOME] == k.OUT_PLACED else -1
            deadline = ply + 1 if after[kernel.TO_MOVE] < 0 else ply  # the end reveals a stone just placed
            for c in self.hidden_colours:
                newly = np.flatnonzero((self._stones(after, c) == k.REVEALED) & (self._stones(before, c) != k.REVEALED))
                for point in newly.tolist():
                    if not (c == mover and point == placed):
                        self._require(c, point, deadline)
            if phase == k.PH_COMMIT and self.actions[ply] == k.pass_action(cells) and mover in self.hidden_colours \
                    and not own_stack:
                for point in np.flatnonzero(~self._closed(before)).tolist():
                    self._require(mover, point, ply)
            if phase != k.PH_RESPOND:
                continue
            if partner:
                self._forbid_partners(before, after, ply, placed)
            if after[k.F_LAST_FIVES] > 0 and mover in self.hidden_colours:
                self.fives.append(Five(ply, mover, int(after[k.F_LAST_FIVES]), placed if placed >= 0 else None,
                                       None if placed >= 0 else landed_at[ply]))
        final = self.view.data
        if final[kernel.TO_MOVE] < 0:
            winner = int(final[k.F_COLOUR]) if final[kernel.END_REASON] == k.REASON_LINES else -1
            for c in self.hidden_colours:
                if self.game.options["reveal_at_end"] == "all" or c == winner:
                    self.forbidden[c] |= set(np.flatnonzero(self._stones(final, c) != k.REVEALED).tolist())

    def _forbid_partners(self, before: np.ndarray, after: np.ndarray, ply: int, placed: int) -> None:
        """With reveal_stack_partner, a point whose stone was revealed without a partner never held one."""
        mover = int(before[k.F_COLOUR])
        mask = int(self.actions[ply]) - k.reveal_base(self.cells)
        line = self._line(int(before[k.F_AXIS]), int(before[k.F_LINE]))
        triggers = [(mover, p) for j, p in enumerate(line) if mask >> j & 1]
        if placed >= 0:
            triggers.append((1 - mover, placed))
        for colour, point in triggers:
            if colour in self.hidden_colours and self._stones(after, colour)[point] != k.REVEALED:
                self.forbidden[colour].add(point)

    # -- what could have stood where ------------------------------------------------------------

    def _could_place(self, unknown: Unknown, point: int) -> bool:
        """Whether ``unknown`` could have put its stone on ``point`` (its line, open then, not forbidden)."""
        return point in unknown.points and not self.closed_at[max(unknown.commit, 0)][point] and point not in \
            self.forbidden[unknown.colour]
