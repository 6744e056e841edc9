"""Mynd's supply in a playtest run: how many pieces each seat has left in hand when the game ends.

    python docs/findings/tools/mynd_supply.py lab/mynd-11 [lab/mynd-16 ...]

The lab's metrics are the same for every game (Ludii's); whether a Mynd player's supply runs out is
Mynd's own question (M8, issue 32), answered here from the run's stored records: each game is
replayed from its record and its final position read as a player would read it (the ``N in hand``
line of the position text). A seat's hand never grows, so a hand of 0 at the end means it ran out.
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from boardlab import records
from boardlab.core import registry
from boardlab.core.state import State
from boardlab.playtest.store import Store

_HAND = re.compile(r"(\w+) (\d+) in hand")


def hands(state: State) -> list[int]:
    """Pieces in hand per seat, as the position diagram gives them."""
    return [int(count) for _, count in _HAND.findall(str(state))]


def summarise(folder: str) -> str:
    rows: dict[tuple[str, str], list[tuple[list[int], str, float]]] = defaultdict(list)
    starts: dict[str, int] = {}
    for trace in Store(folder).load():
        if trace.kind != "self":
            continue
        options = dict(trace.options)
        starts[trace.variant] = hands(registry.load(trace.game, **options).new_game())[0] + 1  # + the peg
        final = records.loads(trace.record).replay()
        scores = sorted(float(score) for score in final.scores or (0, 0))
        rows[(trace.variant, "/".join(trace.agents))].append((hands(final), trace.ending, scores[-1] - scores[-2]))
    lines = [f"{folder}:", "| variant | agents | games | supply each | ran out (some seat) | mean left (least) "
             "| margin (points, first over second) | endings |", "|---|---|---|---|---|---|---|---|"]
    for (variant, agents), games in sorted(rows.items()):
        ran_out = sum(1 for left, _, _ in games if min(left) == 0)
        least = statistics.mean(min(left) for left, _, _ in games)
        margin = statistics.mean(gap for _, _, gap in games)
        endings: dict[str, int] = defaultdict(int)
        for _, ending, _ in games:
            endings[ending] += 1
        lines.append(f"| {variant} | {agents} | {len(games)} | {starts[variant]} | {ran_out} of {len(games)} | "
                     f"{least:.1f} | {margin:.1f} | {', '.join(f'{k} {v}' for k, v in sorted(endings.items()))} |")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python docs/findings/tools/mynd_supply.py LAB_FOLDER [LAB_FOLDER ...]")
    for path in sys.argv[1:]:
        if not (Path(path) / "plan.json").is_file():
            sys.exit(f"{path}: not a playtest run's folder (no plan.json); give the --out folder of a Mynd run")
        print(summarise(path))
