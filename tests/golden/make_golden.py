"""Write the golden records in this folder: complete games replayed by tests/test_records.py.

Run it only to add a game or after a deliberate rules change (bump the game's rules_version then):

    python -m tests.golden.make_golden

Each game is played by seeded random agents, after an optional scripted opening, so the files
are the same on every machine.
"""

from __future__ import annotations

import random
from pathlib import Path

import boardlab
from boardlab import records

HERE = Path(__file__).parent

# name, game, options, seed, start position text (or None), scripted opening moves
GAMES: list[tuple[str, str, dict, int, str | None, list[str]]] = [
    ("ndengrod-default", "ndengrod", {}, 132, None, []),
    ("ndengrod-no-self-capture", "ndengrod", {"self_capture": False}, 2, None, []),
    ("ndengrod-swap", "ndengrod", {"swap": True}, 3, None, ["e5", "swap"]),
    ("ndengrod-pentalath", "ndengrod", {"self_capture": False, "swap": True, "board": "trapezoid"}, 4, None, []),
    ("ndengrod-small-captures", "ndengrod", {"size": 3, "length": 4}, 155, None, []),
    ("ndengrod-repetition", "ndengrod", {"size": 3}, 6, "1x1/xx2/5/2oo/1o1 x 10", ["e5", "a1", "e5", "a1"]),
    ("gtbm-default", "gtbm", {}, 1, None, ["c1-d2", "f8-e7", "d2-e3", "e7-d6"]),
    ("gtbm-small", "gtbm", {"size": 4}, 1, None, []),
    ("gtbm-small-repetition", "gtbm", {"size": 4}, 3, None, []),
    ("gtbm-mandatory-column", "gtbm", {"mandatory_capture": True, "capture_reach": "column"}, 4, None, []),
    ("gtbm-diagonal-most-pieces", "gtbm", {"size": 6, "capture_reach": "diagonal_also",
                                           "cap_adjudication": "most_pieces"}, 2, None, []),
    ("horsmeier-default", "horsmeier", {}, 1, None, []),
    ("horsmeier-ply-cap", "horsmeier", {}, 4, None, []),
    ("horsmeier-since-last-change", "horsmeier", {"upgrade_rule": "since_last_change",
                                                  "expiry_rule": "degrade_each_turn"}, 10, None, []),
    ("horsmeier-black-first", "horsmeier", {"first_player": "black", "no_move_rule": "lose",
                                            "own_sum": "piece_only"}, 1, None, []),
    ("horsmeier-stuck", "horsmeier", {}, 3, "11/10,1b11/1w2,9,1b11/10,1b11/11/11/11/11/11/11/11 w 10", []),
    ("mynd-default", "mynd", {}, 7, None, []),
    ("mynd-three-players", "mynd", {"players": 3, "size": 9}, 5, None, []),
    ("mynd-four-players", "mynd", {"players": 4, "size": 7}, 4, None, []),
    ("mynd-lock-sowing", "mynd", {"lock_on_enclose": True, "sowing": True, "size": 7}, 2, None, []),
    ("mobiatus-default", "mobiatus", {}, 7, None, []),
    ("mobiatus-small-maximal", "mobiatus", {"length": 8, "width": 4, "blue_offset": 12, "mandatory_capture": "maximal"},
     8, None, []),
    ("mobiatus-pie", "mobiatus", {"first_player": "pie", "chain_capture": "must_continue_capturing"}, 9, None,
     ["F2a-F4b", "swap"]),
    ("mobiatus-origin-joins", "mobiatus", {"origin_joins_slide_group": True, "blue_offset": 27}, 10, None, []),
    ("mobiatus-limit", "mobiatus", {"length": 40, "width": 6, "blue_offset": 30, "move_pair_limit": 30,
                                    "limit_result": "more_pieces_wins"}, 11, None, []),
    ("hmdg-default", "hmdg", {}, 7, None, ["b9", "x", "c4/row", "none", "c4/col", "reveal c4"]),
    ("hmdg-fixed-partner", "hmdg", {"setup": "fixed", "reveal_stack_partner": True}, 8, None, []),
    ("hmdg-earlier-version", "hmdg", {"lines_needed": 1, "reveal_at_end": "all"}, 9, None, []),
    ("hmdg-small-first-five", "hmdg", {"size": 5, "line_length": 3, "announce": "first_five_only"}, 10, None, []),
]

# Games above whose per-seat records (each seat's, and a spectator's) are kept in views/ as well.
VIEWS = ["hmdg-default", "hmdg-fixed-partner"]


def play(game_id: str, options: dict, seed: int, start: str | None, opening: list[str]) -> boardlab.State:
    game = boardlab.load(game_id, **options)
    state = game.from_text(start) if start else game.new_game()
    for move in opening:
        state = state.play(move)
    rng = random.Random(seed)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def main() -> None:
    for name, game_id, options, seed, start, opening in GAMES:
        final = play(game_id, options, seed, start, opening)
        record = records.GameRecord.from_state(
            final, players=["random"] * final.game.num_seats, seed=seed,
            tags={"final_position": final.to_text(), "end_reason": str(final.end_reason)},
        )
        record.finished = None  # keep the files byte-identical between runs
        records.dump(record, HERE / f"{name}.json")
        print(f"{name}: {len(record.moves)} moves, {final.describe()}")
        if name in VIEWS:
            for seat in [*range(final.game.num_seats), None]:
                view_record = view_record_of(final, seat, seed)
                records.dump(view_record, HERE / "views" / f"{name}.{view_file_suffix(seat)}.json")


def view_file_suffix(seat: int | None) -> str:
    return "spectator" if seat is None else f"seat{seat}"


def view_record_of(final: boardlab.State, seat: int | None, seed: int) -> records.GameRecord:
    """The record that ``seat`` keeps of the game that ended in ``final`` (its view), without dates."""
    view = final.view(seat)
    record = records.GameRecord.from_view(
        view, players=["random", "random"], seed=seed,
        tags={"final_view": view.to_text(), "end_reason": str(final.end_reason)},
    )
    record.finished = None
    return record


if __name__ == "__main__":
    main()
