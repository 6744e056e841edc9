"""Determinization for HMDG: full states that one seat cannot tell from the real one (for search).

What a seat does not know is where the other player's hidden placements landed (each on a line it
heard announced), the other player's pending target (on the announced line), and, for a game that
began from a position text, where the other player's hidden stones stood then. A *history* gives
each of those unknowns a point; it is *consistent* when replaying it through the rules gives the
seat exactly its view: the same observation after every move and the same public log (outcomes,
five-announcements, passes, the end). A spectator (seat ``None``) knows neither player's stones.

:class:`Sampler` draws consistent histories in three steps:

1. *Requirements*, read off the view: a point must hold a hidden stone of a colour by a given ply
   if that stone was revealed there later (by its owner as responder, as a stack partner, at the
   end), or if the colour passed while the point was open to it.
2. *A plan*: each announced five formed by an unknown stone gets segments through its point drawn,
   adding requirements; then a random matching gives every requirement an unknown placement (or a
   starting stone) that could have put a stone there in time.
3. *Filling in*: the other unknowns, in the order they happened, by randomised depth-first search
   over the points of their lines, replaying every move through the kernel and checking it against
   the public log at once. A plan that cannot be completed is replaced by a new one.

Then ``mixing`` Metropolis steps: move one unknown to a uniformly drawn point of its line (a starting
stone: of the board), or swap two of one colour, keeping the result only if the history is still
consistent. The proposals are symmetric, so the stationary distribution of this chain is uniform
over consistent histories: the seat's posterior if the other player had chosen targets uniformly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from boardlab.core import kernel
from boardlab.core.move import Move
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import BoardlabError
from boardlab.games.hmdg import kernel as k

if TYPE_CHECKING:
    from boardlab.games.hmdg.face import HiddenMoveDoubleGomoku

# Public fields compared after every move of a replayed history.
CHECKED = np.array([kernel.TO_MOVE, kernel.END_REASON, k.F_LAST_OUTCOME, k.F_LAST_TARGET, k.F_LAST_FIVES,
                    k.F_HIDDEN, k.F_HIDDEN + 1, k.F_FIVE_FLAG, k.F_FIVE_FLAG + 1], dtype=np.int64)
FIVES_AND_END = (kernel.TO_MOVE, kernel.END_REASON, k.F_LAST_FIVES, k.F_FIVE_FLAG, k.F_FIVE_FLAG + 1)
PLANS = 100  # plans tried before giving up
STEPS_PER_PLAN = 4000  # candidate points tried while filling in one plan depth-first


@njit(cache=True)
def replay_checked(state, spec, actions, start, stop, expected, fields):  # type: ignore[no-untyped-def]
    """Apply ``actions[start:stop]`` to ``state``; return the first ply that is illegal or whose public
    ``fields`` differ from ``expected[ply]``, or -1 if none does."""
    for ply in range(start, stop):
        if not k.is_legal(state, spec, actions[ply]):
            return ply
        k.apply(state, spec, actions[ply])
        for f in range(fields.shape[0]):
            if state[fields[f]] != expected[ply, f]:
                return ply
    return -1


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


History = tuple[dict[int, int], dict[int, list[int]]]  # unknown -> point; colour -> starting stones


@dataclass
class Plan:
    """What a history must contain: the points of the unknowns that made announced fives or cover
    required points, and the starting stones that cover required points."""

    pinned: dict[int, int]
    starting: dict[int, list[int]]


class _OutOfSteps(Exception):
    """The depth-first fill of one plan has used its steps."""


class Matching:
    """A bipartite matching kept up to date while nodes leave both sides (for forward checking).

    ``adj`` lists each left node's possible right nodes; :meth:`fill` matches every left node (or
    fails); removing a right node re-matches its partner along an augmenting path (Kuhn).
    """

    def __init__(self, adj: dict[Any, list[Any]]) -> None:
        self.adj = adj
        self.left: dict[Any, Any] = {}
        self.right: dict[Any, Any] = {}
        self.gone: set[Any] = set()

    def copy(self) -> Matching:
        other = Matching(self.adj)
        other.left, other.right, other.gone = dict(self.left), dict(self.right), set(self.gone)
        return other

    def fill(self, rng: random.Random) -> bool:
        order = list(self.adj)
        rng.shuffle(order)
        return all(node in self.left or self._augment(node, set()) for node in order)

    def _augment(self, node: Any, seen: set[Any]) -> bool:
        for other in self.adj[node]:
            if other in seen or other in self.gone:
                continue
            seen.add(other)
            holder = self.right.get(other)
            if holder is None or self._augment(holder, seen):
                self.left[node] = other
                self.right[other] = node
                return True
        return False

    def drop_left(self, node: Any) -> None:
        """``node`` no longer needs a partner."""
        other = self.left.pop(node, None)
        if other is not None:
            del self.right[other]

    def drop_right(self, other: Any) -> bool:
        """``other`` is no longer available; ``False`` if its partner cannot be matched elsewhere."""
        self.gone.add(other)
        node = self.right.pop(other, None)
        if node is None:
            return True
        del self.left[node]
        return self._augment(node, set())


class Sampler:
    """Draws full states consistent with one view; build once per view, sample many times."""

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
        self.known_targets: dict[int, set[int]] = {c: set() for c in self.hidden_colours}
        for ply in range(self.plies):
            before = self.views[ply].data
            action = int(self.actions[ply])
            if before[k.F_PHASE] == k.PH_COMMIT and 0 <= action < 2 * self.cells and \
                    int(before[k.F_COLOUR]) in self.hidden_colours:
                self.known_targets[int(before[k.F_COLOUR])].add(action >> 1)
        if not game.options["allow_own_stack"]:
            for c in self.hidden_colours:  # a colour never had a hidden stone on a point it targeted openly
                self.forbidden[c] |= self.known_targets[c]
        root = self.views[0].data
        self.root_counts = {c: int(root[k.F_HIDDEN + c]) for c in self.hidden_colours}
        length, segments = int(self.spec[k.S_LENGTH]), int(self.spec[k.S_SEGMENTS])
        start = int(self.spec[k.S_SEG_CELLS])
        self.segment_points = self.spec[start: start + segments * length].reshape(segments, length)
        stride = 1 + 4 * length
        table = self.spec[int(self.spec[k.S_CELL_SEGS]):][: self.cells * stride].reshape(self.cells, stride)
        self.point_segments = np.where(np.arange(stride - 1) < table[:, :1], table[:, 1:], -1)
        geometry = game.spec[int(game.spec[k.S_CELL_GEOM]):].reshape(self.cells, 4, 2)
        self.lines: list[dict[int, list[int]]] = [{} for _ in range(4)]  # direction -> line id -> points
        for point in range(self.cells):
            for direction in range(4):
                self.lines[direction].setdefault(int(geometry[point, direction, 0]), []).append(point)
        for direction, lines in enumerate(self.lines):
            for points in lines.values():
                points.sort(key=lambda point, d=direction: int(geometry[point, d, 1]))  # type: ignore[misc]
        # A point's zone: the points whose stones can change the fives through it (one step beyond a
        # five's end matters when overlines do not count).
        self.zones = [{q for d in range(4) for q in self.lines[d][int(geometry[p, d, 0])]
                       if abs(int(geometry[q, d, 1]) - int(geometry[p, d, 1])) <= length} for p in range(self.cells)]

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

    # -- a plan: who put the required stones down -----------------------------------------------

    def _could_place(self, unknown: Unknown, point: int) -> bool:
        """Whether ``unknown`` could have put its stone on ``point`` (its line, open then, not forbidden)."""
        return point in unknown.points and not self.closed_at[max(unknown.commit, 0)][point] and point not in \
            self.forbidden[unknown.colour]

    def _plan(self, rng: random.Random) -> Plan | None:
        required = dict(self.required)
        pinned: dict[int, int] = {}
        for five in self.fives:
            if not self._plan_five(five, required, pinned, rng):
                return None
        matched = self._match(required, pinned, rng)
        if matched is None:
            return None
        return Plan(*matched)

    def _plan_five(self, five: Five, required: dict[tuple[int, int], int], pinned: dict[int, int],
                   rng: random.Random) -> bool:
        """Choose the runs that made an announced five; add their points to ``required``.

        The new fives of a placement are the segments through its point; along each direction they
        come from one run of the colour's stones through it (as many as the run's windows of
        ``length`` that hold the point). Runs are drawn per direction until the counts add up, and
        kept only if the stones certainly there by then give exactly the announced count and win
        exactly when the game ended there.
        """
        c, ply = five.colour, five.ply
        known = self._stones(self.views[ply].data, c) == k.REVEALED
        ends_here = bool(self.views[ply + 1].data[kernel.TO_MOVE] < 0)
        if five.target is not None:
            targets = [five.target]
        else:
            assert five.unknown is not None
            unknown = self.unknowns[five.unknown]
            pin = pinned.get(five.unknown)
            targets = [pin] if pin is not None else [p for p in unknown.points if self._could_place(unknown, p)]
            rng.shuffle(targets)
        for target in targets:
            options = self._runs_through(target, c, ply, known)
            for _ in range(12):
                runs = self._draw_runs(options, five.count, rng)
                if runs is None:
                    break
                trial = dict(required)
                for run in runs:
                    for point in run:
                        if point != target and not known[point]:
                            trial[(c, point)] = min(trial.get((c, point), ply), ply)
                present = [p for (rc, p), deadline in trial.items() if rc == c and deadline <= ply + 1]
                present += [p for i, p in pinned.items() if self.unknowns[i].colour == c
                            and (self.unknowns[i].landed or 0) < ply]
                if not self._fives_fit(c, target, present, known, five.count, ends_here):
                    continue
                trial_pins = dict(pinned)
                if five.unknown is not None:
                    trial_pins[five.unknown] = target
                if self._match(trial, trial_pins, rng) is not None:
                    required.clear()
                    required.update(trial)
                    pinned.clear()
                    pinned.update(trial_pins)
                    return True
        return False

    def _runs_through(self, target: int, colour: int, ply: int, known: np.ndarray) -> list[list[tuple[list[int], int]]]:
        """Per direction, the runs through ``target`` that could be ``colour``'s by ``ply``, each with
        how many new fives it makes."""
        length = int(self.spec[k.S_LENGTH])
        exact = not self.game.options["overline_counts"]
        geometry = int(self.spec[k.S_CELL_GEOM])
        per_direction = []
        for direction in range(4):
            line_id = int(self.spec[geometry + target * 8 + 2 * direction])
            line = self.lines[direction][line_id]
            at = line.index(target)
            fits = [p == target or known[p] or self._coverable(colour, p, ply) for p in line]
            runs = []
            for first in range(at + 1):
                for last in range(max(at, first + length - 1), len(line)):
                    size = last - first + 1
                    if exact and size != length:
                        break
                    if not all(fits[first:last + 1]):
                        break
                    outside = [line[i] for i in (first - 1, last + 1) if 0 <= i < len(line)]
                    if any(known[p] for p in outside):
                        continue
                    through = min(last - length + 1, at) - max(first, at - length + 1) + 1  # windows holding it
                    runs.append((line[first:last + 1], through))
            per_direction.append(runs)
        return per_direction

    def _draw_runs(self, options: list[list[tuple[list[int], int]]], count: int,
                   rng: random.Random) -> list[list[int]] | None:
        """Runs in distinct directions whose fives add up to ``count`` (``None`` if none seem to)."""
        for _ in range(30):
            directions = [d for d in range(4) if options[d]]
            rng.shuffle(directions)
            left, runs = count, []
            for direction in directions:
                if left == 0:
                    break
                fitting = [run for run in options[direction] if run[1] <= left]
                if fitting and (rng.random() < 0.7 or direction == directions[-1]):
                    points, fives = rng.choice(fitting)
                    runs.append(points)
                    left -= fives
            if left == 0 and runs:
                return runs
        return None

    def _fives_fit(self, colour: int, target: int, present: list[int], known: np.ndarray, count: int,
                   ends_here: bool) -> bool:
        """Whether the stones certainly there make exactly ``count`` new fives, and a win iff the game ends.

        Only when overlines count: then more stones never mean fewer fives, so what the stones certainly
        there already make is a lower bound. Otherwise a stone not counted here may break a five up."""
        if not self.game.options["overline_counts"]:
            return True
        data = np.zeros(int(self.spec[k.S_STATE_LEN]), dtype=np.int64)
        stones = k.STONES + colour * self.cells
        data[stones: stones + self.cells] = known
        for point in [*present, target]:
            data[stones + point] = k.HIDDEN
        k.rebuild(data, self.spec)
        table = int(self.spec[k.S_CELL_SEGS]) + target * (1 + 4 * int(self.spec[k.S_LENGTH]))
        made = sum(bool(k.is_counting(data, self.spec, colour, int(self.spec[table + 1 + i])))
                   for i in range(int(self.spec[table])))
        return made == count and bool(k.has_winning_lines(data, self.spec, colour)) == ends_here

    def _coverable(self, colour: int, point: int, deadline: int) -> bool:
        """Whether some unknown placement or starting stone of ``colour`` could stand on ``point`` in time."""
        if point in self.forbidden[colour]:
            return False
        if self.root_counts.get(colour, 0) and self._stones(self.views[0].data, colour)[point] != k.REVEALED:
            return True
        return any(u.colour == colour and u.landed is not None and u.landed < deadline and self._could_place(u, point)
                   for u in self.unknowns)

    def _match(self, required: dict[tuple[int, int], int], pinned: dict[int, int],
               rng: random.Random) -> History | None:
        """Who puts each required point down: a random matching of the required points to unknown
        placements (in time) and starting stones, extended so that every unknown and every starting
        stone still has a point of its own (augmenting paths never free a matched point, so the
        required points stay covered). Returns the unknowns that cover required points, and every
        starting stone; ``None`` if no such matching exists."""
        needs = dict(required)
        for index, point in pinned.items():
            unknown = self.unknowns[index]
            deadline = needs.pop((unknown.colour, point), None)
            if deadline is not None and (unknown.landed is None or unknown.landed >= deadline):
                return None
        if any(point in self.forbidden[c] for c, point in needs):
            return None
        taken = {(self.unknowns[i].colour, point) for i, point in pinned.items()}
        root = self.views[0].data
        slots: list[tuple[int, int]] = [(i, u.colour) for i, u in enumerate(self.unknowns) if i not in pinned]
        for c, count in self.root_counts.items():
            slots += [(-1, c)] * count  # the starting hidden stones
        options: dict[int, list[tuple[int, int]]] = {}
        for slot, (index, c) in enumerate(slots):
            if index < 0:
                points = [p for p in range(self.cells) if self._stones(root, c)[p] != k.REVEALED
                          and p not in self.forbidden[c]]
            else:
                unknown = self.unknowns[index]
                points = [p for p in unknown.points if self._could_place(unknown, p) and (
                    (c, p) not in needs or (unknown.landed is not None and unknown.landed < needs[(c, p)]))]
            options[slot] = [(c, p) for p in points if (c, p) not in taken]
            rng.shuffle(options[slot])
        cover = Matching({need: [slot for slot in options if need in options[slot]] for need in needs})
        for fits in cover.adj.values():
            rng.shuffle(fits)
        if not cover.fill(rng):
            return None
        held = dict(cover.right)  # slot -> its point
        if not self.game.options["allow_own_stack"]:  # else stones of one colour may share points
            own = Matching(options)
            for need, slot in cover.left.items():
                own.left[slot], own.right[need] = need, slot
            if not own.fill(rng):
                return None
            held = own.left
        assigned = dict(pinned)
        starting: dict[int, list[int]] = {c: [] for c in self.hidden_colours}
        for slot, (index, c) in enumerate(slots):
            key = held.get(slot)
            if key is None:
                continue
            if index < 0:
                starting[c].append(key[1])
            elif key in needs:
                assigned[index] = key[1]
        return assigned, starting

    # -- filling in -----------------------------------------------------------------------------

    def _root_data(self, starting: dict[int, list[int]], target: int | None) -> np.ndarray | None:
        """The first position with these hidden starting stones (and pending target), if it is possible."""
        data = self.views[0].data.copy()
        for c, points in starting.items():
            stones = k.STONES + c * self.cells
            for point in points:
                data[stones + point] = k.HIDDEN
        pending = target if target is not None else self.root_target
        if pending is not None:
            data[k.F_TARGET] = pending
        k.rebuild(data, self.spec)
        if data[kernel.TO_MOVE] >= 0 and data[k.F_PHASE] >= k.PH_COMMIT and any(
                k.has_winning_lines(data, self.spec, c) for c in self.hidden_colours):
            return None
        return data

    def _complete_start(self, starting: dict[int, list[int]], reserved: dict[int, set[int]],
                        rng: random.Random) -> dict[int, list[int]] | None:
        """Add the starting hidden stones the plan left free, anywhere they may stand."""
        root = self.views[0].data
        complete = {}
        for c, points in starting.items():
            free = [p for p in range(self.cells) if self._stones(root, c)[p] != k.REVEALED and p not in points
                    and p not in reserved[c] and p not in self.forbidden[c]]
            missing = self.root_counts[c] - len(points)
            if missing > len(free):
                return None
            complete[c] = points + rng.sample(free, missing)
        return complete

    def _target_fits(self, data: np.ndarray, point: int) -> bool:
        colour = int(data[k.F_COLOUR])
        own = int(data[k.STONES + colour * self.cells + point])
        limit = k.HIDDEN if self.game.options["allow_own_stack"] else k.EMPTY
        return own <= limit and not self._closed(data)[point]

    def _free_points(self, unknown: Unknown, data: np.ndarray, domain: list[int], reserved: dict[int, set[int]],
                     rng: random.Random) -> list[int]:
        """The points an unplanned placement may take, the least likely to line up with the colour's
        other stones (present, planned or known to come) first, so that no unannounced five forms."""
        c = unknown.colour
        occupied = self._stones(data, c) != k.EMPTY
        occupied[list(reserved[c] | self.known_targets[c])] = True
        filled = occupied[self.segment_points].sum(axis=1)
        # Under allow_own_stack a point planned for a later stone, or targeted openly later, may take
        # one now (the later stone stacks on it), but it would stand early: those come last.
        later = reserved[c] | self.known_targets[c]
        scored = []
        for point in domain:
            segments = self.point_segments[point]
            scored.append((point in later, int(filled[segments[segments >= 0]].max(initial=0)), rng.random(), point))
        return [point for *_, point in sorted(scored)]

    def _fill(self, plan: Plan, rng: random.Random) -> History | None:
        """Give the unplanned unknowns points in the order they happened, checking every move against
        the log, by depth-first search with conflict-directed backjumping; forward checking keeps a
        matching that still gives every undecided unknown a point of its own."""
        reserved = {c: set(points) for c, points in plan.starting.items()}
        for index, point in plan.pinned.items():
            reserved[self.unknowns[index].colour].add(point)
        starting = self._complete_start(plan.starting, reserved, rng)
        if starting is None:
            return None
        root = self._root_data(starting, None)
        if root is None:
            return None
        for c, points in starting.items():
            reserved[c] |= set(points)
        distinct = not self.game.options["allow_own_stack"]  # else a player may stack on their own stone
        domains = {i: [p for p in u.points if self._could_place(u, p) and (not distinct or p not in reserved[u.colour])]
                   for i, u in enumerate(self.unknowns) if i not in plan.pinned}
        own_points = Matching({i: [(self.unknowns[i].colour, p) for p in points] for i, points in domains.items()})
        if any(not d for d in domains.values()) or (distinct and not own_points.fill(rng)):
            return None
        order = sorted(range(len(self.unknowns)), key=lambda i: self.unknowns[i].commit)
        choice: dict[int, int] = {}
        budget = [STEPS_PER_PLAN]
        actions = self.actions.copy()

        def extend(position: int, data: np.ndarray, ply: int, own_points: Matching) -> set[int] | None:
            """Decide the unknowns from ``position`` on; ``None`` on success, else the earlier positions
            whose choices the failure depends on."""
            stop = self.unknowns[order[position]].commit if position < len(order) else self.plies
            if stop > ply:
                bad = replay_checked(data, self.spec, actions, ply, stop, self.expected, CHECKED)
                if bad >= 0:
                    return self._culprits(bad, data, actions, order[:position], domains)
            if position == len(order):
                return None if self._final_fits(data) else set(range(position))
            index = order[position]
            unknown = self.unknowns[index]
            if index in plan.pinned:
                candidates = [plan.pinned[index]]
            else:
                candidates = self._free_points(unknown, data, domains[index], reserved, rng)
            conflicts: set[int] = set()
            for point in candidates:
                budget[0] -= 1
                if budget[0] < 0:
                    raise _OutOfSteps
                if distinct and (unknown.colour, point) in own_points.gone:  # an earlier unknown took it
                    conflicts |= {p for p in range(position) if choice[order[p]] == point
                                  and self.unknowns[order[p]].colour == unknown.colour}
                    continue
                points = own_points
                if index not in plan.pinned and distinct:
                    points = own_points.copy()
                    points.drop_left(index)
                    if not points.drop_right((unknown.colour, point)):
                        # what is left for the later unknowns depends on the earlier choices
                        conflicts |= {p for p in range(position) if order[p] not in plan.pinned
                                      and self.unknowns[order[p]].colour == unknown.colour}
                        continue
                trial = data.copy()
                if unknown.commit < 0:
                    if not self._target_fits(trial, point):
                        conflicts |= set(range(position))
                        continue
                    trial[k.F_TARGET] = point
                else:
                    actions[unknown.commit] = 2 * point + unknown.axis
                choice[index] = point
                result = extend(position + 1, trial, max(unknown.commit, 0), points)
                if result is None:
                    return None
                if position not in result:
                    return result
                conflicts |= result - {position}
            return conflicts

        try:
            if extend(0, root, 0, own_points) is None:
                return choice, starting
        except _OutOfSteps:
            pass
        return None

    def _culprits(self, bad: int, data: np.ndarray, actions: np.ndarray, decided: list[int],
                  domains: dict[int, list[int]]) -> set[int]:
        """The decided unknowns (by position) that a failed ply depends on. Wrong five-announcements at
        a placement, or a win where there was none, come from that colour's stones near its point:
        the unknown that made the placement, and the unplanned unknowns of that colour that could
        have put a stone near it (there, or elsewhere). Anything else (a wrong count of hidden stones,
        an illegal move) may depend on every earlier choice. (A win may also need a five far away:
        then this misses a way out, and the plan is replaced; nothing inconsistent is ever kept.)"""
        before = self.views[bad].data
        expected = self.expected[bad]
        won_early = data[kernel.TO_MOVE] < 0 <= expected[0]  # the end also reveals stones: counts change
        fives_only = bad > 0 and before[k.F_PHASE] == k.PH_RESPOND and (won_early or all(
            data[field] == expected[i] for i, field in enumerate(CHECKED) if field not in FIVES_AND_END))
        if not fives_only:
            return set(range(len(decided)))
        colour, target = int(before[k.F_COLOUR]), int(actions[bad - 1]) >> 1
        zone = self.zones[target]
        return {position for position, index in enumerate(decided)
                if self.unknowns[index].commit == bad - 1 or (
                    index in domains and self.unknowns[index].colour == colour
                    and not zone.isdisjoint(domains[index]))}

    def _actions(self, choice: dict[int, int]) -> np.ndarray:
        actions = self.actions.copy()
        for index, point in choice.items():
            unknown = self.unknowns[index]
            if unknown.commit >= 0:
                actions[unknown.commit] = 2 * point + unknown.axis
        return actions

    def _final_fits(self, data: np.ndarray) -> bool:
        return bool(np.array_equal(self.game.observe(data, self.view.seat), self.view.data))

    # -- consistency and mixing -----------------------------------------------------------------

    def _replay(self, choice: dict[int, int], starting: dict[int, list[int]]) -> np.ndarray | None:
        """The final state of this history if it is consistent with the view, else ``None``."""
        root_target = next((p for i, p in choice.items() if self.unknowns[i].commit < 0), None)
        data = self._root_data(starting, root_target)
        if data is None or (root_target is not None and not self._target_fits(data, root_target)):
            return None
        if replay_checked(data, self.spec, self._actions(choice), 0, self.plies, self.expected, CHECKED) >= 0:
            return None
        return data if self._final_fits(data) else None

    def _mix(self, choice: dict[int, int], starting: dict[int, list[int]], steps: int,
             rng: random.Random) -> History:
        slots = [(i, -1) for i in choice] + [(-1 - c, j) for c, points in starting.items() for j in range(len(points))]
        if not slots:
            return choice, starting

        def point_of(slot: tuple[int, int], ch: dict[int, int], st: dict[int, list[int]]) -> int:
            return ch[slot[0]] if slot[0] >= 0 else st[-1 - slot[0]][slot[1]]

        def set_point(slot: tuple[int, int], point: int, ch: dict[int, int], st: dict[int, list[int]]) -> None:
            if slot[0] >= 0:
                ch[slot[0]] = point
            else:
                st[-1 - slot[0]][slot[1]] = point

        def colour(slot: tuple[int, int]) -> int:
            return self.unknowns[slot[0]].colour if slot[0] >= 0 else -1 - slot[0]

        def domain(slot: tuple[int, int]) -> tuple[int, ...] | range:
            return self.unknowns[slot[0]].points if slot[0] >= 0 else range(self.cells)

        for _ in range(steps):
            new_choice, new_start = dict(choice), {c: list(p) for c, p in starting.items()}
            first = rng.choice(slots)
            if rng.random() < 0.5:
                point = rng.choice(domain(first))
                if point == point_of(first, choice, starting):
                    continue
                if first[0] < 0 and point in starting[colour(first)]:
                    continue
                set_point(first, point, new_choice, new_start)
            else:
                second = rng.choice(slots)
                a, b = point_of(first, choice, starting), point_of(second, choice, starting)
                if second == first or colour(second) != colour(first) or a == b or \
                        b not in domain(first) or a not in domain(second):
                    continue
                set_point(first, b, new_choice, new_start)
                set_point(second, a, new_choice, new_start)
            if self._replay(new_choice, new_start) is not None:
                choice, starting = new_choice, new_start
        return choice, starting

    # -- the sample -----------------------------------------------------------------------------

    def sample(self, rng: random.Random, mixing: int | None = None) -> State:
        """A full state with the same view for this seat; ``mixing`` Metropolis steps (default: four per
        unknown) bring the draw close to uniform over the consistent histories."""
        for _ in range(PLANS):
            plan = self._plan(rng)
            if plan is None:
                continue
            filled = self._fill(plan, rng)
            if filled is not None:
                break
        else:
            raise BoardlabError(
                f"hmdg: found no placement of the hidden stones consistent with seat {self.view.seat}'s view "
                f"in {PLANS} tries"
            )
        choice, starting = filled
        slots = len(choice) + sum(len(points) for points in starting.values())
        choice, starting = self._mix(choice, starting, 4 * slots if mixing is None else mixing, rng)
        return self._build(choice, starting)

    def _build(self, choice: dict[int, int], starting: dict[int, list[int]]) -> State:
        """The sampled history as a chain of states, so that its views can be compared move by move."""
        root_target = next((p for i, p in choice.items() if self.unknowns[i].commit < 0), None)
        data = self._root_data(starting, root_target)
        assert data is not None
        actions = self._actions(choice)
        game = self.game
        state = State(game, data)
        for ply in range(self.plies):
            after = state.data.copy()
            path = (int(actions[ply]),)
            game.apply_kernel(after, game.spec, path[0])
            state = State(game, after, state, Move(game.action_text(state.data, path), path))
        return state


def determinize(game: HiddenMoveDoubleGomoku, view: View, rng: random.Random, mixing: int | None = None) -> State:
    """A full state consistent with ``view`` (see :class:`Sampler`)."""
    return Sampler(game, view).sample(rng, mixing)
