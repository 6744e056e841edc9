"""What each seat may know in HMDG (H9): no leaks, determinization, per-seat records.

The leak test does not trust the views it tests: it moves the other player's hidden stones along
their announced lines, replays the game, keeps the variants whose public events (defined here from
the rules, not by ``observe``) are the same, and checks that the seat's view did not change.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardlab
from boardlab import records
from boardlab.core import kernel as core
from boardlab.games.hmdg import kernel as k
from tests.golden.make_golden import VIEWS, view_file_suffix, view_record_of

GOLDEN = Path(__file__).parent / "golden"

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"setup": "fixed", "reveal_stack_partner": True},
    {"announce": "first_five_only", "overline_counts": False},
    {"allow_own_stack": True, "reveal_at_end": "all"},
    {"size": 5, "line_length": 3, "no_target": "draw"},
]


def random_game(game: boardlab.Game, seed: int) -> list[boardlab.State]:
    rng = random.Random(seed)
    state = game.new_game()
    states = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def same_view(a: boardlab.View, b: boardlab.View) -> bool:
    return (np.array_equal(a.data, b.data) and a.to_text() == b.to_text() and str(a) == str(b)
            and [m.text for m in a.history()] == [m.text for m in b.history()]
            and a.legal_moves() == b.legal_moves() and a.to_dict() == b.to_dict())


# -- no leaks -------------------------------------------------------------------------------------


def public_events(state: boardlab.State) -> tuple:
    """What the rules make public (H9), read straight off the state vector: revealed stones, whose
    turn, the announced line, the last outcome, five-announcements, hidden counts, the result."""
    data, cells = state.data, state.game.cells  # type: ignore[attr-defined]
    revealed = tuple(np.flatnonzero(data[k.STONES: k.STONES + 2 * cells] == k.REVEALED).tolist())
    fields = (core.TO_MOVE, core.PLY, core.END_REASON, k.F_PHASE, k.F_X_SEAT, k.F_COLOUR, k.F_AXIS, k.F_LINE,
              k.F_LAST_OUTCOME, k.F_LAST_TARGET, k.F_LAST_FIVES, k.F_FIVE_FLAG, k.F_FIVE_FLAG + 1, k.F_HIDDEN,
              k.F_HIDDEN + 1, k.F_PASSES)
    return revealed, tuple(int(data[f]) for f in fields), state.result


def private_to(state: boardlab.State, seat: int | None) -> tuple:
    """What only ``seat`` knows: its own stones and, while it waits for an answer, its target."""
    if seat is None or state.data[k.F_X_SEAT] < 0:
        return ()
    colour = state.game.colour_of(state.data, seat)  # type: ignore[attr-defined]
    cells = state.game.cells  # type: ignore[attr-defined]
    own = tuple(state.data[k.STONES + colour * cells: k.STONES + (colour + 1) * cells].tolist())
    mover = state.data[k.F_PHASE] == k.PH_RESPOND and k.seat_of(state.data, state.data[k.F_COLOUR]) == seat
    return own, int(state.data[k.F_TARGET]) if mover else -1


def replay(game: boardlab.Game, paths: list[tuple[int, ...]]) -> list[boardlab.State] | None:
    """The states of a game played from the start, ``None`` at the first illegal action (no lists of
    legal moves are made: this is fast enough to replay hundreds of games)."""
    states = [game.new_game()]
    for path in paths:
        before = states[-1]
        if not k.is_legal(before.data, game.spec, path[0]):
            return None
        data = before.data.copy()
        game.apply_kernel(data, game.spec, path[0])
        states.append(boardlab.State(game, data, before, boardlab.Move(game.action_text(before.data, path), path)))
    return states


def resampled(states: list[boardlab.State], hidden: set[int], rng: random.Random) -> list[boardlab.State] | None:
    """The same game with one hidden landing of a ``hidden`` seat, a stone still hidden at the end,
    moved to another point of its announced line; ``None`` if the moves no longer play."""
    game = states[0].game
    cells = game.cells  # type: ignore[attr-defined]
    final = states[-1].data
    paths = [state.last_move.path for state in states[1:]]  # type: ignore[union-attr]
    movable = []
    for ply, state in enumerate(states[:-2]):
        if state.data[k.F_PHASE] != k.PH_COMMIT or state.to_move not in hidden or paths[ply][0] >= 2 * cells:
            continue
        colour = int(state.data[k.F_COLOUR])
        if states[ply + 2].data[k.F_LAST_OUTCOME] == k.OUT_HIDDEN and \
                final[k.STONES + colour * cells + (paths[ply][0] >> 1)] == k.HIDDEN:
            movable.append(ply)
    if not movable:
        return None
    ply = rng.choice(movable)
    after = states[ply + 1].data
    line = game.line_points(int(after[k.F_AXIS]), int(after[k.F_LINE]))  # type: ignore[attr-defined]
    paths[ply] = (2 * rng.choice(line) + int(after[k.F_AXIS]),)
    return replay(game, paths)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_a_seats_view_does_not_change_when_the_other_seats_hidden_stones_move(options: dict) -> None:
    game = boardlab.load("hmdg", **options)
    changed = 0
    for seed in range(8):
        whole = random_game(game, seed)
        rng = random.Random(seed)
        for states in (whole, whole[: len(whole) * 2 // 3]):  # also before the end reveals anything
            for seat, hidden in ((0, {1}), (1, {0}), (None, {0, 1})):
                for _ in range(3):
                    other = resampled(states, hidden, rng)
                    if other is None or any(
                            public_events(a) != public_events(b) or private_to(a, seat) != private_to(b, seat)
                            for a, b in zip(states, other, strict=True)):
                        continue  # not consistent with the public information (and what the seat knows)
                    changed += other[-1].to_text() != states[-1].to_text()
                    for a, b in zip(states, other, strict=True):
                        assert np.array_equal(a.view(seat).data, b.view(seat).data), f"seed {seed}, ply {a.ply}"
                        assert a.view(seat).to_text() == b.view(seat).to_text()
                    for a, b in zip(states[::10] + states[-1:], other[::10] + other[-1:], strict=True):
                        assert same_view(a.view(seat), b.view(seat)), f"seed {seed}, ply {a.ply}, seat {seat}"
    assert changed >= 15  # the hidden stones really moved, in many games


def test_a_pending_target_is_invisible_to_everybody_but_the_mover() -> None:
    game = boardlab.load("hmdg")
    checked = 0
    for seed in range(4):
        for state in random_game(game, seed)[1::3]:
            if state.data[k.F_PHASE] != k.PH_RESPOND or state.previous is None:
                continue
            before = state.previous
            axis = "row" if state.data[k.F_AXIS] == 0 else "col"
            line = game.line_points(int(state.data[k.F_AXIS]), int(state.data[k.F_LINE]))  # type: ignore[attr-defined]
            for point in line:
                text = f"{game.point_name(point)}/{axis}"  # type: ignore[attr-defined]
                if text not in [m.text for m in before.legal_moves()]:
                    continue
                other = before.play(text)
                mover = before.to_move
                for seat in (1 - mover, None):  # type: ignore[operator]
                    assert same_view(state.view(seat), other.view(seat))
                if other.to_text() != state.to_text():
                    assert other.view(mover).to_text() != state.view(mover).to_text()
                    checked += 1
    assert checked > 40


def test_a_view_of_a_hidden_information_game_does_not_hand_out_the_state() -> None:
    state = boardlab.load("hmdg", size=5, line_length=3).new_game().play("c3").play("o").play("b2/row").play("none")
    view = state.view(0)
    with pytest.raises(boardlab.BoardlabError, match="hmdg has hidden information: a view does not show the state"):
        _ = view.state
    assert repr(view) == "<View of boardlab.load('hmdg', size=5, line_length=3) for seat 0 at ply 4>"
    assert "o" not in view.to_text().split()[0]
    assert view.to_dict()["history"] == ["c3", "o", "row b", "none: placed hidden"]
    assert state.view(1).to_dict()["history"] == ["c3", "o", "b2/row", "none: placed hidden"]
    assert json.dumps(view.to_dict())  # JSON-ready


def test_perfect_information_views_are_unchanged_and_determinize_to_the_state_itself() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    state = game.new_game().play("b2").play("a1")
    assert state.view(0).state is state
    assert game.determinize(state.view(1), random.Random(1)) is state
    assert [m.text for m in state.view(None).history()] == ["b2", "a1"]
    assert state.view(0).last_move == state.last_move


# -- determinization ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_determinization_has_the_same_view_as_the_real_state(options: dict) -> None:
    game = boardlab.load("hmdg", **options)
    hidden_differs = 0
    for seed in range(3):
        states = random_game(game, seed)
        for state in [*states[:: max(1, len(states) // 6)], states[-1]]:
            for seat in (0, 1, None):
                view = state.view(seat)
                sample = game.determinize(view, random.Random(seed * 1000 + state.ply))
                assert same_view(sample.view(seat), view), f"seed {seed}, ply {state.ply}, seat {seat}"
                assert game.from_text(sample.to_text()) == sample  # a real position
                hidden_differs += sample.to_text() != state.to_text()
    assert hidden_differs > 10


def test_determinization_from_a_set_up_position_with_hidden_stones_and_a_pending_target() -> None:
    game = boardlab.load("hmdg", size=5, line_length=3)
    root = game.from_text("5/1o3/2X2/(xO)3o/5 x 9 x=0 announced=row:b target=b4")
    later = root
    rng = random.Random(3)
    for ply in range(8):
        for seat in (0, 1, None):
            view = later.view(seat)
            for draw in range(3):
                sample = game.determinize(view, random.Random(100 * ply + draw))
                assert same_view(sample.view(seat), view)
        later = later.play(rng.choice(later.legal_moves()))
    targets = {game.determinize(root.view(1), random.Random(i)).data[k.F_TARGET] for i in range(40)}
    assert len(targets) >= 3  # o does not know x's target on row b: it is drawn


def test_determinization_is_close_to_uniform_over_the_consistent_placements() -> None:
    game = boardlab.load("hmdg", size=5, line_length=3)
    # o (seat 1) lands two hidden stones on row b; later o reveals one of them on b3.
    state = game.new_game()
    for move in ["e5", "o", "b1/row", "none", "e1/row", "none", "b3/row", "none", "d3/col", "reveal b3"]:
        state = state.play(move)
    view = state.view(0)
    assert [m.text for m in view.history()][2] == "row b"
    counts: Counter[str] = Counter()
    for draw in range(400):
        sample = game.determinize(view, random.Random(draw))
        stones = sample.data[k.STONES + 25: k.STONES + 50]
        hidden = [game.point_name(p) for p in np.flatnonzero(stones == k.HIDDEN)]  # type: ignore[attr-defined]
        assert len(hidden) == 1 and hidden[0][0] == "b" and hidden[0] != "b3"
        counts[hidden[0]] += 1
    # The other stone is equally likely on b1, b2, b4, b5 (100 each; a standard deviation is about 9).
    assert set(counts) == {"b1", "b2", "b4", "b5"}
    assert all(60 <= n <= 140 for n in counts.values()), counts


# -- per-seat records -----------------------------------------------------------------------------


def test_a_per_seat_record_holds_that_seats_view_and_says_so() -> None:
    states = random_game(boardlab.load("hmdg"), 4)
    final = states[-1]
    record = records.GameRecord.from_view(final.view(1), players=["ann", "bob"])
    assert record.perspective == "seat 1"
    assert record.moves == [m.text for m in final.view(1).history()]
    assert record.moves != records.GameRecord.from_state(final).moves
    assert record.result == list(final.result or ())
    assert "perspective" not in records.GameRecord.from_state(final).to_dict()
    again = records.loads(records.dumps(record))
    assert again == record
    with pytest.raises(boardlab.RecordError, match=r"this is seat 1's record of the game, .* cannot be replayed"):
        again.replay()
    assert records.GameRecord.from_view(final.view(None)).perspective == "spectator"


def test_a_record_with_an_unknown_perspective_is_refused() -> None:
    final = random_game(boardlab.load("hmdg", size=5, line_length=3), 1)[-1]
    data = records.GameRecord.from_view(final.view(0)).to_dict()
    data["perspective"] = "referee"
    with pytest.raises(boardlab.RecordError, match="perspective 'referee' is not accepted"):
        records.from_dict(data)


@pytest.mark.parametrize("name", VIEWS)
@pytest.mark.parametrize("seat", [0, 1, None])
def test_golden_per_seat_records_are_what_each_seat_keeps_of_the_golden_game(name: str, seat: int | None) -> None:
    final = records.load(GOLDEN / f"{name}.json").replay()
    stored = records.load(GOLDEN / "views" / f"{name}.{view_file_suffix(seat)}.json")
    assert stored == view_record_of(final, seat, stored.seed or 0)
    assert stored.tags["final_view"] == final.view(seat).to_text()
