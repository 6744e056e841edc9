"""Tune the search per game: candidate agents against a baseline, in matches at equal iterations.

Each candidate plays ``--games`` games (seats alternating) against the baseline, both with the same
iteration budget (``--iterations`` is added to both specs), and the results are printed as the rows
of a Markdown table: the command that replays the match, W-D-L, score, Wilson's interval and LOS.
Records are kept under ``--save`` (one directory a match) and a stopped run goes on with ``--resume``.

    python bench/search_tuning.py ndengrod --baseline level5_2026 --iterations 2000 --games 40 \\
        --save /tmp/tuning 'uct:amaf=grave,exploration=0' 'uct:amaf=grave,playout=mast'

A benchmark, not a test: it measures and asserts nothing. Equal iterations do not depend on the
machine's load; what an enhancement costs in time is measured by ``boardlab bench GAME --agent SPEC``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from boardlab.match import run_match


def with_budget(spec: str, iterations: int) -> str:
    """``spec`` searching ``iterations`` a move (and no time budget).

    >>> with_budget("level5_2026", 2000), with_budget("uct:amaf=grave", 500)
    ('level5_2026:iterations=2000', 'uct:amaf=grave,iterations=500')
    """
    kind, _, rest = spec.partition(":")
    return f"{kind}:{rest + ',' if rest else ''}iterations={iterations}"


def folder_name(game: str, spec: str, baseline: str) -> str:
    """A directory name for the match's records, from its game and agents."""
    return re.sub(r"[^A-Za-z0-9=.,_-]+", "_", f"{game}-{spec}-vs-{baseline}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("candidates", nargs="+", metavar="SPEC", help="agents to measure")
    parser.add_argument("--baseline", default="level5_2026", help="the agent each candidate plays")
    parser.add_argument("--iterations", type=int, default=2000, help="iterations a move, both agents")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--save", type=Path, help="keep the records under this directory")
    parser.add_argument("--resume", action="store_true", help="count the games already kept under --save")
    args = parser.parse_args(argv)
    options = dict(item.split("=", 1) for item in args.option)
    baseline = with_budget(args.baseline, args.iterations)
    print("| command | games | W-D-L | score | 95% interval | LOS | minutes |")
    print("|---|---|---|---|---|---|---|")
    for candidate in args.candidates:
        spec = with_budget(candidate, args.iterations)
        folder = args.save / folder_name(args.game, spec, baseline) if args.save else None
        began = time.perf_counter()
        result = run_match(args.game, options, spec, baseline, args.games, workers=args.workers, seed=args.seed,
                           save_dir=folder, resume=args.resume and folder is not None)
        lo, hi = result.score_interval
        opts = "".join(f" -o {k}={v}" for k, v in options.items())
        command = f"`boardlab match {args.game}{opts} '{spec}' {baseline} --games {args.games}`"
        los = f"{result.los:.1%}" if result.los is not None else "-"
        print(f"| {command} | {result.games} | {result.wins}-{result.draws}-{result.losses} | {result.score:.1%} "
              f"| {lo:.1%}–{hi:.1%} | {los} | {(time.perf_counter() - began) / 60:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
