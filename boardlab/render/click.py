"""Click to move: turning clicks on a drawn board into legal moves, and explaining the ones that are not.

A game's face says which steps enter each move (:meth:`boardlab.Game.click_steps`: cell names as
in the SVG's ``data-cell``, or labels such as ``pass`` for buttons). Everything else is here, once
for every game: which steps may come next after those clicked so far, whether they make a whole
move, and why a step that may not come next is refused.

>>> import boardlab
>>> view = boardlab.load("gtbm", size=4).new_game().view(0)
>>> next_steps(view, ())
NextSteps(steps=('a1', 'b1', 'c1', 'd1'), move=None)
>>> next_steps(view, ("c1",))
NextSteps(steps=('b2', 'd2'), move=None)
>>> next_steps(view, ("c1", "d2")).move
Move('c1-d2', (43,))
>>> why_not(view, (), "b2")
'no move from b2: there is no piece on b2'
>>> why_not(view, ("c1",), "c3")
'c1-c3: a piece moves one square, diagonally forward or straight back (Black moves up the board)'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardlab.core.move import Move
from boardlab.core.view import View
from boardlab.errors import BoardlabError, IllegalMove, InvalidMove


@dataclass(frozen=True)
class NextSteps:
    """After some clicks: the steps that may come next (in the order of the legal moves), and the
    move the clicks so far make, if they make a whole one (then ``steps`` is empty)."""

    steps: tuple[str, ...]
    move: Move | None


def step_map(view: View) -> dict[tuple[str, ...], Move]:
    """Every legal move of ``view``'s seat by the steps that enter it.

    A face whose steps would enter two moves alike, or one move's steps begin another's, is a bug:
    a board could not tell them apart, so it is refused here.
    """
    game, data = view.game, view.data
    steps: dict[tuple[str, ...], Move] = {}
    for move in view.legal_moves():
        key = game.click_steps(data, move.path)
        if not key or key in steps:
            raise BoardlabError(f"{game.id}: the moves {steps.get(key)} and {move} are entered by the same "
                                f"clicks {key!r}")
        steps[key] = move
    return steps


def next_steps(view: View, prefix: tuple[str, ...] = ()) -> NextSteps:
    """The steps that may follow ``prefix`` (clicks so far) toward a legal move of ``view``'s seat.

    An empty result with no move means ``prefix`` begins no legal move (see :func:`why_not`).
    """
    prefix = tuple(prefix)
    following: dict[str, None] = {}
    whole = None
    for key, move in step_map(view).items():
        if key == prefix:
            whole = move
        elif len(key) > len(prefix) and key[: len(prefix)] == prefix:
            following.setdefault(key[len(prefix)])
    return NextSteps(tuple(following), whole)


def why_not(view: View, prefix: tuple[str, ...], step: str) -> str:
    """Why clicking ``step`` after ``prefix`` enters no legal move, in words ("" if it does).

    The reason comes from the rules where the clicks name a move (:meth:`boardlab.Game.why_illegal`
    or the notation's own complaint); where they only begin one (a piece picked that cannot move),
    from each move they could have begun.
    """
    prefix = tuple(prefix)
    if view.is_over:
        return "the game is over"
    if view.seat is None or view.seat != view.to_move:
        assert view.to_move is not None
        return f"it is not your turn: {view.game.seat_label(view.data, view.to_move)} is to move"
    options = next_steps(view, prefix)
    if step in options.steps:
        return ""
    if prefix and not options.steps and options.move is None:
        for length in range(len(prefix)):  # explain the first click that went wrong
            if prefix[length] not in next_steps(view, prefix[:length]).steps:
                return why_not(view, prefix[:length], prefix[length])
    if options.move is not None:
        return f"{' '.join(prefix)} is already a whole move ({options.move})"
    game, data = view.game, view.data
    clicked = (*prefix, step)
    done = _consumed(view, prefix)
    before = game.click_steps(data, done) if done else ()
    exact, begun = _candidates(view, done, clicked[len(before):])
    if exact:
        return _reasons(game.why_illegal(data, path) for path in exact)
    if begun:
        return f"no move from {step}: " + _reasons(game.why_illegal(data, path) for path in begun)
    try:
        game.parse_path(data, game.click_text(data, clicked))
    except InvalidMove:
        pass
    except IllegalMove as error:
        return str(error)
    if options.steps:
        shown = ", ".join(options.steps[:12]) + (" …" if len(options.steps) > 12 else "")
        after = f" after {' '.join(prefix)}" if prefix else ""
        return f"{step} is not a legal step{after}; the legal ones are {shown}"
    return f"{step} begins no legal move"


def move_cells(view: View, move: Move) -> tuple[str, ...]:
    """The cells among the steps of ``move`` from ``view``'s position: where the move is made."""
    cells = set(view.game.cell_names())
    return tuple(step for step in view.game.click_steps(view.data, move.path) if step in cells)


def last_move_cells(view: View) -> tuple[str, ...]:
    """The cells of the last move, as ``view``'s seat knows it (a hidden move has none)."""
    move, before = view.last_move, view.previous
    if move is None or before is None or not move.path:
        return ()
    return move_cells(before, move)


def _consumed(view: View, prefix: tuple[str, ...]) -> tuple[int, ...]:
    """The longest beginning of a legal move's path whose steps ``prefix`` already holds in full."""
    game, data = view.game, view.data
    best: tuple[int, ...] = ()
    for move in view.legal_moves():
        for length in range(len(best) + 1, len(move.path)):
            steps = game.click_steps(data, move.path[:length])
            if len(steps) <= len(prefix) and steps == prefix[: len(steps)]:
                best = move.path[:length]
    return best


def _candidates(view: View, done: tuple[int, ...], rest: tuple[str, ...]) -> tuple[list[tuple[int, ...]],
                                                                                   list[tuple[int, ...]]]:
    """Paths ``done`` + one action whose remaining steps are exactly ``rest``, and the shortest they begin."""
    game, data = view.game, view.data
    skip = len(game.click_steps(data, done)) if done else 0
    exact, begun = [], []
    for action in range(game.action_limit):
        path = (*done, action)
        steps = game.click_steps(data, path)[skip:]
        if steps == rest:
            exact.append(path)
        elif len(steps) > len(rest) and steps[: len(rest)] == rest:
            begun.append(path)
    # where clicks could go on in many ways (HMDG's reveals), the shortest ways say enough
    shortest = min((len(game.click_steps(data, path)) for path in begun), default=0)
    return exact, [path for path in begun if len(game.click_steps(data, path)) == shortest]


def _reasons(reasons: Iterable[str]) -> str:
    unique: dict[str, None] = {}
    for reason in reasons:
        unique.setdefault(reason)
    return "; ".join(unique)
