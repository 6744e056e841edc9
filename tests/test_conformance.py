"""The conformance suite: every game, under several option sets, must pass all of it.

Option sets come from each game's own declarations: the defaults, every named variant, and every
non-default choice of each option that has choices (booleans included), one at a time.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import boardlab
from boardlab import records
from boardlab.core import kernel
from boardlab.docs import rules_text

GAMES_PER_OPTION_SET = 4


def option_sets(info: boardlab.GameInfo) -> list[dict[str, Any]]:
    sets: list[dict[str, Any]] = [{}]
    sets += [dict(variant.options) for variant in info.variants]
    for option in info.options:
        if isinstance(option.default, bool):
            sets.append({option.name: not option.default})
        for choice in option.choices:
            if choice != option.default:
                sets.append({option.name: choice})
    return sets


CASES = [
    pytest.param(info.id, options, id=f"{info.id}[{','.join(f'{k}={v}' for k, v in options.items()) or 'default'}]")
    for info in boardlab.games()
    for options in option_sets(info)
]


def random_game(game: boardlab.Game, seed: int) -> list[boardlab.State]:
    """The states of one random game, checking the per-move invariants on the way."""
    rng = random.Random(seed)
    state = game.new_game()
    states = [state]
    while not state.is_over:
        moves = state.legal_moves()
        assert state.to_move is not None, "an unfinished game has a player to move"
        assert moves, "an unfinished game has a legal move"
        assert len({m.text for m in moves}) == len(moves), "move texts are unique"
        for move in moves:
            assert state.parse_move(move.text) == move, "notation round trip"
        move = rng.choice(moves)
        before_text, before_data = state.to_text(), state.data.copy()
        after = state.play(move)
        assert state.to_text() == before_text and np.array_equal(state.data, before_data), "play is pure"
        assert after.previous is state and after.last_move == move
        assert state.legal_moves() == moves, "a position keeps its moves once one is played from it"
        if not game.turns_of_several_actions:
            assert all(len(m.path) == 1 for m in moves) and not after.data[kernel.MID_TURN], \
                "a game that says every action is a whole turn never stops mid-turn"
        assert state.play(move.text) == after, "a move and its text play the same"
        state = after
        states.append(state)
    return states


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_random_games_keep_every_invariant(game_id: str, options: dict[str, Any]) -> None:
    game = boardlab.load(game_id, **options)
    for seed in range(GAMES_PER_OPTION_SET):
        states = random_game(game, seed)
        final = states[-1]
        assert final.is_over and final.to_move is None
        assert final.legal_moves() == []
        result = final.result
        assert result is not None and len(result) == game.num_seats
        assert all(0.0 <= score <= 1.0 for score in result)
        assert final.end_reason is not None
        with pytest.raises(boardlab.IllegalMove, match="the game is over"):
            final.play(states[-2].legal_moves()[0])
        for state in [*states[:: max(1, len(states) // 8)], final]:
            check_position_round_trip(game, state)
            check_views(game, state)
        check_record_round_trip(final)


def check_position_round_trip(game: boardlab.Game, state: boardlab.State) -> None:
    text = state.to_text()
    again = game.from_text(text)
    assert again.to_text() == text
    assert (again.to_move, again.is_over, again.result, again.end_reason) == (
        state.to_move, state.is_over, state.result, state.end_reason)
    assert [m.text for m in again.legal_moves()] == [m.text for m in state.legal_moves()]


def check_views(game: boardlab.Game, state: boardlab.State) -> None:
    for seat in [None, *range(game.num_seats)]:
        view = state.view(seat)
        assert str(view)
        assert view.to_move == state.to_move
        if seat is not None and seat == state.to_move:
            assert view.legal_moves() == state.legal_moves()
        else:
            assert view.legal_moves() == []
    with pytest.raises(boardlab.BoardlabError, match="does not exist"):
        state.view(game.num_seats)


def check_record_round_trip(final: boardlab.State) -> None:
    record = records.GameRecord.from_state(final, players=[f"p{s}" for s in range(final.game.num_seats)])
    loaded = records.loads(records.dumps(record))
    assert loaded == record
    assert loaded.replay() == final
    assert loaded.replay().history() == final.history()


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_kernel_playouts_finish_with_a_result(game_id: str, options: dict[str, Any]) -> None:
    game = boardlab.load(game_id, **options)
    tally = np.zeros(kernel.MAX_SEATS, np.int64)
    kernel.seed_kernels(5)
    plies = kernel.random_playouts(game.legal_kernel, game.apply_kernel, game.new_game().data.copy(),
                                   game.spec, 20, tally)
    assert plies >= 20
    # Each finished game hands out half points per seat in 0..2; 20 games cannot exceed 40 a seat.
    assert all(0 <= tally[s] <= 40 for s in range(game.num_seats))
    assert tally[: game.num_seats].sum() > 0


@pytest.mark.parametrize("info", boardlab.games(), ids=lambda i: i.id)
def test_description_is_complete_and_documented(info: boardlab.GameInfo) -> None:
    assert info.id and info.name and info.designer and info.year and info.players and info.rules_version
    for option in info.options:
        assert option.parse(option.default) == option.default
        assert option.help
    document = rules_text(info.id)
    for option in info.options:
        assert f"`{option.name}`" in document, f"rules document lacks option {option.name}"
        if option.ambiguity:
            assert option.ambiguity in document, f"rules document lacks {option.ambiguity}"
    for variant in info.variants:
        assert f"`{variant.name}`" in document
    game = boardlab.load(info.id)
    assert game.num_seats in info.players
    assert repr(game) == f"boardlab.load({info.id!r})"


@pytest.mark.parametrize("info", boardlab.games(), ids=lambda i: i.id)
def test_a_move_of_junk_actions_is_refused_with_a_reason_and_leaves_the_state_alone(info: boardlab.GameInfo) -> None:
    # A Move built by hand (an adapter, a bot) may carry anything: the kernels trust their actions, so
    # play() must refuse a path no legal turn has before any of it reaches them (Möbiatus once crashed).
    game = boardlab.load(info.id)
    actions = game.num_distinct_actions
    for path in [(), ("a",), (1.5,), (-1,), (actions,), (2**70,), (True,)]:
        with pytest.raises(boardlab.IllegalMove, match=rf"whole numbers from 0 to {actions - 1}.*accepted"):
            game.new_game().play(boardlab.Move("junk", path))  # type: ignore[arg-type]
    rng = random.Random(7)
    state = game.new_game()
    for turn in range(600):
        if turn % 20 == 19 and not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
        before = state.data.copy()
        steps = tuple(rng.randrange(actions) for _ in range(rng.randint(1, 4)))
        if steps in {move.path for move in state.legal_moves()}:
            continue
        with pytest.raises(boardlab.BoardlabError):
            state.play(boardlab.Move("junk", steps))
        assert np.array_equal(state.data, before)
