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
    _common(playtest, game_required=False)
    playtest.add_argument("--sweep", action="append", metavar="NAME=V1,V2,…",
                          help="play every combination of these option values (repeatable)")
    playtest.add_argument("--stop-on", metavar="METRIC",
                          help="sequential: play in batches and stop comparing variants on METRIC once each "
                               "paired comparison is decided (different, or equivalent within --margin)")
    playtest.add_argument("--margin", type=float, metavar="X",
                          help="equivalence margin for --stop-on and the report's comparisons (default 0.1 for "
                               "rates and fractions, 10%% of the mean for counts)")
    playtest.add_argument("--batch", type=int, default=10, metavar="N",
                          help="games per variant and strength between looks with --stop-on (default 10)")
    playtest.add_argument("--out", "-O", default="playtest", metavar="DIR",
                          help="results store and report.html go here (default: ./playtest)")
    playtest.add_argument("--resume", action="store_true", help="finish a stopped run in DIR, keeping its games")
    playtest.add_argument("--recheck", metavar="FILE",
                          help="re-run the claims of a findings manifest (FILE.claims.toml, or the .md beside it) "
                               "at their reduced budget and say which still hold")
    tune = commands.add_parser("tune", help="search option values for a design target (Optuna; small playtests)")
    _common(tune)
    tune.add_argument("--space", action="append", required=True, metavar="NAME=LO..HI",
                      help="an integer option's range, or NAME=A,B,C for a choice (repeatable)")
    tune.add_argument("--target", action="append", required=True, metavar="METRIC<=X",
                      help="a goal: METRIC<=X, METRIC>=X or METRIC=X (repeatable: several targets "
                           "search for the best trade-offs); quote it in a shell: '--target' 'Balance>=0.9'")
    tune.add_argument("--trials", type=int, default=12, help="option sets to try (default 12)")
    tune.add_argument("--out", "-O", default="tune", metavar="DIR", help="each trial's playtest goes under DIR")
    tune.add_argument("--top", type=int, default=5, help="best variants to report (default 5)")
    tune.add_argument("--holdout-games", type=int, metavar="N",
                      help="re-play the best variants on N games of seeds the search never saw "
                           "(default: --games; 0: no re-play)")
    tune.add_argument("--holdout-agents", nargs="+", metavar="AGENT",
                      help="play the re-plays with these agents instead (e.g. a stronger level)")


def _common(parser: argparse.ArgumentParser, game_required: bool = True) -> None:
    parser.add_argument("game", nargs=None if game_required else "?", help=f"game id: {', '.join(game_ids())}")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="set a rules option")
    parser.add_argument("--variant", metavar="NAME", help="start from a named rule set")
    parser.add_argument("--agents", nargs="+", metavar="AGENT",
                        help=f"self-play agents, one per seat in turn (default {DEFAULT_AGENT} in every seat)")
    parser.add_argument("--depth", metavar="A1,A2,…",
                        help="skill depth: play every variant with each of these agents, weakest first "
                             "(e.g. level1,level2,level3), and each against the one below (the skill chain)")
    parser.add_argument("--games", type=int, default=20, help="self-play games per variant and strength (default 20)")
    parser.add_argument("--seconds-per-move", type=float, metavar="S",
                        help="time a move instead of the agents' iteration budgets (results then vary by run)")
    parser.add_argument("--skill-gap", metavar="STRONG,WEAK",
                        help="the mini-match per variant that measures the skill gap (default: the first agent "
                             "against level1, or random if it is level1; 'off' for none); with --depth the "
                             "skill chain replaces it")
    parser.add_argument("--skill-games", type=int, metavar="N",
                        help="skill games per variant and pair (default games/2; with --stop-on, batch/2)")
    parser.add_argument("--evaluator", default="auto", metavar="SPEC",
                        help="the fixed evaluator of the estimate metrics: auto (the game's evaluation, else random "
                             "playouts), evaluation, or playouts:n=N,move_n=M,seed=S")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (game i uses seed + i)")
    parser.add_argument("--max-turns", type=int, default=2000, help="stop a game after this many turns (a timeout)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, help="games in parallel (default: one per CPU core)")
    group.add_argument("--ray", metavar="ADDRESS",
                       help="play the games as Ray tasks: a cluster's HOST:PORT, or 'local' (see the README for "
                            "a cluster's authentication token)")


def _options(args: argparse.Namespace) -> dict[str, Any]:
    options: dict[str, Any] = dict(parse_assignments(args.option or []))
    if args.variant:
        options = {**info(args.game).variant(args.variant).options, **options}
    return options


def _depth(args: argparse.Namespace) -> tuple[str, ...]:
    if not args.depth:
        return ()
    ladder = tuple(part.strip() for part in args.depth.split(",") if part.strip())
    if len(ladder) < 2:
        raise BoardlabError(f"--depth {args.depth!r}: accepted: two agents or more, weakest first (level1,level2)")
    if args.agents:
        raise BoardlabError("--depth names the agents of every strength: leave --agents out")
    if args.skill_gap:
        raise BoardlabError("--depth measures each strength against the one below: leave --skill-gap out")
    return ladder


def _skill(args: argparse.Namespace, agents: list[str], depth: tuple[str, ...]) -> tuple[tuple[str, str] | None, int]:
    # Half the self-play games; a sequential run (--stop-on) may stop after its first batch: half a batch.
    planned = getattr(args, "batch", 10) if getattr(args, "stop_on", None) else args.games
    games = args.skill_games if args.skill_games is not None else max(2, planned // 2)
    if depth:
        return None, games
    text = args.skill_gap
    if text is not None and text.strip().lower() == "off":
        return None, 0
    if text is None:
        strong = agents[0]
        weak = "random" if strong.lower() in ("level1", "random") else "level1"
        return ((strong, weak), games) if games else (None, 0)
    strong, sep, weak = text.partition(",")
    if not sep or not strong.strip() or not weak.strip():
        raise BoardlabError(f"--skill-gap {text!r}: accepted: STRONG,WEAK (two agent specs) or off")
    return (strong.strip(), weak.strip()), games


def make_plan(args: argparse.Namespace, sweep: dict[str, list[Any]]) -> Any:
    from boardlab.playtest.run import Plan

    info(args.game)  # an unknown game is named before anything else
    depth = _depth(args)
    agents = list(args.agents or [depth[0] if depth else DEFAULT_AGENT])
    skill, skill_games = _skill(args, agents, depth)
    return Plan(args.game, _options(args), sweep, tuple(agents), args.games, seed=args.seed,
                seconds=args.seconds_per_move, skill=skill, skill_games=skill_games, max_turns=args.max_turns,
                depth=depth, evaluator=args.evaluator, stop_on=getattr(args, "stop_on", None),
                margin=getattr(args, "margin", None), batch=getattr(args, "batch", 10))


def command_line() -> str:
    """The command that was run, as a user would paste it again."""
    return "boardlab " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else ""


def cmd_playtest(args: argparse.Namespace) -> int:
    if args.recheck:
        from boardlab.playtest.recheck import recheck_command

        return recheck_command(args.recheck, out=None if args.out == "playtest" else args.out,
                               workers=args.workers, ray_address=args.ray)
    if not args.game:
        raise BoardlabError(f"playtest: name a game ({', '.join(game_ids())}), or give --recheck FILE")
    from boardlab.playtest.report import markdown_summary, write_report
    from boardlab.playtest.run import parse_sweep, run_plan

    plan = make_plan(args, parse_sweep(args.sweep or []))
    plan.check()
    out = Path(args.out)
    with playtest_progress(plan) as on_game:
        traces = run_plan(plan, out, workers=args.workers, ray_address=args.ray, resume=args.resume,
                          on_game=on_game)
    report = write_report(plan, traces, out / "report.html", command=command_line(), folder=out)
    (out / "summary.md").write_text(markdown_summary(plan, traces), encoding="utf-8")
    print(f"{len(traces)} games stored in {out / 'store'}; report: {report}")
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from boardlab.playtest.tune import parse_space, parse_targets, tune

    plan = make_plan(args, {})
    space = parse_space(args.space)
    targets = parse_targets(args.target)
    holdout = args.holdout_games if args.holdout_games is not None else args.games
    result = tune(plan, space, targets, trials=args.trials, folder=Path(args.out), workers=args.workers,
                  ray_address=args.ray, top=args.top, holdout_games=holdout,
                  holdout_agents=tuple(args.holdout_agents) if args.holdout_agents else None)
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
