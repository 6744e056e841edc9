"""Plans for determinization: who put each required stone down, and how announced fives were made.

A :class:`Plan` pins the unknowns that made announced fives to points (drawing the runs of stones
that made them, which adds required points) and gives every required point an unknown placement or
starting stone that could have put it there in time, by a random bipartite matching extended so
that every other unknown keeps a point of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardlab.core import kernel
from boardlab.games.hmdg import kernel as k
from boardlab.games.hmdg.evidence import Evidence, Five

History = tuple[dict[int, int], dict[int, list[int]]]  # unknown -> point; colour -> starting stones


@dataclass
class Plan:
    """What a history must contain: the points of the unknowns that made announced fives or cover
    required points, and the starting stones that cover required points."""

    pinned: dict[int, int]
    starting: dict[int, list[int]]


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


class Planner(Evidence):
    """Draws plans from the evidence."""

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
