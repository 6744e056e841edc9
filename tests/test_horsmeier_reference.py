"""Horsmeier's numba kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list, every piece (strength and life span included), every result must agree; the
kernel keeps row sums, hashes and a repetition shortcut that the reference does without.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from tests.reference.horsmeier_ref import Piece, RefHorsmeier

RULE_SETS = [
    {},
    {"first_player": "black"},
    {"sideways_blocking": "exempt"},
    {"backward_blocking": "exempt", "own_sum": "piece_only"},
    {"own_sum": "piece_only"},
    {"upgrade_rule": "since_last_change"},
    {"upgrade_rule": "from_own_start", "expiry_rule": "remove_any"},
    {"expiry_rule": "degrade_each_turn"},
    {"expiry_rule": "degrade_each_turn", "upgrade_rule": "since_last_change", "sideways_blocking": "exempt"},
    {"no_move_rule": "lose"},
    {"no_move_rule": "draw", "repetition": "off"},
    # Added for playtests (the ignore_lifespan restriction's model): life spans stand still, so a
    # state can recur while a piece stands still, which the kernel's repetition shortcut assumes not.
    {"expiry_rule": "never"},
    {"expiry_rule": "never", "upgrade_rule": "since_last_change", "first_player": "black"},
]


E = "11"
# White's lone piece on a9 is strength blocked every way and has 2 turns to live (passes, expiry).
STUCK = "/".join([E, "10,1b11", "1w2,9,1b11", "10,1b11", E, E, E, E, E, E, E]) + " b 0"
# The same with a second White piece near its end of life on d1, and four turns left on a9.
STUCK_TOO = "/".join([E, "10,1b11", "1w4,9,1b11", "10,1b11", E, E, E, E, E, E, "3,2w1,7"]) + " b 0"
# One piece each: moving back and forth repeats the whole state.
ONE_EACH = "/".join(["5,1b11,5", E, E, E, E, E, E, E, E, E, "5,1w11,5"]) + " w 0"
# (start position or None, chance of undoing one's own last move instead of a random move)
PLAY = [(None, 0.0), (None, 0.7), (STUCK, 0.0), (STUCK, 0.8), (STUCK_TOO, 0.5), (ONE_EACH, 0.9)]


def kernel_pieces(state: boardlab.State) -> dict[tuple[int, int], tuple[str, int, int]]:
    """The pieces of the position text, keyed by (file, row): colour, strength, life span."""
    rows = state.to_text().split()[0].split("/")
    pieces = {}
    for top, text in enumerate(rows):
        file = 0
        for item in text.split(","):
            if item.isdigit():
                file += int(item)
                continue
            strength, colour, life = int(item[0]), item[1], int(item[2:].split("^")[0])
            pieces[(file, 11 - top)] = (colour, strength, life)
            file += 1
    return pieces


def reference_pieces(ref: RefHorsmeier) -> dict[tuple[int, int], tuple[str, int, int]]:
    return {square: (p.colour, p.strength, p.life) for square, p in ref.board.items()}


def reference_from(game: boardlab.Game, text: str | None) -> RefHorsmeier:
    ref = RefHorsmeier(**dict(game.options))  # type: ignore[arg-type]
    if text is None:
        return ref
    board_text, colour, ply = text.split()[:3]
    board = {}
    for top, row_text in enumerate(board_text.split("/")):
        file = 0
        for item in row_text.split(","):
            if item.isdigit():
                file += int(item)
                continue
            life, _, memory = item[2:].partition("^")
            row = int(memory) if memory else 0
            board[(file, 11 - top)] = Piece(item[1], int(item[0]), int(life), row, row)
            file += 1
    ref.board, ref.colour, ref.ply = board, colour, int(ply)
    ref.history = [ref.key()]
    return ref


def with_memory(text: str) -> str:
    """``text`` with each piece's upgrade reference row set to the row it stands on (own side)."""
    rows = text.split()[0].split("/")
    marked = []
    for top, row_text in enumerate(rows):
        row = 11 - top
        items = [item if item.isdigit() else f"{item}^{row if item[1] == 'w' else 12 - row}"
                 for item in row_text.split(",")]
        marked.append(",".join(items))
    return " ".join(["/".join(marked), *text.split()[1:]])


def play_both(options: dict, seed: int, start: str | None = None, undo_chance: float = 0.0) -> None:
    game = boardlab.load("horsmeier", **options)
    if start and game.options["upgrade_rule"] != "band":
        start = with_memory(start)
    state = game.from_text(start) if start else game.new_game()
    ref = reference_from(game, start)
    rng = random.Random(seed)
    last: dict[str, str] = {}
    while True:
        kernel_moves = sorted(str(m) for m in state.legal_moves())
        reference_moves = sorted(ref.text(m) for m in ref.legal())
        assert kernel_moves == reference_moves, f"ply {state.ply}: {state.to_text()}"
        assert kernel_pieces(state) == reference_pieces(ref), f"ply {state.ply}"
        if state.is_over:
            assert state.result == ref.result
            assert state.end_reason == ref.reason
            return
        assert ref.result is None
        assert state.to_move == ref.seat_of(ref.colour)
        moves = {ref.text(m): m for m in ref.legal()}
        undo = "-".join(reversed(last.get(ref.colour, "pass").split("-")))
        text = undo if undo in moves and rng.random() < undo_chance else rng.choice(sorted(moves))
        last[ref.colour] = text
        state = state.play(text)
        ref.play(moves[text])


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_kernel_matches_reference(options: dict) -> None:
    for seed, (start, undo_chance) in enumerate(PLAY):
        play_both(options, seed, start, undo_chance)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS), play=st.sampled_from(PLAY))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict, play: tuple) -> None:
    play_both(rules, seed, *play)
