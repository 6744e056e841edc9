"""How long replaying a record takes, per game: what the server does to load a stored game (it keeps
moves, not boards), and what ``match --resume`` does to check each kept game.

    python bench/replay.py                               # the ladder's records, docs/findings/ladder-records
    python bench/replay.py DIR [DIR ...] --repeat 5

Each record is replayed ``--repeat`` times after one warm-up replay (which loads the compiled
kernels); the figure is the best time a move over those repeats. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from boardlab import records

LADDER = Path(__file__).resolve().parent.parent / "docs" / "findings" / "ladder-records"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", type=Path, default=[LADDER])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = sorted(path for folder in args.folders for path in folder.rglob("*.json"))
    by_game: dict[str, list[float]] = defaultdict(list)
    moves_by_game: dict[str, int] = defaultdict(int)
    for path in paths:
        record = records.load(path)  # the warm-up replay
        best = min(_seconds(record) for _ in range(args.repeat))
        by_game[record.game].append(best)
        moves_by_game[record.game] += len(record.moves)
    print(f"{'game':<10} {'records':>7} {'moves':>7} {'ms a move':>10} {'ms a game (mean)':>17}")
    for game, times in sorted(by_game.items()):
        total = sum(times)
        print(f"{game:<10} {len(times):>7} {moves_by_game[game]:>7} {1000 * total / moves_by_game[game]:>10.3f}"
              f" {1000 * total / len(times):>17.1f}")


def _seconds(record: records.GameRecord) -> float:
    start = time.perf_counter()
    record.replay()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
