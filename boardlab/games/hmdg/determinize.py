"""Determinization for HMDG: full states that one seat cannot tell from the real one (for search).

What a seat does not know is where the other player's hidden placements landed (each on a line it
heard announced), the other player's pending target (on the announced line), and, for a game that
began from a position text, where the other player's hidden stones stood then. A *history* gives
each of those unknowns a point; it is *consistent* when replaying it through the rules gives the
seat exactly its view: the same observation after every move and the same public log (outcomes,
five-announcements, passes, the end). A spectator (seat ``None``) knows neither player's stones.

:class:`Sampler` draws consistent histories in three steps:

1. *Evidence* (``evidence.py``), read off the seat's views move by move: required points (a stone
   revealed later, or a pass), forbidden points, announced fives, the public log to reproduce.
2. *A plan* (``planning.py``): the unknowns that made announced fives are pinned to points on runs
   drawn to make them, and every required point gets an unknown that could have put it down in time.
3. *Filling in* (here): the other unknowns, in the order they happened, by randomised depth-first
   search over the points of their lines, the least likely to line up with their colour's stones
   first. Every move is replayed through the kernel and checked against the public log at once; a
   failure backjumps to the latest choice it can depend on (conflict-directed backjumping), and a
   matching kept up to date checks ahead that every undecided unknown can still get a point of its
   own. A plan that cannot be completed within its steps is replaced by a new one; after ``PLANS``
   plans the sampler gives up with :class:`~boardlab.BoardlabError` (it never returns an
   inconsistent state).

Then ``mixing`` Metropolis steps: move one unknown to a uniformly drawn point of its line (a starting
stone: of the board), or swap two of one colour, keeping the result only if the history is still
consistent. The proposals are symmetric, so the stationary distribution of this chain is uniform
over consistent histories: the seat's posterior if the other player had chosen targets uniformly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from boardlab.core import kernel
from boardlab.core.move import Move
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import BoardlabError
from boardlab.games.hmdg import kernel as k
from boardlab.games.hmdg.evidence import CHECKED, Unknown
from boardlab.games.hmdg.planning import History, Matching, Plan, Planner

if TYPE_CHECKING:
    from boardlab.games.hmdg.face import HiddenMoveDoubleGomoku

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


class _OutOfSteps(Exception):
    """The depth-first fill of one plan has used its steps."""


class Sampler(Planner):
    """Draws full states consistent with one view; build once per view, sample many times."""

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
        """A full state with the same view for this seat; ``mixing`` Metropolis steps (default: eight per
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
        choice, starting = self._mix(choice, starting, 8 * slots if mixing is None else mixing, rng)
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
