"""PettingZoo AEC steps a second, every game against PettingZoo's own connect_four, in one run.

    PYTHONPATH=. .venv/bin/python bench/pettingzoo_steps.py [--seconds 2] [--rounds 3] [--only mynd …]

Each environment plays random games through the usual AEC loop: ``agent_iter()``, ``last()`` (the
observation: planes and action mask), a uniformly random legal action drawn from the mask, ``step()``.
A step is one ``step()`` of a live agent. The games take turns with connect_four round after round
(``--rounds``), each for ``--seconds`` of this process's CPU time, and the best round counts, so that
other work on the machine's shared cores disturbs the ratio less. Both the raw environments
(``raw_env``) and the checked ones (``env``: PettingZoo's checking wrappers for connect_four; for
boardlab the same checks made by the environment itself, ``CheckedBoardlabEnv``) are measured.
connect_four needs pygame, which PettingZoo's classic games import (the ``bench`` extra:
``pip install -e '.[pettingzoo,bench]'``).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import boardlab
from boardlab.interop.pettingzoo import env as boardlab_env
from boardlab.interop.pettingzoo import raw_env as boardlab_raw_env


def steps_per_second(environment: Any, seconds: float, seed: int) -> float:
    """Random games in ``environment`` for ``seconds`` of CPU time; live steps a second."""
    draw = random.Random(seed).random
    steps = 0
    games = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        environment.reset(seed=seed + games)
        games += 1
        for _ in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(draw() * len(legal))]))
            steps += 1
    return steps / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="game ids (default: every game)")
    args = parser.parse_args()
    from pettingzoo.classic import connect_four_v3

    makers: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "connect_four": (connect_four_v3.raw_env, connect_four_v3.env)}
    for info in boardlab.games():
        if not args.only or info.id in args.only:
            makers[info.id] = (lambda i=info.id: boardlab_raw_env(i), lambda i=info.id: boardlab_env(i))
    environments = {name: (raw(), wrapped()) for name, (raw, wrapped) in makers.items()}
    for raw, wrapped in environments.values():  # compile and warm
        steps_per_second(raw, 0.2, 0)
        steps_per_second(wrapped, 0.2, 0)
    best: dict[str, list[float]] = {name: [0.0, 0.0] for name in environments}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for name, pair in environments.items():
            for index, environment in enumerate(pair):
                rate = steps_per_second(environment, args.seconds, 1000 * round_)
                best[name][index] = max(best[name][index], rate)
        loads.append(os.getloadavg()[0])
    print(f"AEC steps a second (CPU time, best of {args.rounds} rounds of {args.seconds:g} s, default options); "
          f"load {min(loads):.1f}-{max(loads):.1f}")
    c4_raw, c4_wrapped = best["connect_four"]
    print(f"{'game':13} {'raw_env':>9} {'× c4':>6} {'env':>9} {'× c4':>6}")
    for name, (raw_rate, wrapped_rate) in best.items():
        print(f"{name:13} {raw_rate:9,.0f} {raw_rate / c4_raw:6.2f} "
              f"{wrapped_rate:9,.0f} {wrapped_rate / c4_wrapped:6.2f}")


if __name__ == "__main__":
    main()
