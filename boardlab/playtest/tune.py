"""``boardlab tune``: search option values for design targets with Optuna, each trial a small playtest.

>>> parse_space(["size=4..6", "board=hexhex,trapezoid"])
{'size': ('int', 4, 6), 'board': ('choice', ['hexhex', 'trapezoid'])}
>>> [str(t) for t in parse_targets(["Drawishness<=0.1", "AdvantageP1=0.5"])]
['Drawishness<=0.1', 'AdvantageP1=0.5']

A target's *miss* is how far a variant's measured value lies outside it (0 inside): ``v − x`` for
``METRIC<=x``, ``x − v`` for ``METRIC>=x``, ``|v − x|`` for ``METRIC=x``. One target: Optuna
minimises its miss (TPE). Several: it searches for the variants no other beats on every miss at
once (the Pareto front, multi-objective TPE), and the best of those are reported. Each trial's
games are stored under ``DIR/trial-NNN`` like any playtest's, and each reported variant comes with
the ``boardlab playtest`` command that plays it again.

A variant chosen as the best of many trials on the same seeds looks better than it is (the winner's
curse). So the best variants are played again on seeds the search never saw (``holdout_games`` games
from seed ``seed + 100000``, stored under ``DIR/holdout-NNN``), with stronger agents if asked
(``holdout_agents``), and each target is judged on those games alone: it *holds* where the held-out
95% interval lies inside the target, is *consistent* where the interval reaches into it, and *fails*
where the interval lies wholly outside. A variant *survives* when none of the targets it met in the
search fails on the held-out games (a variant that met none has nothing to survive).

>>> Target("Balance", ">=", 0.9).judge(Estimate(0.95, 0.91, 0.99, 20, "wilson"))
'holds'
>>> Target("FirstContact", "<=", 6).judge(Estimate(7.5, 6.5, 8.5, 20, "bootstrap"))
'fails'
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from boardlab.errors import BoardlabError, OptionError
from boardlab.playtest import metrics
from boardlab.playtest.run import Plan, run_plan
from boardlab.playtest.stats import Estimate, number

MISSING = 1e3  # the miss of a target whose metric has no value (no capture ever, say) or an invalid variant
HOLDOUT_SEED_OFFSET = 100_000
_TARGET = re.compile(r"^\s*([A-Za-z0-9]+)\s*(<=|>=|=)\s*(-?[0-9.]+)\s*$")

Space = dict[str, tuple[Any, ...]]


@dataclass(frozen=True)
class Target:
    """A design goal on one metric."""

    metric: str
    op: str
    bound: float

    def miss(self, value: float | None) -> float:
        if value is None:
            return MISSING
        if self.op == "<=":
            return max(0.0, value - self.bound)
        if self.op == ">=":
            return max(0.0, self.bound - value)
        return abs(value - self.bound)

    def judge(self, estimate: Estimate) -> str:
        """``holds``, ``consistent`` or ``fails`` on held-out games (``fails`` without a value)."""
        if estimate.value is None:
            return "fails"
        low = estimate.value if estimate.low is None else estimate.low
        high = estimate.value if estimate.high is None else estimate.high
        if self.op == "<=":
            inside, outside = high <= self.bound, low > self.bound
        elif self.op == ">=":
            inside, outside = low >= self.bound, high < self.bound
        else:
            inside, outside = low == high == self.bound, not (low <= self.bound <= high)
        return "holds" if inside else "fails" if outside else "consistent"

    def __str__(self) -> str:
        return f"{self.metric}{self.op}{number(self.bound)}"


def parse_space(items: list[str]) -> Space:
    """``NAME=LO..HI`` (integers) or ``NAME=A,B,C`` (a choice) for each searched option."""
    space: Space = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        low, dots, high = text.partition("..")
        if sep and name and dots:
            try:
                lo, hi = int(low), int(high)
            except ValueError:
                raise BoardlabError(f"--space {item!r}: accepted: NAME=LO..HI (integers) or NAME=A,B,C") from None
            if lo > hi:
                raise BoardlabError(f"--space {item!r}: LO must not exceed HI")
            space[name] = ("int", lo, hi)
        elif sep and name and "," in text:
            space[name] = ("choice", [v.strip() for v in text.split(",") if v.strip()])
        else:
            raise BoardlabError(f"--space {item!r}: accepted: NAME=LO..HI (integers) or NAME=A,B,C")
    return space


def parse_targets(items: list[str]) -> list[Target]:
    """``METRIC<=X``, ``METRIC>=X`` or ``METRIC=X`` for each target; metric names as in the report."""
    targets = []
    for item in items:
        match = _TARGET.match(item)
        if not match:
            raise BoardlabError(f"--target {item!r}: accepted: METRIC<=X, METRIC>=X or METRIC=X "
                                "(quote it in a shell: '--target' 'Balance>=0.9')")
        try:
            name = metrics.canonical(match.group(1))
        except KeyError as error:
            raise BoardlabError(f"--target {item!r}: {error.args[0]}") from None
        targets.append(Target(name, match.group(2), float(match.group(3))))
    return targets


@dataclass
class Found:
    """One variant tried: its options, its measured metrics, its misses and how to play it again."""

    number: int
    options: dict[str, Any]
    misses: list[float]
    measured: dict[str, Estimate] = field(repr=False)
    command: str = ""
    pareto: bool = False  # on the Pareto front: no variant tried misses less on every target
    holdout: dict[str, Estimate] | None = field(default=None, repr=False)  # measured again on unseen seeds
    verdicts: list[str] = field(default_factory=list)  # per target, on the held-out games
    holdout_command: str = ""

    @property
    def survives(self) -> bool | None:
        """Whether no target this variant met in the search fails on the held-out games (``None``: not
        re-played, or it met no target)."""
        met = [verdict for verdict, miss in zip(self.verdicts, self.misses, strict=False) if miss == 0]
        if self.holdout is None or not met:
            return None
        return "fails" not in met


@dataclass
class TuneResult:
    """The best variants found, best first."""

    game: str
    targets: list[Target]
    trials: int
    best: list[Found]
    holdout_games: int = 0
    holdout_agents: tuple[str, ...] = ()

    def summary(self) -> str:
        lines = [f"{self.game}: {self.trials} trials for {', '.join(map(str, self.targets))}; best variants:"]
        for found in self.best:
            changed = " ".join(f"{k}={v}" for k, v in found.options.items()) or "(base options)"
            front = " (Pareto front)" if found.pareto and len(self.targets) > 1 else ""
            misses = ", ".join(number(m) for m in found.misses)
            if found.holdout is None:
                fate = ""
            elif found.survives is None:
                fate = "; met no target in the search"
            else:
                fate = "; survives on held-out seeds" if found.survives else "; does not survive on held-out seeds"
            lines.append(f"  trial {found.number}{front}: {changed}; miss {misses}{fate}")
            for i, target in enumerate(self.targets):
                line = f"    {target.metric}: {found.measured[target.metric].text()}"
                if found.holdout is not None:
                    line += f"; held out: {found.holdout[target.metric].text()} ({found.verdicts[i]})"
                lines.append(line)
            lines.append(f"    reproduce: {found.command}")
            if found.holdout_command:
                lines.append(f"    held out: {found.holdout_command}")
        if self.holdout_games:
            agents = " ".join(self.holdout_agents)
            lines.append(f"Held out: {self.holdout_games} games a variant on seeds the search never saw, by {agents}; "
                         "a target holds (interval inside it), is consistent (interval reaches it) or fails "
                         "(interval outside it).")
        return "\n".join(lines)


def _measure(plan: Plan, traces: list[Any]) -> dict[str, Estimate]:
    selfplay = [t for t in traces if t.kind == "self"]
    measured = metrics.measure(selfplay, seed=plan.seed)
    measured["SkillGap"] = metrics.skill_gap(traces)
    return measured


def reproduce_command(plan: Plan, options: dict[str, Any], out: str) -> str:
    """The ``boardlab playtest`` command that plays this variant's games again."""
    parts = ["boardlab", "playtest", plan.game]
    for key, value in {**plan.options, **options}.items():
        parts += ["-o", f"{key}={value}"]
    parts += ["--agents", *plan.agents, "--games", str(plan.games), "--seed", str(plan.seed)]
    if plan.seconds:
        parts += ["--seconds-per-move", str(plan.seconds)]
    parts += ["--skill-gap", ",".join(plan.skill) if plan.skill else "off"]
    if plan.skill:
        parts += ["--skill-games", str(plan.skill_games)]
    if plan.evaluator != "auto":
        parts += ["--evaluator", plan.evaluator]
    parts += ["--out", out]
    return " ".join(shlex.quote(p) for p in parts)


def tune(plan: Plan, space: Space, targets: list[Target], trials: int, folder: Path, workers: int | None = None,
         ray_address: str | None = None, top: int = 5, seed: int = 0, holdout_games: int = 0,
         holdout_agents: tuple[str, ...] | None = None) -> TuneResult:
    """Search ``space`` for variants of ``plan``'s game that meet ``targets``; ``trials`` playtests; then
    re-play the best on ``holdout_games`` unseen seeds (by ``holdout_agents``, else the same agents)."""
    try:
        import optuna
    except ImportError:
        raise BoardlabError("tune needs Optuna: pip install 'boardlab[playtest]'") from None
    if trials < 1:
        raise BoardlabError(f"--trials {trials}: accepted: a positive number")
    if holdout_games < 0:
        raise BoardlabError(f"--holdout-games {holdout_games}: accepted: 0 or more")
    if plan.depth:
        raise BoardlabError("tune plays one strength per trial: give --agents, not --depth "
                            "(and --holdout-agents to check the best with a stronger agent)")
    if not any(t.metric == "SkillGap" for t in targets):
        plan = replace(plan, skill=None, skill_games=0)  # no mini-match nobody asked for
    plan.check_counts()  # the base options alone need not make a valid variant: each trial's are checked
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directions = [optuna.study.StudyDirection.MINIMIZE] * len(targets)
    study = optuna.create_study(directions=directions, sampler=optuna.samplers.TPESampler(seed=seed))
    found: dict[int, Found] = {}

    def objective(trial: Any) -> list[float] | float:
        options: dict[str, Any] = {}
        for name, (kind, *rest) in space.items():
            if kind == "int":
                options[name] = trial.suggest_int(name, rest[0], rest[1])
            else:
                options[name] = trial.suggest_categorical(name, rest[0])
        out = folder / f"trial-{trial.number:03d}"
        trial_plan = replace(plan, options={**plan.options, **options})
        try:
            traces = run_plan(trial_plan, out, workers=workers, ray_address=ray_address, resume=True)
        except OptionError as error:  # a combination the game refuses: the worst possible score
            print(f"trial {trial.number}: {options} refused: {error}", file=sys.stderr)
            misses = [MISSING] * len(targets)
            return misses if len(misses) > 1 else misses[0]
        measured = _measure(trial_plan, traces)
        misses = [t.miss(measured[t.metric].value) for t in targets]
        found[trial.number] = Found(trial.number, options, misses, measured,
                                    reproduce_command(plan, options, str(out)))
        shown = ", ".join(f"{t.metric} {measured[t.metric].text()}" for t in targets)  # to stderr, as it goes
        print(f"trial {trial.number}: {options}: {shown}", file=sys.stderr)
        return misses if len(misses) > 1 else misses[0]

    study.optimize(objective, n_trials=trials)
    front = {t.number for t in study.best_trials if t.number in found}
    for trial_number in front:
        found[trial_number].pareto = True
    # The Pareto front first (no other variant misses less on every target), then the rest; within
    # each, by total miss (targets in different units: compare the misses one by one, too).
    candidates = sorted(found.values(), key=lambda f: (not f.pareto, sum(f.misses), f.number))[:top]
    agents = tuple(holdout_agents or plan.agents)
    if holdout_games:
        for candidate in candidates:
            held = replace(plan, options={**plan.options, **candidate.options}, games=holdout_games,
                           seed=plan.seed + HOLDOUT_SEED_OFFSET, agents=agents)
            if held.skill:
                held = replace(held, skill=(agents[0], held.skill[1]), skill_games=max(2, holdout_games // 2))
            out = folder / f"holdout-{candidate.number:03d}"
            traces = run_plan(held, out, workers=workers, ray_address=ray_address, resume=True)
            candidate.holdout = _measure(held, traces)
            candidate.verdicts = [t.judge(candidate.holdout[t.metric]) for t in targets]
            candidate.holdout_command = reproduce_command(held, candidate.options, str(out))
            print(f"held out, trial {candidate.number}: "
                  + ", ".join(f"{t.metric} {candidate.holdout[t.metric].text()} ({v})"
                              for t, v in zip(targets, candidate.verdicts, strict=True)), file=sys.stderr)
    return TuneResult(plan.game, targets, trials, candidates, holdout_games, agents if holdout_games else ())
