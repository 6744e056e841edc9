"""Fit the weights of GTBM's position features to game results (Texel's method), for ``evaluation=fitted``.

    PYTHONPATH=. .venv/bin/python bench/gtbm_texel.py [--games 400] [--depths 2 3 4] [--random-plies 8]
        [--seed 1] [--records DIR ...] [--save positions.npz] [--load positions.npz ...] [--bounded]

``FITTED_WEIGHTS`` in ``boardlab/games/gtbm/kernel.py`` came from
``--games 0 --records docs/findings/search-records docs/findings/ladder-records`` (recorded games between
searching players, before 27 November 2026 17:30 UTC).

With ``--records``, the quiet positions of recorded games (default rules only) are labelled with their
games' results. Plays ``--games`` games of GTBM between two plain alpha-beta searches (the kernel's
``search`` on the game's evaluation, each side's depth drawn from ``--depths`` for the whole game, ties
broken at random, the first ``--random-plies`` plies of each game at random so that games differ), keeps
every position where the side to move has no capture ready (a quiet position, as Texel's method wants),
and labels it with the game's result for Black (1, ½ or 0). Then it fits the weights ``w`` of the
features (``kernel.FEATURES``, each Black's minus White's) so that ``1 / (1 + exp(-w·f))`` is as near
the results as it can be (least squares, scipy's L-BFGS), and prints them with the mean squared error of
the fit, of the current evaluation's score and of a constant ½ on the same positions. Shallow searches
make mistakes that decide games, which is what gives the results something to tell apart.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

import boardlab
from boardlab import records
from boardlab.ai import alphabeta_kernel as ab
from boardlab.core import kernel
from boardlab.games.gtbm import kernel as k


def play(game: boardlab.Game, depths: tuple[int, int], random_plies: int,
         rng: random.Random) -> tuple[list[np.ndarray], float]:
    """One game: the features of its quiet positions, and Black's result."""
    data = game.new_game().data.copy()
    spec = game.spec
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    row = np.empty(k.N_FEATURES, np.float64)
    kept = []
    while data[kernel.TO_MOVE] >= 0:
        count = game.legal_kernel(data, spec, out)
        actions = [int(a) for a in out[:count]]
        k.features(data, spec, row)
        if row[2] == 0:
            kept.append(row.copy())
        if data[kernel.PLY] < random_plies:
            action = rng.choice(actions)
        else:
            rng.shuffle(actions)
            values = np.zeros(count, np.float64)
            ab.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, spec,
                      depths[data[kernel.TO_MOVE]], np.array(actions, np.int64), values, 1 << 40)
            action = actions[int(np.argmax(values))]
        game.apply_kernel(data, spec, action)
    return kept, data[kernel.SCORE] / 2.0


def replayed(game: boardlab.Game, moves: list[str]) -> tuple[list[np.ndarray], float]:
    """A recorded game: the features of its quiet positions, and Black's result."""
    state = game.new_game()
    row = np.empty(k.N_FEATURES, np.float64)
    kept = []
    for move in moves:
        k.features(state.data.copy(), game.spec, row)
        if row[2] == 0:
            kept.append(row.copy())
        state = state.play(move)
    assert state.result is not None
    return kept, state.result[0]


def fit(x: np.ndarray, y: np.ndarray, bounded: bool) -> np.ndarray:
    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        err = p - y
        return float(np.mean(err ** 2)), (2.0 / len(y)) * (x.T @ (err * p * (1.0 - p)))

    bounds = [(0.0 if bounded and name in k.LEAD_FEATURES else None, None) for name in k.FEATURES]
    return minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", bounds=bounds).x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="self-play games (0: none)")
    parser.add_argument("--depths", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--random-plies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bounded", action="store_true",
                        help="fit the weights of kernel.LEAD_FEATURES at 0 or more (a piece more is never worse)")
    parser.add_argument("--save", help="keep the positions and results in this .npz")
    parser.add_argument("--load", nargs="+", default=[], help="add the positions of earlier --save files")
    parser.add_argument("--records", nargs="+", default=[],
                        help="add the quiet positions of these folders' game records (searched below them; "
                             "only games with the default rules)")
    args = parser.parse_args()
    game = boardlab.load("gtbm")
    rows: list[np.ndarray] = []
    results: list[float] = []
    for name in args.load:
        saved = np.load(name)
        rows += list(saved["x"])
        results += list(saved["y"])
    for folder in args.records:
        kept_games = 0
        for path in sorted(Path(folder).rglob("*.json")):
            record = records.load(path)
            if record.game != "gtbm" or dict(record.options) != dict(game.options) or record.start:
                continue
            kept, result = replayed(game, list(record.moves))
            rows += kept
            results += [result] * len(kept)
            kept_games += 1
        print(f"{folder}: {kept_games} games", flush=True)
    if args.games:
        rng = random.Random(args.seed)
        tally = [0, 0, 0]
        for index in range(args.games):
            depths = (rng.choice(args.depths), rng.choice(args.depths))
            kept, result = play(game, depths, args.random_plies, rng)
            rows += kept
            results += [result] * len(kept)
            tally[int(2 * result)] += 1
            if (index + 1) % 50 == 0:
                print(f"{index + 1} games, Black +{tally[2]} ={tally[1]} -{tally[0]}, {len(rows)} positions",
                      flush=True)
    x, y = np.array(rows), np.array(results)
    if args.save:
        np.savez_compressed(args.save, x=x, y=y)
    w = fit(x, y, args.bounded)
    current = 0.7 * (x[:, 0] + k.MOBILITY_WEIGHT * x[:, 1] + k.THREAT_WEIGHT * (x[:, 2] + x[:, 3]))
    for name, score in (("fitted", x @ w), ("evaluate", current), ("constant 1/2", np.zeros(len(y)))):
        print(f"{name}: mean squared error {np.mean((1 / (1 + np.exp(-score)) - y) ** 2):.5f}")
    print(f"{len(y)} positions; decisive results {np.mean(y != 0.5):.1%}")
    for name, weight in zip(k.FEATURES, w, strict=True):
        print(f"{name:>16} {weight:+.4f}")


if __name__ == "__main__":
    main()
