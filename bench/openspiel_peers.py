"""boardlab's kernels side by side with their C++ peers in OpenSpiel, interleaved in one run.

    PYTHONPATH=. .venv/bin/python bench/openspiel_peers.py [--seconds 2] [--rounds 3] [--no-mcts]
        [--only mobiatus ...]

Random moves a second (uniformly random playouts from the start position, default options):
Möbiatus against OpenSpiel's Breakthrough (8×8), Mynd against OpenSpiel's Go (9×9); and MCTS
simulations a second (UCT, one random playout to the end each, no solver, 1000 simulations a search
from the start position): Horsmeier and Möbiatus against Breakthrough's. Each side runs for
``--seconds`` of its own CPU time, the two sides take turns round after round (``--rounds``), and
the best round of each counts, so that other work on the machine's shared cores disturbs the ratio
less. The load average is printed.

The OpenSpiel side is ``bench/openspiel_peers.cc``: a plain C++ loop over ``LegalActions`` and
``ApplyAction`` (and OpenSpiel's ``MCTSBot`` with its ``RandomRolloutEvaluator``), compiled with g++
against the open_spiel wheel's headers and linked with its ``pyspiel.so``, which holds the compiled
library, so no Python runs in it. It is built once into ``~/.cache/boardlab/`` (``$XDG_CACHE_HOME``).
boardlab's side is its numba kernels: ``kernel.random_playouts`` and the MCTS agent's search.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sysconfig
import time
from pathlib import Path

import numpy as np

import boardlab
from boardlab.core import kernel

SOURCE = Path(__file__).with_name("openspiel_peers.cc")
RANDOM_PAIRS = (("mobiatus", "breakthrough"), ("mynd", "go(board_size=9)"))
MCTS_PAIRS = (("horsmeier", "breakthrough"), ("mobiatus", "breakthrough"))


def build() -> Path:
    """The C++ side, compiled against the installed open_spiel wheel (once per source and wheel)."""
    import open_spiel
    import pyspiel

    wheel = Path(open_spiel.__file__).parent
    library = Path(pyspiel.__file__)
    libdir = sysconfig.get_config_var("LIBDIR")
    python = f"python{sysconfig.get_config_var('LDVERSION')}"
    stamp = hashlib.sha1(SOURCE.read_bytes() + str(library.stat().st_mtime).encode()).hexdigest()[:12]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "boardlab"
    binary = cache / f"openspiel_peers-{stamp}"
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        command = ["g++", "-O2", "-std=c++17", f"-I{wheel.parent}", f"-I{wheel / 'abseil-cpp'}",
                   f"-I{wheel / 'json' / 'include'}", str(SOURCE), "-o", str(binary), str(library),
                   f"-L{libdir}", f"-l{python}", f"-Wl,-rpath,{library.parent}", f"-Wl,-rpath,{libdir}"]
        print("building the C++ side:", " ".join(command), flush=True)
        subprocess.run(command, check=True)
    return binary


def openspiel_rate(binary: Path, mode: str, game: str, seconds: float, seed: int) -> tuple[float, float]:
    """Moves (simulations) a CPU second, and moves a game (simulations a search)."""
    done, count, used = subprocess.run([str(binary), mode, game, str(seconds), str(seed)], check=True,
                                       capture_output=True, text=True).stdout.split()
    return int(done) / float(used), int(done) / int(count)


def boardlab_random_rate(game: boardlab.Game, seconds: float, seed: int) -> tuple[float, float]:
    """Random moves a CPU second (``kernel.random_playouts`` from the start, in batches), and moves a game."""
    start = game.new_game().data.copy()
    tally = np.zeros(kernel.MAX_SEATS, np.int64)
    kernel.seed_kernels(seed)
    moves = playouts = 0
    began = time.process_time()
    while (used := time.process_time() - began) < seconds:
        moves += kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, 20, tally)
        playouts += 20
    return moves / used, moves / playouts


def boardlab_mcts_rate(game: boardlab.Game, seconds: float, seed: int) -> tuple[float, float]:
    """MCTS simulations a CPU second: plain UCT, random playouts to the end, 1000 a search."""
    from boardlab.ai.mcts import MCTSAgent, SearchSettings

    view = game.new_game().view(0)
    settings = SearchSettings(iterations=1000, reuse_tree=False, solver=False, cutoff=0, algorithm="mcts")
    simulations = 0
    began = time.process_time()
    while (used := time.process_time() - began) < seconds:
        agent = MCTSAgent(settings, seed=seed + simulations)
        agent.analyse(view)
        simulations += agent.iterations_done
    return simulations / used, 1000.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-mcts", action="store_true", help="random moves only")
    parser.add_argument("--only", nargs="+", metavar="GAME", help="only these boardlab games (e.g. mobiatus)")
    args = parser.parse_args()
    known = {ours for ours, _ in RANDOM_PAIRS + MCTS_PAIRS}
    if args.only and not set(args.only) <= known:
        parser.error(f"--only: unknown {sorted(set(args.only) - known)}; accepted: {', '.join(sorted(known))}")
    binary = build()
    jobs = [("random", ours, theirs) for ours, theirs in RANDOM_PAIRS]
    if not args.no_mcts:
        jobs += [("mcts", ours, theirs) for ours, theirs in MCTS_PAIRS]
    jobs = [job for job in jobs if not args.only or job[1] in args.only]
    games = {ours: boardlab.load(ours) for _, ours, _ in jobs}
    for mode, ours, theirs in jobs:  # compile, load, warm
        openspiel_rate(binary, mode, theirs, 0.1, 0)
        (boardlab_random_rate if mode == "random" else boardlab_mcts_rate)(games[ours], 0.1, 0)
    best = {job: [(0.0, 0.0), (0.0, 0.0)] for job in jobs}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for job in jobs:
            mode, ours, theirs = job
            measure = boardlab_random_rate if mode == "random" else boardlab_mcts_rate
            best[job][0] = max(best[job][0], measure(games[ours], args.seconds, round_ + 1))
            best[job][1] = max(best[job][1], openspiel_rate(binary, mode, theirs, args.seconds, round_ + 1))
        loads.append(os.getloadavg()[0])
    print(f"per CPU second, best of {args.rounds} rounds of {args.seconds:g} s each, default options; "
          f"load {min(loads):.1f}-{max(loads):.1f}")
    print("(random: the mean game's length after each rate; MCTS: 1000 simulations a search, each a playout "
          "to the end, so a game's length weighs on its rate)")
    print(f"{'what':28} {'boardlab':>16} {'OpenSpiel C++':>36} {'ratio':>6}")
    for (mode, ours, theirs), ((mine, mine_len), (peer, peer_len)) in best.items():
        what = "random moves/s" if mode == "random" else "MCTS simulations/s"
        lengths = (f"{mine_len:5.0f}", f"{peer_len:5.0f}") if mode == "random" else ("", "")
        print(f"{what + ' ' + ours:28} {mine:10,.0f} {lengths[0]:>5} {peer:10,.0f} {lengths[1]:>5} {theirs:>19} "
              f"{mine / peer:6.2f}")


if __name__ == "__main__":
    main()
