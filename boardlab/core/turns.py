"""Whole turns at kernel speed: every legal turn listed in one numba call, its text from tables.

``state.legal_moves()`` owes every whole turn (a Möbiatus capture chain is one turn of several
actions) with its text. Listing them in Python cost a kernel call per action tried and a face's
``action_text`` per turn, which replayed the turn's hops and built each cell's name again
(Möbiatus: some 186 turns a position, 94% of the time in ``action_text``). Here:

- a game's ``turns`` kernel (:func:`compile_turns`) walks the turns depth first inside numba,
  through the game's ``legal`` and ``apply`` kernels, and returns them as flat arrays: the
  actions, a *text key* per action and where each turn begins;
- a game's ``describe`` kernel gives each action's text key before it is played: a number that
  fixes the action's text in that position (the action itself where its text never changes, more
  where it does: Möbiatus' ``*`` after a capture, GTBM's captured pieces, Mynd's pushed line), and
  says whether the turn ends with that action, so that the walk need not play it to find out;
- the face's ``key_text(key)`` writes a key's text once; :class:`boardlab.Game` keeps the texts,
  and the one-action :class:`~boardlab.Move` of each key, in tables built as keys turn up;
- a turn of several actions has a *code* (its keys packed), by which a position takes the moves
  that stay the same from the position before the last (:class:`Turns`); only the others are made.

A turn's text is its keys' texts joined, so ``move_text`` equals the face's own ``action_text``
(the readable definition of the notation, which tests check these tables against).

``describe`` packs the key and what it knows of the turn as ``key << 2 | turn``, ``turn`` one of
:data:`TURN_UNKNOWN` (play the action to see), :data:`TURN_ENDS` and :data:`TURN_GOES_ON`.
"""

from __future__ import annotations

import hashlib
import marshal
import types as pytypes
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit, types

from boardlab.core.kernel import MAX_ACTIONS, MID_TURN, SPEC, STATE, TO_MOVE
from boardlab.core.move import Move, fast_move

# A position's turn codes and its moves, in the same order (handed to the position after next).
Known = tuple[np.ndarray, list[Move]]

_new_move = object.__new__
_set_text = Move.__dict__["text"].__set__
_set_path = Move.__dict__["path"].__set__

if TYPE_CHECKING:
    from boardlab.core.game import Game

TURN_UNKNOWN = 0
TURN_ENDS = 1
TURN_GOES_ON = 2

DESCRIBE_SIG = types.int64(STATE, SPEC, types.int64)
DESCRIBE_FN = types.FunctionType(DESCRIBE_SIG)
TURNS_SIG = types.Tuple((STATE, STATE, STATE, STATE))(SPEC, SPEC)
SINGLE_TURNS_SIG = types.Tuple((STATE, STATE, STATE))(SPEC, SPEC)
# A turn's *code* packs its text keys, each plus one, CODE_BITS a key: one number names the turn's
# move in the game's table. Longer turns and larger keys have code 0 (no table).
CODE_BITS = 15
CODE_KEYS = 4
CARRY_SIG = types.void(STATE, STATE, SPEC)
SHARE_SIG = types.int64(STATE, SPEC, types.int64)


@njit(DESCRIBE_SIG, cache=True)
def plain_describe(state, spec, action):  # type: ignore[no-untyped-def]
    """The text key of a game whose actions read the same in every position: the action itself."""
    return action << 2


@njit(CARRY_SIG, cache=True)
def full_carry(dest, source, spec):  # type: ignore[no-untyped-def]
    """The walk's step down a turn, for a game that says nothing more: copy the whole vector."""
    dest[:] = source


@njit(SHARE_SIG, cache=True)
def no_share(state, spec, action):  # type: ignore[no-untyped-def]
    """The walk's question for a game that says nothing more: no first steps share their turns."""
    return 0


@njit(cache=True)
def _code(keys, at, length):  # type: ignore[no-untyped-def]
    """The code of the turn whose keys are ``keys[at:at + length]`` (0: none)."""
    if length > CODE_KEYS:
        return 0
    code = 0
    for j in range(length):
        if keys[at + j] + 1 >= 1 << CODE_BITS:
            return 0
        code |= (keys[at + j] + 1) << (CODE_BITS * j)
    return code


@njit(types.int64[::1](STATE, STATE), cache=True)
def match_codes(codes, before):  # type: ignore[no-untyped-def]
    """For each of ``codes``, where the same code (not 0) stands in ``before``, or -1 (a hash table)."""
    size = 1
    while size < 2 * before.shape[0] + 2:
        size *= 2
    table = np.full(size, -1, np.int64)
    mix = np.uint64(0x9E3779B97F4A7C15)
    for j in range(before.shape[0]):
        code = before[j]
        if code == 0:
            continue
        slot = np.int64((np.uint64(code) * mix) >> np.uint64(40)) & (size - 1)
        while table[slot] >= 0 and before[table[slot]] != code:
            slot = (slot + 1) & (size - 1)
        table[slot] = j
    found = np.full(codes.shape[0], -1, np.int64)
    for i in range(codes.shape[0]):
        code = codes[i]
        if code == 0:
            continue
        slot = np.int64((np.uint64(code) * mix) >> np.uint64(40)) & (size - 1)
        while table[slot] >= 0:
            if before[table[slot]] == code:
                found[i] = table[slot]
                break
            slot = (slot + 1) & (size - 1)
    return found


@njit(types.UniTuple(types.int64[::1], 3)(STATE, STATE, STATE, STATE), cache=True)
def gather_turns(actions, keys, offsets, which):  # type: ignore[no-untyped-def]
    """The actions, text keys and bounds of the turns ``which``, end to end (as the walk gives them)."""
    total = 0
    for index in which:
        total += offsets[index + 1] - offsets[index]
    some_actions = np.empty(total, np.int64)
    some_keys = np.empty(total, np.int64)
    bounds = np.empty(which.shape[0] + 1, np.int64)
    bounds[0] = 0
    at = 0
    for j in range(which.shape[0]):
        lo, hi = offsets[which[j]], offsets[which[j] + 1]
        some_actions[at: at + hi - lo] = actions[lo:hi]
        some_keys[at: at + hi - lo] = keys[lo:hi]
        at += hi - lo
        bounds[j + 1] = at
    return some_actions, some_keys, bounds


@njit(types.UniTuple(types.int64, 2)(STATE, STATE, types.int64), cache=True)
def turns_beginning(actions, offsets, first):  # type: ignore[no-untyped-def]
    """The turns (``lo`` to ``hi``) whose first action is ``first``, in turns listed in canonical
    order (by binary search)."""
    turns = offsets.shape[0] - 1
    lo, hi = 0, turns
    while lo < hi:
        mid = (lo + hi) >> 1
        if actions[offsets[mid]] < first:
            lo = mid + 1
        else:
            hi = mid
    end, hi = lo, turns
    while end < hi:
        mid = (end + hi) >> 1
        if actions[offsets[mid]] <= first:
            end = mid + 1
        else:
            hi = mid
    return lo, end


@njit(cache=True)
def _sort_into(dest, at, source, count):  # type: ignore[no-untyped-def]
    """``dest[at:at + count] = sorted(source[:count])``: an insertion sort for the short lists of a
    turn's later steps (np.sort allocates and costs more there), np.sort for long ones."""
    if count > 48:
        dest[at: at + count] = np.sort(source[:count])
        return
    for i in range(count):
        value = source[i]
        j = at + i
        while j > at and dest[j - 1] > value:
            dest[j] = dest[j - 1]
            j -= 1
        dest[j] = value


@njit(cache=True)
def _grow(array, need):  # type: ignore[no-untyped-def]
    if need <= array.shape[0]:
        return array
    bigger = np.empty(max(need, 2 * array.shape[0]), np.int64)
    bigger[: array.shape[0]] = array
    return bigger


def _single_walk(start, spec):  # type: ignore[no-untyped-def]
    """Every legal turn from ``start`` of a game whose every action is a whole turn, ascending:
    ``(actions, keys, offsets)`` as :func:`_walk` gives them (no codes: these need none)."""
    out = np.empty(MAX_ACTIONS, np.int64)
    if start[TO_MOVE] < 0:
        empty = np.empty(0, np.int64)
        return empty, empty.copy(), np.zeros(1, np.int64)
    board = start.copy()  # ``legal`` may keep caches in the vector it lists from
    count = legal(board, spec, out)  # noqa: F821 - bound by compile_turns
    chosen = np.sort(out[:count])
    keys = np.empty(count, np.int64)
    for i in range(count):
        keys[i] = describe(board, spec, chosen[i]) >> 2  # noqa: F821 - bound by compile_turns
    return chosen, keys, np.arange(count + 1).astype(np.int64)


def _walk(start, spec):  # type: ignore[no-untyped-def]
    """Every legal whole turn from ``start``, in canonical order (each level's actions ascending).

    Returns ``(actions, keys, offsets, codes)``: turn ``i`` is ``actions[offsets[i]:offsets[i + 1]]``,
    its text keys the same slice of ``keys``, its code (:data:`CODE_BITS`) ``codes[i]``. The game's
    ``legal``, ``apply``, ``describe``, ``carry`` and ``share`` are globals of the compiled copy
    (:func:`compile_turns`).

    First steps for which the game's ``share`` gives the same number other than 0 lead on to the
    same turns (Möbiatus: a leap into a singularity, then a slide out of its group, whichever piece
    leapt): the turns after the first such step are copied for the others, not walked again.

    Each level of the turn plays on its own row of ``boards``. A row is first filled with a whole
    copy of the level above; after that, going down to it again copies only what ``carry`` says a
    step inside the turn changes (Möbiatus: some 1,000 of a 5,245-number vector, where a whole copy
    was most of the walk's time), so a row that has seen a turn's last step is filled whole again.
    """
    out = np.empty(MAX_ACTIONS, np.int64)
    n = start.shape[0]
    if start[TO_MOVE] < 0:
        empty = np.empty(0, np.int64)
        return empty, empty.copy(), np.zeros(1, np.int64), empty.copy()
    # ``legal`` may keep caches in the vector it lists from; the kernels work on from there (a
    # random playout lists and plays on one vector), so each level lists on its own board.
    depth_cap = 8
    boards = np.empty((depth_cap, n), np.int64)
    boards[0, :] = start
    ready = 1  # rows 0 … ready - 1 hold positions of this turn that only non-final steps made
    low = np.empty(depth_cap, np.int64)  # each level's actions: pending[low:high], next at ``at``
    high = np.empty(depth_cap, np.int64)
    at = np.empty(depth_cap, np.int64)
    prefix = np.empty(depth_cap, np.int64)
    prefix_keys = np.empty(depth_cap, np.int64)
    pending = np.empty(256, np.int64)
    actions = np.empty(256, np.int64)
    keys = np.empty(256, np.int64)
    offsets = np.empty(257, np.int64)
    offsets[0] = 0
    codes = np.empty(256, np.int64)
    turns = 0
    used = 0
    shared = np.empty(48, np.int64)  # (share number, first turn, end) of first steps walked
    n_shared = 0
    open_share = 0  # the share number of the first step being walked, and its first turn
    open_first = 0
    count = legal(boards[0], spec, out)  # noqa: F821 - bound by compile_turns
    pending = _grow(pending, count)
    _sort_into(pending, 0, out, count)
    low[0], high[0], at[0] = 0, count, 0
    top = count
    level = 0
    while level >= 0:
        if at[level] == high[level]:
            top = low[level]
            level -= 1
            continue
        action = pending[at[level]]
        at[level] += 1
        info = describe(boards[level], spec, action)  # noqa: F821 - bound by compile_turns
        prefix[level] = action
        prefix_keys[level] = info >> 2
        if level == 0:
            if open_share != 0:  # the first step before this one has been walked: remember its turns
                shared = _grow(shared, 3 * n_shared + 3)
                shared[3 * n_shared: 3 * n_shared + 3] = (open_share, open_first, turns)
                n_shared += 1
            open_share = share(boards[0], spec, action)  # noqa: F821 - bound by compile_turns
            open_first = turns
            found = -1
            if open_share != 0:
                for j in range(n_shared):
                    if shared[3 * j] == open_share:
                        found = j
                        break
            if found >= 0:  # the same turns on from here as that step's: copy them
                open_share = 0
                for turn in range(shared[3 * found + 1], shared[3 * found + 2]):
                    lo, hi = offsets[turn], offsets[turn + 1]
                    actions = _grow(actions, used + hi - lo)
                    keys = _grow(keys, used + hi - lo)
                    actions[used] = action
                    keys[used] = prefix_keys[0]
                    actions[used + 1: used + hi - lo] = actions[lo + 1: hi]
                    keys[used + 1: used + hi - lo] = keys[lo + 1: hi]
                    codes = _grow(codes, turns + 1)
                    codes[turns] = _code(keys, used, hi - lo)
                    used += hi - lo
                    turns += 1
                    offsets = _grow(offsets, turns + 1)
                    offsets[turns] = used
                continue
        goes_on = False
        if info & 3 != TURN_ENDS:
            if level + 1 == depth_cap:
                depth_cap *= 2
                wider = np.empty((depth_cap, n), np.int64)
                wider[: level + 1] = boards[: level + 1]
                boards = wider
                low, high, at = _grow(low, depth_cap), _grow(high, depth_cap), _grow(at, depth_cap)
                prefix, prefix_keys = _grow(prefix, depth_cap), _grow(prefix_keys, depth_cap)
            after = boards[level + 1]
            if level + 1 < ready:
                carry(after, boards[level], spec)  # noqa: F821 - bound by compile_turns
            else:
                after[:] = boards[level]
                ready = level + 2
            apply(after, spec, action)  # noqa: F821 - bound by compile_turns
            goes_on = after[MID_TURN] != 0 and after[TO_MOVE] == boards[level, TO_MOVE]
            if not goes_on:
                ready = level + 1
        if goes_on:
            level += 1
            count = legal(boards[level], spec, out)  # noqa: F821 - bound by compile_turns
            pending = _grow(pending, top + count)
            _sort_into(pending, top, out, count)
            low[level], high[level], at[level] = top, top + count, top
            top += count
        else:
            length = level + 1
            actions = _grow(actions, used + length)
            keys = _grow(keys, used + length)
            actions[used: used + length] = prefix[:length]
            keys[used: used + length] = prefix_keys[:length]
            codes = _grow(codes, turns + 1)
            codes[turns] = _code(keys, used, length)
            used += length
            turns += 1
            offsets = _grow(offsets, turns + 1)
            offsets[turns] = used
    return actions[:used].copy(), keys[:used].copy(), offsets[: turns + 1].copy(), codes[:turns].copy()


def compile_turns(namespace: dict[str, Any], *, several: bool) -> Callable[[np.ndarray, np.ndarray], Any]:
    """A game's ``turns(start, spec)``, the walk of :func:`_walk` calling that game's kernels
    (:func:`_single_walk` where ``several`` is False: every action is a whole turn).

    Call it at the end of a game's kernel module: ``turns = compile_turns(globals(), several=...)``
    with ``legal``, ``apply`` and (optionally) ``describe`` and ``carry`` defined there.
    ``carry(dest, source, spec)`` (:data:`CARRY_SIG`) copies into ``dest`` what the steps of a turn
    may have changed and what later steps read: ``dest`` and ``source`` both hold the turn's start
    position with only non-final steps of the turn played on them (and any number of ``legal``
    calls), and afterwards ``dest`` must list and play exactly as ``source`` would. Scratch the
    kernels keep in the vector under counters of their own (flood-fill stamps) is best left to each
    row, counter and marks together. Without ``carry`` the whole vector is copied.
    ``share(start, spec, action)`` (:data:`SHARE_SIG`) numbers a first step of a turn such that
    first steps with the same number other than 0 are followed by the same steps, with the same
    text keys; without it, 0 for every step. The walk is compiled as a
    function of that module, so that it calls the kernels directly and numba caches it beside them
    (handing numba functions over as arguments from Python costs some 100 µs a call, and a compiled
    function holding their addresses cannot be cached). Its name carries a digest of the walk and
    its helpers here, so that a changed walk is compiled afresh.
    """
    walk_code = (_walk if several else _single_walk).__code__
    helpers = (_grow, _sort_into, _code, full_carry, no_share)
    codes = [marshal.dumps(walk_code), *(marshal.dumps(f.__code__) for f in helpers)]
    digest = hashlib.sha1(b"".join(codes)).hexdigest()[:12]
    name = f"whole_turns_{digest}"
    code = walk_code.replace(co_filename=namespace["__file__"], co_name=name, co_qualname=name)
    scope = {
        "legal": namespace["legal"], "apply": namespace["apply"],
        "describe": namespace.get("describe", plain_describe), "carry": namespace.get("carry", full_carry),
        "share": namespace.get("share", no_share), "_code": _code,
        "np": np, "_grow": _grow, "_sort_into": _sort_into, "MAX_ACTIONS": MAX_ACTIONS, "MID_TURN": MID_TURN,
        "TO_MOVE": TO_MOVE, "TURN_ENDS": TURN_ENDS, "CODE_BITS": CODE_BITS, "CODE_KEYS": CODE_KEYS,
    }
    walk = pytypes.FunctionType(code, scope, name)
    walk.__module__ = namespace["__name__"]
    walk.__qualname__ = name
    compiled = njit(TURNS_SIG if several else SINGLE_TURNS_SIG, cache=True)(walk)
    # What the face's ``turns_of_several_actions`` says (:func:`~boardlab.core.facekit.bind_kernels` reads it).
    compiled.several = several  # type: ignore[attr-defined]
    return compiled


class Turns:
    """The legal whole turns of one position: their paths, text keys and (once asked) moves.

    Kept by a :class:`~boardlab.State`. The arrays are no containers the garbage collector tracks;
    the list of moves is made when asked for and dropped once the position has a successor.

    Where turns take several actions, a turn's move is taken where it can be from the moves of the
    position before the last (``known``: the same player's turns, by code), since most of a
    player's turns stay the same from one turn to the next: a Möbiatus position lists some 200 turns,
    and making each anew in Python was most of ``legal_moves()``. The moves live no longer than that,
    so that the garbage collector's full passes do not grow with them (a table of every turn seen,
    kept by the game, made them the slowest part).
    """

    __slots__ = ("_actions", "_arrays", "_game", "_keys", "_known", "_mine", "_moves", "_offsets", "_paths",
                 "single")

    def __init__(self, game: Game, data: np.ndarray, known: Known | None = None) -> None:
        self._game = game
        listed = game.turns_kernel(data, game.spec)
        actions, keys, offsets = listed[:3]
        self.single = offsets.shape[0] - 1 == actions.shape[0]
        # Turns of several actions keep the arrays (no containers the garbage collector tracks, and a
        # third of the memory of tuples of numbers); tuples are made only for paths() and find()
        # once the moves are gone.
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self._actions: tuple[int, ...] = ()
        self._keys: tuple[int, ...] = ()
        self._offsets: tuple[int, ...] = ()
        if self.single:
            self._actions = tuple(actions.tolist())
            self._keys = tuple(keys.tolist())
        else:
            self._arrays = (actions, keys, offsets, listed[3])
        self._known = known
        self._mine: Known | None = None  # this position's codes and moves, for the one after next
        self._moves: list[Move] | None = None
        self._paths: tuple[tuple[int, ...], ...] | None = None

    def _tuples(self) -> None:
        if self._arrays is not None and not self._offsets:
            actions, keys, offsets, _ = self._arrays
            self._actions = tuple(actions.tolist())
            self._keys = tuple(keys.tolist())
            self._offsets = tuple(offsets.tolist())

    def __len__(self) -> int:
        if self._arrays is None:
            return len(self._actions)
        return len(self._arrays[3])

    def paths(self) -> tuple[tuple[int, ...], ...]:
        if self._paths is None:
            if self.single:
                self._paths = tuple((action,) for action in self._actions)
            else:
                self._tuples()
                acts, bounds = self._actions, self._offsets
                self._paths = tuple(acts[bounds[i]: bounds[i + 1]] for i in range(len(bounds) - 1))
        return self._paths

    def moves(self) -> list[Move]:
        """The turns as moves, in canonical order (the one-action ones shared from the game's table)."""
        if self._moves is None:
            if self.single:
                self._moves = self._game.moves_of_keys(self._keys)
            else:
                self._moves = self._several_moves()
        return self._moves

    def take_mine(self) -> Known | None:
        """This position's moves by code (for the position after next), given once."""
        mine, self._mine = self._mine, None
        return mine

    def _several_moves(self) -> list[Move]:
        # The hot loop of a Möbiatus position (some 200 turns, most of several steps).
        game = self._game
        texts = game.key_texts
        assert self._arrays is not None
        actions, all_keys, offsets, codes = self._arrays
        known, self._known = self._known, None
        if known is not None:  # the same turns' moves from there, None for the others (index -1)
            before_codes, before_moves = known
            found = match_codes(codes, before_codes)
            moves: list[Move | None] = list(map([*before_moves, None].__getitem__, found.tolist()))
            missing = np.flatnonzero(found < 0)
        else:
            moves = [None] * len(codes)
            missing = np.arange(len(codes))
        # Numbers of the turns still to make only (Python ints cost an allocation each).
        some_actions, some_keys, some_bounds = gather_turns(actions, all_keys, offsets, missing)
        acts, keys, bounds = tuple(some_actions.tolist()), some_keys.tolist(), some_bounds.tolist()
        new, set_text, set_path = _new_move, _set_text, _set_path  # fast_move, inlined
        for j, index in enumerate(missing.tolist()):
            lo, hi = bounds[j], bounds[j + 1]
            try:
                if hi - lo == 2:  # most of them: a leap, then where the slide comes to rest
                    text = texts[keys[lo]] + texts[keys[lo + 1]]
                elif hi - lo == 1:
                    moves[index] = game.move_of_key(keys[lo])
                    continue
                else:
                    text = "".join([texts[key] for key in keys[lo:hi]])
            except KeyError:  # a text not written yet
                text = "".join([game.key_text_of(key) for key in keys[lo:hi]])
            made = new(Move)
            set_text(made, text)
            set_path(made, acts[lo:hi])
            moves[index] = made
        self._mine = (codes, moves)  # type: ignore[assignment] # no None left
        return moves  # type: ignore[return-value]

    def _move_at(self, index: int) -> Move:
        game, keys = self._game, self._keys
        lo, hi = self._offsets[index], self._offsets[index + 1]
        if hi - lo == 1:
            return game.move_of_key(keys[lo])
        return fast_move("".join([game.key_text_of(key) for key in keys[lo:hi]]), self._actions[lo:hi])

    def find(self, path: tuple[int, ...]) -> Move | None:
        """The legal move whose actions are ``path``, or ``None``."""
        if self.single:
            if len(path) != 1:
                return None
            try:
                index = self._actions.index(path[0])
            except ValueError:
                return None
            return self._game.move_of_key(self._keys[index])
        if self._moves is not None and self._arrays is not None:
            first = path[0] if path else None
            if not isinstance(first, int | np.integer) or not 0 <= first < 1 << 62:
                return None  # no action number (the kernel's int64 could not hold it)
            # Turns come in canonical order, so those that begin with path[0] stand together.
            lo, hi = turns_beginning(self._arrays[0], self._arrays[2], first)
            for move in self._moves[lo:hi]:
                if move.path == path:
                    return move
            return None
        self._tuples()
        acts, bounds = self._actions, self._offsets
        for index in range(len(bounds) - 1):
            if acts[bounds[index]: bounds[index + 1]] == path:
                return self._move_at(index)
        return None

    def forget_moves(self) -> None:
        """Drop the moves list and paths (the arrays remain): the position is history now."""
        self._moves = None
        self._paths = None
