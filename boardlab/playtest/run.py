"""A playtest run: the grid of variants × strengths × games, its seeds, and where the games are played.

>>> plan = Plan("ndengrod", {"size": 3}, {"length": [3, 4]}, ("random",), games=2, skill=None)
>>> [label for label, _ in plan.variants()]
['length=3', 'length=4']
>>> [job.key for job in plan.jobs()]
['v00-r0-self-0000', 'v00-r0-self-0001', 'v01-r0-self-0000', 'v01-r0-self-0001']
>>> deep = Plan("ndengrod", {"size": 3}, {}, ("level1",), games=1, depth=("level1", "level2"), skill_games=2)
>>> [(job.key, job.agents, job.strength) for job in deep.jobs()]  # doctest: +NORMALIZE_WHITESPACE
[('v00-r0-self-0000', ('level1', 'level1'), 'level1'), ('v00-r1-self-0000', ('level2', 'level2'), 'level2'),
 ('v00-c1-skill-0000', ('level2', 'level1'), 'level2>level1'),
 ('v00-c1-skill-0001', ('level1', 'level2'), 'level2>level1')]

Game ``i`` of every variant and strength uses seed ``seed + i`` (common random numbers: variants differ
by their rules, not by luck), and the agents are made from their specs and that seed alone, so a
game's moves depend only on its job: a process pool, a Ray cluster and a resumed run play the same
games. Iteration budgets keep that promise; a time budget (``--seconds-per-move``, ``level5``) does not,
since how far a search gets in a second depends on the machine's load.

**Skill depth** (``depth``): a ladder of agents, weakest first. Every variant is played in self-play at
every rung, and the *skill chain* measures each rung against the rung below it in that variant
(``skill_games`` games, seats alternating). Without a ladder the run has one rung (``agents``, one spec
per seat in turn) and, if asked, one skill pair (``skill``: stronger, weaker).

**Sequential stopping** (``stop_on``): games are played in batches of ``batch`` per variant and rung;
after each batch every pair of variants at each rung is compared on the metric ``stop_on``, paired on
the shared seeds (:mod:`boardlab.playtest.compare`); a variant stops once all its comparisons are
decided (the interval excludes zero, or lies inside ``±margin``), and the run stops when none is left
undecided or at ``games``. Decisions depend only on stored games, so a resumed run decides alike.
"""

from __future__ import annotations

import itertools
import json
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import boardlab
from boardlab.ai.levels import make_agent
from boardlab.core.game import Game
from boardlab.core.options import OptionValue
from boardlab.core.registry import load
from boardlab.errors import BoardlabError
from boardlab.playtest import compare, evaluator
from boardlab.playtest.players import Players
from boardlab.playtest.store import Store
from boardlab.playtest.trace import GameJob, GameTrace

SKILL_SEED_OFFSET = 1_000_000
# Plan fields that describe a sitting, not the games: a run resumed by another version may differ in them.
SITTING_FIELDS = ("provenance",)


@dataclass
class Plan:
    """What a run plays: a game, base options, swept options, agents (or a ladder), games, seeds."""

    game: str
    options: dict[str, Any]
    sweep: dict[str, list[Any]]
    agents: tuple[str, ...]
    games: int
    seed: int = 1
    seconds: float | None = None
    skill: tuple[str, str] | None = None  # (stronger, weaker): a mini-match per variant (no ladder)
    skill_games: int = 0
    max_turns: int = 2000
    depth: tuple[str, ...] = ()  # a ladder of agents, weakest first: self-play at each, and the skill chain
    evaluator: str = "auto"
    stop_on: str | None = None  # a metric: stop comparing variants once decided on it (sequential)
    margin: float | None = None  # the equivalence margin for stop_on (default: compare.default_margin)
    batch: int = 10  # games per variant and rung between looks, when stop_on is set
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

    def rungs(self) -> list[tuple[str, ...]]:
        """The self-play strengths: each rung's agent specs (one per seat in turn)."""
        return [(spec,) for spec in self.depth] if self.depth else [tuple(self.agents)]

    def rung_label(self, rung: int) -> str:
        specs = self.rungs()[rung]
        return specs[0] if len(set(specs)) == 1 else ",".join(specs)

    def chain(self) -> list[tuple[int, str, str]]:
        """The skill pairs: (link, stronger, weaker); along the ladder, or the one ``skill`` pair."""
        if self.depth:
            return [(r, self.depth[r], self.depth[r - 1]) for r in range(1, len(self.depth))]
        return [(0, self.skill[0], self.skill[1])] if self.skill else []

    def evaluator_spec(self) -> str:
        """The fixed evaluator, made concrete for this game (``auto`` resolved)."""
        _, options = self.variants()[0]
        return evaluator.resolve(self.evaluator, load(self.game, **options))

    def jobs(self, games: int | None = None, start: int = 0) -> list[GameJob]:
        """Every game of the run, in order (self-play games ``start`` … ``games − 1`` of each rung)."""
        judge = self.evaluator_spec()
        stop = self.games if games is None else games
        jobs = []
        for number, (label, options) in enumerate(self.variants()):
            game = load(self.game, **options)
            seats = game.num_seats
            common: dict[str, Any] = {"variant": label, "game": game.id, "options": dict(game.options),
                                      "seconds": self.seconds, "max_turns": self.max_turns, "evaluator": judge}
            for rung, specs in enumerate(self.rungs()):
                agents = tuple(specs[seat % len(specs)] for seat in range(seats))
                for i in range(start, stop):
                    jobs.append(GameJob(key=f"v{number:02d}-r{rung}-self-{i:04d}", agents=agents, seed=self.seed + i,
                                        strength=self.rung_label(rung), rung=rung, **common))
            if start > 0:
                continue  # the skill games are played with the first batch
            for link, strong, weak in self.chain():
                for i in range(self.skill_games):
                    seat = i % seats
                    agents = tuple(strong if s == seat else weak for s in range(seats))
                    jobs.append(GameJob(key=f"v{number:02d}-c{link}-skill-{i:04d}", agents=agents,
                                        seed=self.seed + SKILL_SEED_OFFSET + i, kind="skill", strong_seat=seat,
                                        strength=f"{strong}>{weak}", rung=link, **common))
        return jobs

    def specs(self) -> set[str]:
        return set(self.agents) | set(self.depth) | set(self.skill or ())

    def check(self) -> None:
        """Refuse a plan that cannot run, before any game is played (options, agents, counts, evaluator)."""
        self.check_counts()
        for _, options in self.variants():
            game = load(self.game, **options)
            evaluator.make_evaluator(self.evaluator, game)
            for spec in self.specs():
                make_agent(spec).check(game)

    def check_counts(self) -> None:
        """Refuse counts, budgets and settings that cannot run."""
        if self.games < 1:
            raise BoardlabError(f"--games {self.games}: accepted: a positive number")
        if self.skill_games < 0:
            raise BoardlabError(f"--skill-games {self.skill_games}: accepted: 0 or more")
        if self.max_turns < 1:
            raise BoardlabError(f"--max-turns {self.max_turns}: accepted: a positive number")
        if self.seconds is not None and self.seconds <= 0:
            raise BoardlabError(f"--seconds-per-move {self.seconds}: accepted: a positive number")
        if self.depth and len(self.depth) < 2:
            raise BoardlabError(f"--depth {','.join(self.depth)}: accepted: two agents or more, weakest first")
        if self.stop_on is not None:
            from boardlab.playtest import metrics

            try:
                found = metrics.metric(self.stop_on)
            except KeyError as error:
                raise BoardlabError(f"--stop-on {self.stop_on!r}: {error.args[0]}") from None
            if found.per_game is None:
                raise BoardlabError(f"--stop-on {self.stop_on}: accepted: a metric measured per game "
                                    "(not Balance, OutcomeUniformity or DurationTurnsStdDev)")
            if self.batch < 1:
                raise BoardlabError(f"--batch {self.batch}: accepted: a positive number")
        if self.margin is not None and self.margin <= 0:
            raise BoardlabError(f"--margin {self.margin}: accepted: a positive number")
        for spec in self.specs():
            make_agent(spec)  # an unknown agent or setting, named before any game

    def agent_settings(self) -> dict[str, str]:
        """Every agent's full settings in this game (a level's name stands for other settings in each game
        and may in another version)."""
        return self._describe_agents(load(self.game, **self.variants()[0][1]))

    def untuned_agent_settings(self) -> dict[str, str]:
        """The settings plans written before 27 November 2026 recorded: the levels' without the game's
        enhancements (``GamePackage.tuned_search``), although the games were played with them."""
        return self._describe_agents(None)

    def _describe_agents(self, game: Game | None) -> dict[str, str]:
        return {spec: make_agent(spec, seconds=self.seconds).describe(game) or "(no settings)"
                for spec in sorted(self.specs())}

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["depth"] = list(self.depth)
        data["skill"] = list(self.skill) if self.skill else None
        data["variant_labels"] = [label for label, _ in self.variants()]
        # A resumed run must be played by agents that play as its first games' did, judged alike.
        data["agent_settings"] = self.agent_settings()
        data["evaluator"] = self.evaluator_spec()
        data["rules_version"] = load(self.game, **self.variants()[0][1]).rules_version
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Plan:
        data = dict(data)
        for derived in ("agent_settings", "rules_version", *SITTING_FIELDS):
            data.pop(derived, None)  # derived from the rest, or about a sitting
        data["agents"] = tuple(data["agents"])
        data["depth"] = tuple(data.get("depth") or ())
        data["skill"] = tuple(data["skill"]) if data.get("skill") else None
        return cls(**data)


def provenance() -> dict[str, Any]:
    """Which boardlab played: its version, and its git commit where it runs from a checkout (with
    ``+changes`` when the working tree differs from that commit)."""
    root = Path(boardlab.__file__).resolve().parent.parent
    commit = "unknown (not a git checkout)"
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if head.returncode == 0:
            commit = head.stdout.strip()
            dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                   capture_output=True, text=True, timeout=10)
            if dirty.returncode == 0 and dirty.stdout.strip():
                commit += "+changes"
    except (OSError, subprocess.SubprocessError):
        pass
    return {"boardlab": boardlab.__version__, "commit": commit,
            "started": datetime.now(UTC).isoformat(timespec="seconds")}


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


def read_plan(folder: str | Path) -> tuple[Plan, list[dict[str, Any]]]:
    """The plan stored in ``folder`` and the sittings that played it (version, commit, start)."""
    data = json.loads((Path(folder) / "plan.json").read_text())
    return Plan.from_dict(data), list(data.get("provenance", []))


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
    sittings: list[dict[str, Any]] = []
    if plan_path.exists():
        stored = json.loads(plan_path.read_text())
        sittings = list(stored.get("provenance", []))
        comparable = {k: v for k, v in stored.items() if k not in SITTING_FIELDS}
        if comparable.get("agent_settings") == plan.untuned_agent_settings():
            comparable["agent_settings"] = wanted["agent_settings"]  # the same agents, described before the fix
        if comparable != wanted and (done or resume):
            changed = sorted(k for k in set(wanted) | set(comparable) if comparable.get(k) != wanted.get(k))
            raise BoardlabError(f"{folder} holds a run with other settings ({', '.join(changed)}); "
                                "give the same command to resume it, or another --out")
    if done and not resume:
        raise BoardlabError(f"{folder} already holds {len(done)} finished games; add --resume to finish "
                            "the run, or choose another --out")
    wanted["provenance"] = [*sittings, provenance()]
    plan_path.write_text(json.dumps(wanted, indent=2) + "\n")  # key order kept: it orders the variants
    with Players(workers, ray_address) as players:
        if plan.stop_on is None:
            _play_jobs(plan.jobs(), store, done, players, on_game)
        else:
            _play_sequentially(plan, store, done, players, on_game)
    return store.load()


def _play_jobs(jobs: list[GameJob], store: Store, done: set[str], players: Players, on_game: OnGame | None,
               count: int | None = None, total: int | None = None) -> int:
    pending = [job for job in jobs if job.key not in done]
    count = len(jobs) - len(pending) if count is None else count
    total = len(jobs) if total is None else total
    for trace in players.play(pending):
        store.add(trace)
        done.add(trace.key)
        count += 1
        if on_game:
            on_game(trace, count, total)
    return count


def sequential_status(plan: Plan, traces: list[GameTrace], games: int) -> dict[tuple[int, str], bool]:
    """For each (rung, variant): whether it still has an undecided comparison after its first ``games``
    self-play games (``stop_on``, paired with every other variant of the rung)."""
    from boardlab.playtest import metrics

    assert plan.stop_on is not None
    name = metrics.canonical(plan.stop_on)
    unit = metrics.metric(name).unit
    labels = [label for label, _ in plan.variants()]
    alpha = compare.ALPHA / compare.looks(plan.games, plan.batch)
    open_: dict[tuple[int, str], bool] = {}
    for rung in range(len(plan.rungs())):
        values: dict[str, list[float | None]] = {}
        for label in labels:
            games_here = sorted((t for t in traces if t.kind == "self" and t.rung == rung and t.variant == label
                                 and t.seed - plan.seed < games), key=lambda t: t.seed)
            values[label] = metrics.per_game_values(games_here, name)
        pooled = [v for vs in values.values() for v in vs if v is not None]
        margin = plan.margin or compare.default_margin(unit, sum(pooled) / len(pooled) if pooled else None)
        for label in labels:
            open_[(rung, label)] = False
        for a, b in itertools.combinations(labels, 2):
            verdict = compare.paired(values[a], values[b], margin, alpha)
            if not verdict.decided:
                open_[(rung, a)] = open_[(rung, b)] = True
    return open_


def _play_sequentially(plan: Plan, store: Store, done: set[str], players: Players,
                       on_game: OnGame | None) -> None:
    """Batches of ``plan.batch`` games per variant and rung, dropping what is decided after each."""
    labels = [label for label, _ in plan.variants()]
    rungs = range(len(plan.rungs()))
    active = {(rung, label) for rung in rungs for label in labels}
    count = 0
    start = 0
    total = len(plan.jobs())
    while start < plan.games and active:
        stop = min(plan.games, start + plan.batch)
        jobs = [job for job in plan.jobs(stop, start) if job.kind == "skill" or (job.rung, job.variant) in active]
        count = _play_jobs(jobs, store, done, players, on_game, count=count, total=total)
        if len(labels) < 2:
            break  # nothing to compare: play every game
        status = sequential_status(plan, store.load(), stop)
        active = {key for key in active if status[key]}
        start = stop
