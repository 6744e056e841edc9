"""Write the golden records: complete games replayed by tests/test_records.py, for every registered game.

Run it only to add a game or after a deliberate rules change (bump the game's rules_version then):

    python -m tests.golden.make_golden

Each game's package says where its records live (:attr:`boardlab.core.package.GamePackage.goldens`;
boardlab's own games: this folder). A ``scenarios.json`` there lists the games to play: name, game,
options, seed, and optionally a start position, a scripted opening and ``"views": true`` (the
per-seat records, each seat's and a spectator's, kept in ``views/`` as well). Each game is played by
seeded random agents after its opening, so the files are the same on every machine.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import boardlab
from boardlab import records
from boardlab.core import registry

HERE = Path(__file__).parent
SCENARIOS = "scenarios.json"


def folders() -> list[Path]:
    """The folders of every registered game's golden records, this one first."""
    found = [HERE]
    for game_id in registry.game_ids():
        folder = registry.package(game_id).goldens or HERE
        if folder not in found:
            found.append(folder)
    return found


def scenarios(folder: Path) -> list[dict[str, Any]]:
    """The games a folder's records are made of (its ``scenarios.json``)."""
    return json.loads((folder / SCENARIOS).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def golden_records() -> list[Path]:
    """Every golden record of every registered game."""
    return sorted(path for folder in folders() for path in folder.glob("*.json") if path.name != SCENARIOS)


# Games whose per-seat records are kept in views/ as well.
VIEWS = [scenario["name"] for scenario in scenarios(HERE) if scenario.get("views")]


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
    for folder in folders():
        for scenario in scenarios(folder):
            write(folder, scenario)


def write(folder: Path, scenario: dict[str, Any]) -> None:
    name, seed = scenario["name"], scenario["seed"]
    final = play(scenario["game"], scenario["options"], seed, scenario.get("start"), scenario.get("opening", []))
    record = records.GameRecord.from_state(
        final, players=["random"] * final.game.num_seats, seed=seed,
        tags={"final_position": final.to_text(), "end_reason": str(final.end_reason)},
    )
    record.finished = None  # keep the files byte-identical between runs
    records.dump(record, folder / f"{name}.json")
    print(f"{name}: {len(record.moves)} moves, {final.describe()}")
    if scenario.get("views"):
        for seat in [*range(final.game.num_seats), None]:
            view_record = view_record_of(final, seat, seed)
            records.dump(view_record, folder / "views" / f"{name}.{view_file_suffix(seat)}.json")


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
