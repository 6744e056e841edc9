"""OpenSpiel's MCTSBot (through boardlab.interop.openspiel) against boardlab's level 5, equal time a move.

    PYTHONPATH=. .venv/bin/python bench/openspiel_vs_level5.py --game ndengrod --games 20 --seconds 0.5

Both sides get ``--seconds`` a move: level 5 is boardlab's timed search (``level5`` with that time);
OpenSpiel's ``MCTSBot`` (UCT, c=2, one random rollout an evaluation, OpenSpiel's defaults in its
examples) has no clock, so before each move its simulations are set from its own measured rate on
the moves before (a 16-simulation probe first). Seats alternate. Prints each game, then level 5's
score (wins + draws / 2) with a 95% Wilson interval, and the seconds each side really used a move,
with the load average, since the machine's cores are shared.
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import boardlab
from boardlab.ai.levels import make_agent
from boardlab.interop import openspiel as bridge


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class TimedMCTS:
    """MCTSBot with its simulations per move set from its measured speed to fit ``seconds``."""

    def __init__(self, game: pyspiel.Game, seconds: float, seed: int) -> None:
        self.rng = np.random.RandomState(seed)
        self.bot = mcts.MCTSBot(game, 2.0, 16, mcts.RandomRolloutEvaluator(1, self.rng), random_state=self.rng)
        self.seconds = seconds
        self.rate = 0.0  # simulations per second, measured

    def step(self, state: pyspiel.State) -> int:
        if self.rate:
            self.bot.max_simulations = max(2, int(self.rate * self.seconds))
        began = time.perf_counter()
        action = int(self.bot.step(state))
        spent = time.perf_counter() - began
        self.rate = self.bot.max_simulations / max(spent, 1e-6)
        return action


def play(game_id: str, options: dict[str, object], seconds: float, level5_seat: int, seed: int,
         clock: dict[str, list[float]]) -> tuple[float, int, str]:
    game = bridge.load(game_id, **options)
    bot = TimedMCTS(game, seconds, seed)
    agent = make_agent("level5", seed=seed, seconds=seconds)
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        began = time.perf_counter()
        if seat == level5_seat and not state.stepper.pending:
            move = agent.choose(state.stepper.state.view(seat))
            for action in move.path:
                state.apply_action(action)
            clock["level5"].append(time.perf_counter() - began)
        else:
            state.apply_action(bot.step(state))
            clock["openspiel"].append(time.perf_counter() - began)
    result = state.stepper.result
    assert result is not None
    return result[level5_seat], len(state.history()), str(state.stepper.state.end_reason)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ndengrod")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option, name=value")
    args = parser.parse_args()
    options: dict[str, object] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    game = boardlab.load(args.game, **options)
    print(f"{game!r}: level5 vs OpenSpiel MCTSBot, {args.seconds} s a move, {args.games} games; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    clock: dict[str, list[float]] = {"level5": [], "openspiel": []}
    total = 0.0
    for number in range(args.games):
        seat = number % 2
        score, length, reason = play(args.game, options, args.seconds, seat, 1000 + number, clock)
        total += score
        print(f"game {number + 1:2}: level5 in seat {seat} scores {score} ({length} actions, {reason}); "
              f"running score {total}/{number + 1}", flush=True)
    low, high = wilson(total, args.games)
    print(f"level5 score {total}/{args.games} = {total / args.games:.2f} (95% Wilson {low:.2f}-{high:.2f}); "
          f"s/move level5 {np.mean(clock['level5']):.2f}, OpenSpiel {np.mean(clock['openspiel']):.2f}; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
