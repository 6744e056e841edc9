"""``boardlab playtest`` and ``boardlab tune``: the playtest lab on the command line."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from boardlab.core.options import parse_assignments
from boardlab.core.registry import game_ids, info
from boardlab.errors import BoardlabError

DEFAULT_AGENT = "level2"


def add_parsers(commands: Any) -> None:
    """Add the ``playtest`` and ``tune`` subcommands to ``boardlab``'s parser."""
    playtest = commands.add_parser("playtest", help="self-play many games per variant; metrics and an HTML report")
    _common(playtest)
    playtest.add_argument("--sweep", action="append", metavar="NAME=V1,V2,…",
                          help="play every combination of these option values (repeatable)")
    playtest.add_argument("--out", "-O", default="playtest", metavar="DIR",
                          help="results store and report.html go here (default: ./playtest)")
    playtest.add_argument("--resume", action="store_true", help="finish a stopped run in DIR, keeping its games")
    tune = commands.add_parser("tune", help="search option values for a design target (Optuna; small playtests)")
    _common(tune)
    tune.add_argument("--space", action="append", required=True, metavar="NAME=LO..HI",
                      help="an integer option's range, or NAME=A,B,C for a choice (repeatable)")
    tune.add_argument("--target", action="append", required=True, metavar="METRIC<=X",
                      help="a goal: METRIC<=X, METRIC>=X or METRIC=X (repeatable: several targets "
                           "search for the best trade-offs)")
    tune.add_argument("--trials", type=int, default=12, help="option sets to try (default 12)")
    tune.add_argument("--out", "-O", default="tune", metavar="DIR", help="each trial's playtest goes under DIR")
    tune.add_argument("--top", type=int, default=5, help="best variants to report (default 5)")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"game id: {', '.join(game_ids())}")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="set a rules option")
    parser.add_argument("--variant", metavar="NAME", help="start from a named rule set")
    parser.add_argument("--agents", nargs="+", default=[DEFAULT_AGENT], metavar="AGENT",
                        help=f"self-play agents, one per seat in turn (default {DEFAULT_AGENT} in every seat)")
    parser.add_argument("--games", type=int, default=20, help="self-play games per variant (default 20)")
    parser.add_argument("--seconds-per-move", type=float, metavar="S",
                        help="time a move instead of the agents' iteration budgets (results then vary by run)")
    parser.add_argument("--skill-gap", metavar="STRONG,WEAK",
                        help="the mini-match per variant that measures the skill gap (default: the first agent "
                             "against level1, or random if it is level1; 'off' for none)")
    parser.add_argument("--skill-games", type=int, metavar="N", help="skill-gap games per variant (default games/2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (game i uses seed + i)")
    parser.add_argument("--max-turns", type=int, default=2000, help="stop a game after this many turns (a timeout)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, help="games in parallel (default: one per CPU core)")
    group.add_argument("--ray", metavar="ADDRESS", help="play the games as Ray tasks: a cluster's address, or 'local'")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = dict(parse_assignments(args.option or []))
    if args.variant:
        options = {**info(args.game).variant(args.variant).options, **options}
    return options


def _skill(args: argparse.Namespace) -> tuple[tuple[str, str] | None, int]:
    games = args.skill_games if args.skill_games is not None else max(2, args.games // 2)
    text = args.skill_gap
    if text is not None and text.strip().lower() == "off":
        return None, 0
    if text is None:
        strong = args.agents[0]
        weak = "random" if strong.lower() in ("level1", "random") else "level1"
        return ((strong, weak), games) if games else (None, 0)
    strong, sep, weak = text.partition(",")
    if not sep or not strong.strip() or not weak.strip():
        raise BoardlabError(f"--skill-gap {text!r}: accepted: STRONG,WEAK (two agent specs) or off")
    return (strong.strip(), weak.strip()), games


def make_plan(args: argparse.Namespace, sweep: dict[str, list[Any]]) -> Any:
    from boardlab.playtest.run import Plan

    info(args.game)  # an unknown game is named before anything else
    skill, skill_games = _skill(args)
    return Plan(args.game, _options(args), sweep, tuple(args.agents), args.games, seed=args.seed,
                seconds=args.seconds_per_move, skill=skill, skill_games=skill_games, max_turns=args.max_turns)


def cmd_playtest(args: argparse.Namespace) -> int:
    from boardlab.playtest.report import markdown_summary, write_report
    from boardlab.playtest.run import parse_sweep, run_plan

    plan = make_plan(args, parse_sweep(args.sweep or []))
    plan.check()
    out = Path(args.out)
    with playtest_progress(plan) as on_game:
        traces = run_plan(plan, out, workers=args.workers, ray_address=args.ray, resume=args.resume,
                          on_game=on_game)
    command = "boardlab " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else ""
    report = write_report(plan, traces, out / "report.html", command=command)
    (out / "summary.md").write_text(markdown_summary(plan, traces), encoding="utf-8")
    print(f"{len(traces)} games stored in {out / 'store'}; report: {report}")
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from boardlab.playtest.tune import parse_space, parse_targets, tune

    plan = make_plan(args, {})
    space = parse_space(args.space)
    targets = parse_targets(args.target)
    result = tune(plan, space, targets, trials=args.trials, folder=Path(args.out), workers=args.workers,
                  ray_address=args.ray, top=args.top)
    print(result.summary())
    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        (Path(args.out) / "best.txt").write_text(result.summary() + "\n", encoding="utf-8")
    except OSError as error:
        raise BoardlabError(f"cannot write {args.out}/best.txt: {error.strerror}") from None
    return 0


@contextmanager
def playtest_progress(plan: Any) -> Iterator[Callable[[Any, int, int], None]]:
    """A progress bar on stderr: games done, the running score by seat (self-play), time left."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("left"),
               TimeRemainingColumn())
    wins: dict[int, int] = {}
    draws = 0
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{plan.game} playtest", total=None)

        def on_game(trace: Any, done: int, total: int) -> None:
            nonlocal draws
            if progress.tasks[task].total is None:  # the first game of this sitting: games already stored
                progress.reset(task, total=total, completed=done - 1)  # do not count toward the speed
            if trace.kind == "self":
                if trace.winner is None:
                    draws += 1
                else:
                    wins[trace.winner] = wins.get(trace.winner, 0) + 1
            score = " ".join(f"s{seat}:{wins.get(seat, 0)}" for seat in range(trace.seats)) + f" draws:{draws}"
            progress.update(task, completed=done, total=total, description=f"{plan.game} {score}")

        yield on_game
