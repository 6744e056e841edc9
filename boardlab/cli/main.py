"""The ``boardlab`` command: play, replay, list games, print rules, benchmark, print and play.

Every subcommand reports bad input (an unknown game or option, a malformed record) as one line on
stderr and exits with status 2; nothing is left half-written.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any

from boardlab.core.info import info_document
from boardlab.core.options import parse_assignments
from boardlab.core.registry import game_ids, games, info, load
from boardlab.errors import BoardlabError

# The largest seed accepted: numba's generator takes 32-bit seeds, and seats and games add to it.
MAX_SEED = 2**31 - 1
# Longest time budget a command accepts, in seconds: an hour is far beyond any useful measurement or
# move, and a bound keeps ``inf`` (which never returns) out.
MAX_SECONDS = 3600.0


def check_seconds(flag: str, value: float) -> float:
    """``value`` if it is a usable time budget, else a one-line error naming ``flag``."""
    if not (0 < value <= MAX_SECONDS):  # also false for nan
        raise BoardlabError(f"{flag} {value}: accepted: a number of seconds above 0, at most {MAX_SECONDS:g}")
    return value


def check_seed(value: int | None) -> int | None:
    if value is not None and not 0 <= value <= MAX_SEED:
        raise BoardlabError(f"--seed {value}: accepted: an integer from 0 to {MAX_SEED}")
    return value


def _add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"game id: {', '.join(game_ids())}")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="set a rules option (repeatable); `boardlab games` lists them")
    parser.add_argument("--variant", metavar="NAME", help="start from a named rule set (see `boardlab games`)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardlab", description="A workbench for abstract board games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser("play", help="play a game in the terminal")
    _add_game_arguments(play)
    play.add_argument("--opponent", default="computer", metavar="WHO",
                      help="who plays the other seats: computer (at --level), human (people at this keyboard), "
                           "or an agent (random, level1…level5, uct:seconds=1, alphabeta:seconds=1)")
    play.add_argument("--level", type=int, default=3, choices=range(1, 6), metavar="N",
                      help="the computer's strength, 1 (beginner) to 5 (strongest in a few seconds); default 3")
    play.add_argument("--seat", type=int, default=0, help="your seat, 0-based (0 moves first)")
    play.add_argument("--seed", type=int, help="seed for the computer's choices (repeatable games)")
    play.add_argument("--save", metavar="FILE", help="keep the game record in FILE, updated after every move")
    play.add_argument("--resume", metavar="FILE", help="continue the game recorded in FILE")

    replay = commands.add_parser("replay", help="step through a saved game record")
    replay.add_argument("file", help="a record written by `save` or --save")
    replay.add_argument("--all", action="store_true", help="print every position without waiting")

    listing = commands.add_parser("games", help="list the games, their options and variants")
    listing.add_argument("--json", action="store_true", help="machine-readable output")

    rules = commands.add_parser("rules", help="print a game's rules as implemented")
    rules.add_argument("game", help=f"game id: {', '.join(game_ids())}")

    bench = commands.add_parser("bench", help="measure random playouts per second (single-threaded)")
    _add_game_arguments(bench)
    bench.add_argument("--seconds", type=float, default=3.0, help="how long to measure (default 3)")
    bench.add_argument("--seed", type=int, default=1, help="seed for the random playouts")
    bench.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    bench.add_argument("--ai", action="store_true", help="measure MCTS iterations/s from the start position instead")
    bench.add_argument("--agent", metavar="AGENT", help="with --ai: the search of this agent (level5, uct:amaf=grave, "
                       "…) instead of plain UCT")

    match = commands.add_parser("match", help="play many games between two agents and score them")
    _add_game_arguments(match)
    match.add_argument("agent_a", metavar="AGENT_A", help="random, level1…level5, uct:setting=value,…, "
                       "or alphabeta:seconds=…,max_depth=…,table=…,quiescence=…,contempt=…,evaluation=…")
    match.add_argument("agent_b", metavar="AGENT_B", help="the opponent, in the same form")
    match.add_argument("--games", type=int, default=20, help="games to play, seats alternating (default 20)")
    match.add_argument("--seconds-per-move", type=float, metavar="S",
                       help="give every searching agent S seconds a move (unless its spec sets seconds)")
    match.add_argument("--workers", type=int, help="games in parallel (default: one per CPU core)")
    match.add_argument("--seed", type=int, default=1, help="seed of the first game (game i uses seed + i)")
    match.add_argument("--save", metavar="DIR", help="write every game's record into DIR")
    match.add_argument("--resume", action="store_true",
                       help="go on with a stopped match: count the games whose records are in --save DIR, "
                            "play the rest (refused if a record is of another match, or its agents played "
                            "with other settings)")
    match.add_argument("--json", action="store_true", help="end with one JSON line of the result")

    printing = commands.add_parser("print", help="print-and-play: the board, pieces, sheets and rules as a PDF or SVG")
    _add_game_arguments(printing)
    printing.add_argument("--paper", default="a4", metavar="SIZE", help="a4 (default) or letter")
    printing.add_argument("--out", required=True, metavar="FILE",
                          help="FILE.pdf (one page per sheet) or FILE.svg (the pages one below the other)")

    from boardlab.cli import playtest, remote, serve

    serve.add_arguments(commands)
    remote.add_arguments(commands)
    playtest.add_parsers(commands)
    return parser


def cmd_games(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([info_document(i) for i in games()], indent=2))
        return 0
    for game_info in games():
        players = "/".join(str(n) for n in game_info.players)
        print(f"{game_info.id}: {game_info.name}, by {game_info.designer} ({game_info.year}), "
              f"{players} players")
        print(f"  {game_info.summary}")
        for option in game_info.options:
            notes = ", ".join(x for x in (option.ambiguity, "added rule" if option.added else None) if x)
            print(f"  --option {option.name}=…  default {option.default!r}; {option.allowed}"
                  + (f"  [{notes}]" if notes else ""))
            print(f"      {option.help}")
            for choice, text in option.choice_help.items():
                print(f"        {choice}: {text}")
        for variant in game_info.variants:
            settings = ", ".join(f"{k}={v}" for k, v in variant.options.items())
            print(f"  --variant {variant.name}: {variant.help} ({settings})")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from boardlab.docs import rules_text

    print(rules_text(info(args.game).id))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from boardlab.bench import random_playout_bench

    check_seconds("--seconds", args.seconds)
    check_seed(args.seed)
    options = parse_assignments(args.option or [])
    if args.ai or args.agent:
        return _bench_ai(args, options)
    result = random_playout_bench(args.game, options, seconds=args.seconds, seed=args.seed, variant=args.variant)
    game = load(args.game, variant=args.variant, **options)
    changed = ", ".join(f"{k}={v}" for k, v in game.changed_options.items()) or "default rules"
    print(f"{game.name} ({changed}): random playouts, single-threaded, {result.seconds:.1f} s")
    print(f"  playouts/s   {result.playouts_per_s:,.0f}")
    print(f"  moves/s      {result.moves_per_s:,.0f}")
    print(f"  mean length  {result.mean_length:.1f} plies")
    scores = ", ".join(f"seat {seat} {score:.3f}" for seat, score in enumerate(result.mean_score))
    print(f"  mean score   {scores} (seat 0 moves first)")
    print(f"  load         {result.load_s:.2f} s (load the game and run one playout; compiles on a cold cache)")
    if args.json:
        print(json.dumps(result.to_dict()))
    return 0


def _bench_ai(args: argparse.Namespace, options: dict[str, str]) -> int:
    from boardlab.bench import mcts_bench

    result = mcts_bench(args.game, options, seconds=args.seconds, seed=args.seed, variant=args.variant,
                        agent_spec=args.agent)
    game = load(args.game, variant=args.variant, **options)
    changed = ", ".join(f"{k}={v}" for k, v in game.changed_options.items()) or "default rules"
    searcher = f"the search of {args.agent}" if args.agent else "UCT, random playouts"
    print(f"{game.name} ({changed}): MCTS ({searcher}) from the start, single-threaded, "
          f"{result['seconds']:.1f} s")
    print(f"  iterations/s  {result['iterations_per_s']:,.0f}")
    print(f"  iterations    {result['iterations']:,}; tree nodes {result['nodes']:,}")
    print(f"  best move     {result['best_move']} ({result['best_visits']:,} visits)")
    if args.json:
        print(json.dumps(result))
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from boardlab.cli.progress import match_progress
    from boardlab.match import run_match

    if args.games < 1:
        raise BoardlabError(f"--games {args.games}: accepted: a positive number")
    if args.seconds_per_move is not None:
        check_seconds("--seconds-per-move", args.seconds_per_move)
    if args.workers is not None and args.workers < 1:
        raise BoardlabError(f"--workers {args.workers}: accepted: a positive number of processes")
    if args.save is not None and not args.save.strip():
        raise BoardlabError("--save '': accepted: the name of a directory for the records")
    if args.resume and args.save is None:
        raise BoardlabError("--resume needs --save DIR: the directory whose records the match goes on from")
    check_seed(args.seed)
    if args.seed + args.games - 1 > MAX_SEED:
        raise BoardlabError(f"--seed {args.seed} with --games {args.games}: game seeds would pass {MAX_SEED}")
    options: dict[str, Any] = dict(parse_assignments(args.option or []))
    if args.variant:
        options = {**info(args.game).variant(args.variant).options, **options}
    with match_progress(args.games, args.agent_a, args.agent_b) as on_game:
        result = run_match(args.game, options, args.agent_a, args.agent_b, args.games,
                           seconds=args.seconds_per_move, workers=args.workers, seed=args.seed,
                           save_dir=args.save, on_game=on_game, resume=args.resume)
    print(result.summary())
    if result.resumed:
        counted = "was" if result.resumed == 1 else "were"
        print(f"{result.resumed} of the {result.games} games {counted} counted from the records an earlier run left")
    if args.save:
        print(f"Records of all {result.games} games are in {os.path.join(os.path.normpath(args.save), '')}")
    if args.json:
        print(json.dumps(result.to_dict()))
    return 0


def cmd_print(args: argparse.Namespace) -> int:
    from boardlab.printing import print_kit

    pages = print_kit(args.game, args.out, parse_assignments(args.option or []), variant=args.variant,
                      paper=args.paper)
    kinds = ", ".join(dict.fromkeys(page.kind for page in pages))
    print(f"{args.out}: {len(pages)} pages on {pages[0].paper.name} ({kinds})")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from boardlab.cli.progress import CompileNotice
    from boardlab.core.registry import kernels_cached

    # Importing the player compiles the search, loading the game its rules: say so while it lasts.
    # Nothing heavy is imported before this point (see boardlab/__init__.py), so a first run's
    # notice appears at once; a cached start shows its line only if loading takes a while.
    name = info(args.game).name  # an unknown game is refused here, before anything is shown
    first_run = not kernels_cached(args.game)
    with CompileNotice(name, first_run=first_run, delay=0.0 if first_run else 0.7):
        from boardlab.cli.play import enable_line_editing, prepare_play

        session = prepare_play(args)
    enable_line_editing()
    return session.run()


def cmd_replay(args: argparse.Namespace) -> int:
    from boardlab.cli.replay import run_replay

    return run_replay(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from boardlab.cli.serve import run_serve

    return run_serve(args)


def cmd_db(args: argparse.Namespace) -> int:
    from boardlab.cli.serve import run_db

    return run_db(args)


def cmd_ai_worker(args: argparse.Namespace) -> int:
    from boardlab.cli.serve import run_ai_worker

    return run_ai_worker(args)


def cmd_remote(args: argparse.Namespace) -> int:
    from boardlab.cli.remote import run_remote

    return run_remote(args)


COMMANDS = {
    "games": cmd_games, "rules": cmd_rules, "bench": cmd_bench, "play": cmd_play, "replay": cmd_replay,
    "match": cmd_match, "print": cmd_print, "playtest": lambda args: _playtest("cmd_playtest", args),
    "tune": lambda args: _playtest("cmd_tune", args),
}
COMMANDS.update({"serve": cmd_serve, "db": cmd_db, "remote": cmd_remote, "ai-worker": cmd_ai_worker})


def _playtest(name: str, args: argparse.Namespace) -> int:
    from boardlab.cli import playtest

    handler: Any = getattr(playtest, name)
    return int(handler(args))


# Long runs with worker processes. Not ``play`` (Ctrl-C there asks whether to save; SIGTERM has nobody to
# ask) nor the commands that serve, which handle SIGTERM themselves.
STOPPED_LIKE_CTRL_C = frozenset({"playtest", "tune", "match", "bench"})


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a scheduler) stops a command as Ctrl-C does: runs and matches close
    their worker processes and keep every stored game; only the exit status differs (143)."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    catch_term = (args.command in STOPPED_LIKE_CTRL_C and threading.current_thread() is threading.main_thread()
                  and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
    if catch_term:
        signal.signal(signal.SIGTERM, _terminate)
    try:
        return _run(args)
    finally:
        if catch_term:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _run(args: argparse.Namespace) -> int:
    try:
        return COMMANDS[args.command](args)
    except BoardlabError as error:
        print(f"boardlab {args.command}: {error}", file=sys.stderr)
        return 2
    except Terminated:
        print("\nterminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


if __name__ == "__main__":
    sys.exit(main())
