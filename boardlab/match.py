"""Matches between agents: many games, seats alternating, run in parallel, scored with confidence.

>>> from boardlab.match import run_match
>>> result = run_match("ndengrod", {"size": 2, "length": 3}, "random", "random", games=4, workers=1)
>>> result.wins + result.draws + result.losses
4

The score is agent A's: 1 for a win, ½ for a draw. ``elo`` is the rating difference that score
implies. The 95% interval of the score is Wilson's (sound at 0% and 100%, conservative with draws),
and the Elo interval is that interval converted.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from boardlab import records
from boardlab.ai.base import Agent
from boardlab.ai.levels import make_agent
from boardlab.core.game import Game
from boardlab.core.registry import load
from boardlab.core.state import State
from boardlab.errors import BoardlabError
from boardlab.workers import abandon, die_with_parent


@dataclass(frozen=True)
class GameOutcome:
    """One finished game of a match, from agent A's side."""

    index: int
    seat_a: int
    score_a: float  # A's result: 1 win, 0.5 draw, 0 loss (multi-seat: against B's best seat)
    plies: int
    record: dict[str, Any] = field(repr=False)


@dataclass
class MatchResult:
    """The tally of a match, from agent A's side."""

    game: str
    options: dict[str, Any]
    agent_a: str
    agent_b: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    mean_plies: float = 0.0
    score: float = 0.0
    score_interval: tuple[float, float] = (0.0, 1.0)
    elo: float = 0.0
    elo_interval: tuple[float, float] = (-math.inf, math.inf)
    los: float | None = None  # likelihood of superiority, from the decisive games; None before one
    resumed: int = 0  # games counted from an earlier run's records (``resume``)

    def add(self, outcome: GameOutcome) -> None:
        self.games += 1
        self.wins += outcome.score_a == 1.0
        self.losses += outcome.score_a == 0.0
        self.draws = self.games - self.wins - self.losses
        self.mean_plies += (outcome.plies - self.mean_plies) / self.games
        self.score = (self.wins + self.draws / 2) / self.games
        self.score_interval = wilson(self.score, self.games)
        self.elo = elo(self.score, self.games)
        self.elo_interval = (elo(self.score_interval[0], self.games), elo(self.score_interval[1], self.games))
        self.los = likelihood_of_superiority(self.wins, self.losses)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        lo, hi = self.score_interval
        return (
            f"{self.agent_a} vs {self.agent_b} at {self.game}: {self.games} games, "
            f"+{self.wins} ={self.draws} -{self.losses}; score {self.score:.1%} "
            f"(95% CI {lo:.1%}–{hi:.1%}); {self.elo_text()}; {self.los_text()}; "
            f"mean length {self.mean_plies:.1f} plies"
        )

    def los_text(self) -> str:
        """The likelihood of superiority in words, with the decisive games it rests on.

        >>> result = MatchResult("gtbm", {}, "a", "b")
        >>> for score in [1.0] * 6 + [0.5] * 14:
        ...     result.add(GameOutcome(0, 0, score, 10, {}))
        >>> result.los_text()
        'LOS 99.3% (6 decisive games)'
        """
        decisive = self.wins + self.losses
        if self.los is None:
            return "LOS: no decisive game"
        return f"LOS {self.los:.1%} ({decisive} decisive game{'s' if decisive != 1 else ''})"

    def elo_text(self) -> str:
        """The Elo difference in words: none for a handful of games, a bound for a clean sweep.

        >>> result = MatchResult("ndengrod", {}, "a", "b")
        >>> for score in (1.0, 0.5, 0.0) * 4:
        ...     result.add(GameOutcome(0, 0, score, 10, {}))
        >>> result.elo_text()
        'Elo +0 (95% CI -187 to +187)'
        """
        elo_lo, elo_hi = self.elo_interval
        if self.games < MIN_GAMES_FOR_ELO:
            return f"Elo: too few games ({self.games}; {MIN_GAMES_FOR_ELO} or more give one)"
        # A clean sweep's point estimate would be a clamp that depends only on the number of games.
        if self.score == 1.0:
            return f"Elo at least {_signed(elo_lo)} (95% lower bound)"
        if self.score == 0.0:
            return f"Elo at most {_signed(elo_hi)} (95% upper bound)"
        return f"Elo {_signed(self.elo)} (95% CI {_signed(elo_lo)} to {_signed(elo_hi)})"


MIN_GAMES_FOR_ELO = 10


def _signed(value: float) -> str:
    """A rating difference with its sign, never ``-0``."""
    return f"{round(value) + 0:+d}"


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval for a score fraction over ``games`` games.

    >>> [round(x, 3) for x in wilson(1.0, 10)]
    [0.722, 1.0]
    """
    n = max(games, 1)
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def likelihood_of_superiority(wins: int, losses: int) -> float | None:
    """The chance that the side with ``wins`` is the stronger, as chess engine testers report it.

    Only decisive games count: a draw says nothing about which side is stronger, while Wilson's
    interval counts it as half a win and half a loss, which overstates the spread of a match with
    many draws. ``None`` before the first decisive game.

    >>> round(likelihood_of_superiority(6, 0), 4), likelihood_of_superiority(3, 3), likelihood_of_superiority(0, 0)
    (0.9928, 0.5, None)
    """
    decisive = wins + losses
    if decisive == 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))


def elo(score: float, games: int) -> float:
    """The Elo difference a score fraction implies (clamped so that 0% and 100% stay finite)."""
    floor = 1.0 / (2 * max(games, 1))
    p = min(max(score, floor), 1.0 - floor)
    return -400.0 * math.log10(1.0 / p - 1.0)


def play_one(game_id: str, options: dict[str, Any], spec_a: str, spec_b: str, index: int,
             seed: int, seconds: float | None) -> GameOutcome:
    """Play game ``index`` of a match: A sits at seat ``index % seats``, B in every other seat."""
    game = load(game_id, **options)
    seats = game.num_seats
    seat_a = index % seats
    agents = {
        seat: make_agent(spec_a if seat == seat_a else spec_b, seed=seed * 97 + seat, seconds=seconds)
        for seat in range(seats)
    }
    state = play_out(game.new_game(), agents)
    assert state.result is not None
    players = [spec_a if seat == seat_a else spec_b for seat in range(seats)]
    tags = {"match_game": str(index), **agent_tags(spec_a, spec_b, seconds, game)}
    record = records.GameRecord.from_state(state, players=players, seed=seed, tags=tags)
    return GameOutcome(index, seat_a, score_of(state.result, seat_a), state.ply, record.to_dict())


def play_out(state: State, agents: Mapping[int, Agent]) -> State:
    """Play on from ``state`` to the end, each seat's move chosen by ``agents[seat]`` from its view."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state = state.play(agents[seat].choose(state.view(seat)))
    return state


def agent_tags(spec_a: str, spec_b: str, seconds: float | None, game: Game | None = None) -> dict[str, str]:
    """What agents A and B were when the game was played (``level4`` is a name; its budget may change,
    and it may be tuned per game: described for ``game`` where given)."""
    return {"agent_a": make_agent(spec_a, seconds=seconds).describe(game),
            "agent_b": make_agent(spec_b, seconds=seconds).describe(game)}


def score_of(result: Sequence[float], seat_a: int) -> float:
    """A's score: 1 if its seat did better than every other seat, 0 if one did better, else ½."""
    best_b = max(score for seat, score in enumerate(result) if seat != seat_a)
    return 1.0 if result[seat_a] > best_b else 0.0 if result[seat_a] < best_b else 0.5


def record_path(folder: Path, index: int) -> Path:
    return folder / f"game-{index + 1:04d}.json"


def resumed_outcome(path: Path, game_id: str, options: dict[str, Any], spec_a: str, spec_b: str, index: int,
                    seed: int, seats: int, seconds: float | None = None) -> GameOutcome:
    """Game ``index`` as kept in ``path`` by an earlier run of the same match, checked to be that game:
    same game, rules version and options, the agents in the seats this index gives, playing as they
    play now (a level whose budget changed is another player), the same seed, finished. Anything else
    is refused: a match must not mix games of different matches."""
    try:
        record = records.load(path)  # a damaged record is refused here
        final = record.replay()
    except BoardlabError as error:
        raise BoardlabError(f"--resume: {path}: {error}") from None
    seat_a = index % seats
    players = [spec_a if seat == seat_a else spec_b for seat in range(seats)]
    expected = {"game": game_id, "options": options, "players": players, "seed": seed}
    # A record written before an option existed was played under that option's default: compare the
    # options as its game reads them now, the defaults filled in.
    found = {"game": record.game, "options": dict(final.game.options), "players": record.players,
             "seed": record.seed}
    wrong = [f"{key} {found[key]!r} (this match's: {expected[key]!r})"
             for key in expected if found[key] != expected[key]]
    for key, now in agent_tags(spec_a, spec_b, seconds, load(game_id, **options)).items():
        then = record.tags.get(key)
        spec = spec_a if key == "agent_a" else spec_b
        if then is None:
            wrong.append(f"it does not say how {spec} played (written before records kept that)")
        elif then != now:
            wrong.append(f"{spec} played as {then}; {spec} now: {now}")
    if record.result is None:
        wrong.append("the game is not finished")
    if wrong:
        raise BoardlabError(f"--resume: {path} is not game {index + 1} of this match: " + "; ".join(wrong)
                            + "; accepted: the records an earlier run of the same match wrote (or an empty directory)")
    assert record.result is not None
    # The ply, not the number of moves: in Möbiatus a move of the record is a whole turn of several plies.
    plies = final.ply
    return GameOutcome(index, seat_a, score_of(record.result, seat_a), plies, record.to_dict())


def run_match(
    game_id: str,
    options: dict[str, Any],
    agent_a: str,
    agent_b: str,
    games: int,
    seconds: float | None = None,
    workers: int | None = None,
    seed: int = 1,
    save_dir: str | Path | None = None,
    on_game: Callable[[MatchResult, GameOutcome], None] | None = None,
    resume: bool = False,
) -> MatchResult:
    """Play ``games`` games between two agent specs and tally them (in parallel over the cores).

    ``resume``: games whose records an earlier run of this match left in ``save_dir`` are counted from
    their records, not played again (a long match can be stopped and taken up later)."""
    game = load(game_id, **options)  # checks the game, options and agents before any worker starts
    make_agent(agent_a).check(game)
    make_agent(agent_b).check(game)
    result = MatchResult(game.id, dict(game.options), agent_a, agent_b)
    folder = Path(save_dir) if save_dir else None
    if folder:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BoardlabError(f"cannot keep the records in {folder}: {error.strerror}") from None
    if resume and folder is None:
        raise BoardlabError("--resume needs --save DIR: the directory whose records the match goes on from")
    kept = {i for i in range(games) if resume and folder and record_path(folder, i).exists()}
    jobs = [(game.id, dict(game.options), agent_a, agent_b, i, seed + i, seconds)
            for i in range(games) if i not in kept]

    def finish(outcome: GameOutcome, written: bool = False) -> None:
        result.add(outcome)
        if folder and not written:
            record = records.from_dict(outcome.record)
            try:
                records.dump(record, record_path(folder, outcome.index))
            except OSError as error:
                raise BoardlabError(f"cannot write a record into {folder}: {error.strerror}") from None
        if on_game:
            on_game(result, outcome)

    for i in sorted(kept):
        assert folder is not None
        finish(resumed_outcome(record_path(folder, i), game.id, dict(game.options), agent_a, agent_b, i, seed + i,
                               game.num_seats, seconds), written=True)
        result.resumed += 1
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            finish(play_one(*job))
        return result
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=get_context("spawn"),
                               initializer=die_with_parent)
    try:
        futures = [pool.submit(play_one, *job) for job in jobs]
        for future in as_completed(futures):
            finish(future.result())
    except BaseException:  # Ctrl-C, SIGTERM, an error: the finished games are stored, the others are lost
        abandon(pool)
        raise
    pool.shutdown()
    return result
