"""A playtest run: the grid of variants × games, its seeds, and where the games are played.

>>> plan = Plan("ndengrod", {"size": 3}, {"length": [3, 4]}, ("random",), games=2, skill=None)
>>> [label for label, _ in plan.variants()]
['length=3', 'length=4']
>>> [job.key for job in plan.jobs()]
['v00-self-0000', 'v00-self-0001', 'v01-self-0000', 'v01-self-0001']

Game ``i`` of every variant uses seed ``seed + i`` (common random numbers: variants differ by their
rules, not by luck), and the agents are made from their specs and that seed alone, so a game's
moves depend only on its job: a process pool, a Ray cluster and a resumed run play the same games.
Iteration budgets keep that promise; a time budget (``--seconds-per-move``, ``level5``) does not,
since how far a search gets in a second depends on the machine's load.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from boardlab.ai.levels import make_agent
from boardlab.core.options import OptionValue
from boardlab.core.registry import load
from boardlab.errors import BoardlabError
from boardlab.playtest.store import Store
from boardlab.playtest.trace import GameJob, GameTrace, play_traced

SKILL_SEED_OFFSET = 1_000_000


@dataclass
class Plan:
    """What a run plays: a game, base options, swept options, agents, games per variant, seeds."""

    game: str
    options: dict[str, Any]
    sweep: dict[str, list[Any]]
    agents: tuple[str, ...]
    games: int
    seed: int = 1
    seconds: float | None = None
    skill: tuple[str, str] | None = None  # (stronger, weaker): a mini-match per variant
    skill_games: int = 0
    max_turns: int = 2000
    variant_labels: list[str] = field(default_factory=list)

    def variants(self) -> list[tuple[str, dict[str, Any]]]:
        """Every combination of the swept values over the base options, with its label."""
        names = list(self.sweep)
        out = []
        for values in itertools.product(*(self.sweep[name] for name in names)):
            changes = dict(zip(names, values, strict=True))
            label = ",".join(f"{k}={v}" for k, v in changes.items()) or "base"
            out.append((label, {**self.options, **changes}))
        return out

    def seat_agents(self, seats: int) -> tuple[str, ...]:
        """The self-play agents by seat: the given specs in turn (one spec: every seat plays it)."""
        return tuple(self.agents[seat % len(self.agents)] for seat in range(seats))

    def jobs(self) -> list[GameJob]:
        """Every game of the run, in order."""
        jobs = []
        for number, (label, options) in enumerate(self.variants()):
            game = load(self.game, **options)
            resolved = dict(game.options)
            seats = game.num_seats
            common: dict[str, Any] = {"variant": label, "game": game.id, "options": resolved, "seconds": self.seconds,
                      "max_turns": self.max_turns}
            for i in range(self.games):
                jobs.append(GameJob(key=f"v{number:02d}-self-{i:04d}", agents=self.seat_agents(seats),
                                    seed=self.seed + i, **common))
            if self.skill:
                strong, weak = self.skill
                for i in range(self.skill_games):
                    seat = i % seats
                    agents = tuple(strong if s == seat else weak for s in range(seats))
                    jobs.append(GameJob(key=f"v{number:02d}-skill-{i:04d}", agents=agents,
                                        seed=self.seed + SKILL_SEED_OFFSET + i, kind="skill", strong_seat=seat,
                                        **common))
        return jobs

    def check(self) -> None:
        """Refuse a plan that cannot run, before any game is played (options, agents, counts)."""
        self.check_counts()
        specs = set(self.agents) | set(self.skill or ())
        for _, options in self.variants():
            game = load(self.game, **options)
            for spec in specs:
                make_agent(spec).check(game)

    def check_counts(self) -> None:
        """Refuse counts and budgets that cannot run."""
        if self.games < 1:
            raise BoardlabError(f"--games {self.games}: accepted: a positive number")
        if self.skill_games < 0:
            raise BoardlabError(f"--skill-games {self.skill_games}: accepted: 0 or more")
        if self.max_turns < 1:
            raise BoardlabError(f"--max-turns {self.max_turns}: accepted: a positive number")
        if self.seconds is not None and self.seconds <= 0:
            raise BoardlabError(f"--seconds-per-move {self.seconds}: accepted: a positive number")
        for spec in set(self.agents) | set(self.skill or ()):
            make_agent(spec)  # an unknown agent or setting, named before any game

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["skill"] = list(self.skill) if self.skill else None
        data["variant_labels"] = [label for label, _ in self.variants()]
        # A name such as ``level4`` may stand for other settings in another version: a run is resumed
        # only by agents that play as its first games' did.
        data["agent_settings"] = {spec: make_agent(spec, seconds=self.seconds).describe()
                                  for spec in sorted(set(self.agents) | set(self.skill or ()))}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        data = dict(data)
        data.pop("agent_settings", None)  # derived from the agents' names
        data["agents"] = tuple(data["agents"])
        data["skill"] = tuple(data["skill"]) if data.get("skill") else None
        return cls(**data)


def parse_sweep(items: Iterable[str]) -> dict[str, list[OptionValue]]:
    """``["size=4,5", "length=4"]`` → ``{"size": ["4", "5"], "length": ["4"]}`` (values checked later)."""
    sweep: dict[str, list[OptionValue]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        parts = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name.strip() or not parts:
            raise BoardlabError(f"--sweep {item!r}: accepted: NAME=VALUE1,VALUE2,…")
        sweep[name.strip()] = list(parts)
    return sweep


OnGame = Callable[[GameTrace, int, int], None]  # (trace, games done, games planned)


def run_plan(plan: Plan, folder: str | Path, workers: int | None = None, ray_address: str | None = None,
             resume: bool = False, on_game: OnGame | None = None) -> list[GameTrace]:
    """Play every game of ``plan`` not yet in ``folder``'s store; return all the stored games.

    ``workers``: games in parallel in a process pool (default: one per CPU core; 1 plays here).
    ``ray_address``: play them as Ray tasks instead (``"local"`` starts Ray on this machine).
    """
    plan.check()
    folder = Path(folder)
    store = Store(folder)
    plan_path = folder / "plan.json"
    wanted = json.loads(json.dumps(plan.to_dict()))
    done = store.finished()
    if plan_path.exists():
        stored = json.loads(plan_path.read_text())
        if stored != wanted and (done or resume):
            changed = sorted(k for k in wanted if stored.get(k) != wanted[k])
            raise BoardlabError(f"{folder} holds a run with other settings ({', '.join(changed)}); "
                                "give the same command to resume it, or another --out")
    if done and not resume:
        raise BoardlabError(f"{folder} already holds {len(done)} finished games; add --resume to finish "
                            "the run, or choose another --out")
    plan_path.write_text(json.dumps(wanted, indent=2) + "\n")  # key order kept: it orders the variants
    jobs = plan.jobs()
    pending = [job for job in jobs if job.key not in done]
    count = len(jobs) - len(pending)
    for trace in _play(pending, workers, ray_address):
        store.add(trace)
        count += 1
        if on_game:
            on_game(trace, count, len(jobs))
    return store.load()


def _play(jobs: list[GameJob], workers: int | None, ray_address: str | None) -> Iterator[GameTrace]:
    if not jobs:
        return iter(())
    if ray_address:
        from boardlab.playtest.ray_tasks import play_on_ray

        return play_on_ray(jobs, ray_address, workers)
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise BoardlabError(f"--workers {workers}: accepted: a positive number")
    if workers == 1 or len(jobs) == 1:
        return (play_traced(job) for job in jobs)
    return _play_in_pool(jobs, workers)


def _play_in_pool(jobs: list[GameJob], workers: int) -> Iterator[GameTrace]:
    """Games as they finish, from a pool of ``workers`` processes that never holds more than it runs.

    Submitting only as many games as there are workers (topping up as they finish) means a stop loses
    only the games being played.
    """
    queue = iter(jobs)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=get_context("spawn"))
    running: set[Future[GameTrace]] = set()
    try:
        for job in itertools.islice(queue, workers):
            running.add(pool.submit(play_traced, job))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                following = next(queue, None)
                if following is not None:
                    running.add(pool.submit(play_traced, following))
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
