"""Playtest throughput: games per second with 1 and 2 worker processes and with Ray on this machine.

    .venv/bin/python bench/playtest_throughput.py [--agents level1 level2 level3] [--games 24] [--size 4]

For each agent, plays the same self-play games (Ndengrod, side 4 and lines of 4 unless ``--size``; the
same seeds; the fixed evaluator measuring every position, as ``boardlab playtest`` does) four ways
into fresh folders: in this process (1 worker), with a pool of 1 process beside it (2 workers), with
Ray started here on 1 CPU beside it (Ray local, 2 workers), on a Ray head of 2 CPUs on this machine
started before the runs (``ray start --head``, as a designer who runs many sweeps keeps one; this
process only collects), and, for scale, Ray's start-up alone (as ``ray.init`` starts it and as the lab
does). Start-up is included (a pool spawns its processes, Ray starts a local cluster; this process
plays meanwhile), as a designer running ``boardlab playtest`` would see it; the head's own start is
not, and its workers stay between runs. ``--ways`` picks some of these, ``--rounds`` repeats them
interleaved. It prints games/s,
the speed-ups against one worker, and the load average (``os.getloadavg``) before and after each,
since other work on the machine shares its cores, the CPU seconds the games cost (each game's own
process time, start-up left out) and the cores the games got (those CPU seconds over the wall time).
Linux shares a busy CPU between sessions (``/proc/sys/kernel/sched_autogroup_enabled``), not between
processes: there a second worker of the same session gets no more CPU than one, the cores the games
got stay put, and only a quiet machine shows the speed-up.
"""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from boardlab.playtest.run import Plan

# The lab is imported in the functions, not here: a pool's process imports this script again (as
# ``__mp_main__``: CPython's fork server does not preload it), and scipy and pyarrow, which the run
# imports, cost it 0.7 s of CPU before its first game; ``boardlab playtest``'s own script imports
# neither, so a worker of the command starts with the lab its fork server loaded.


def timed(plan: Plan, **kwargs: object) -> tuple[float, float, int, tuple[float, float]]:
    from boardlab.playtest.run import run_plan

    with tempfile.TemporaryDirectory() as folder:
        before = os.getloadavg()[0]
        began = time.perf_counter()
        traces = run_plan(plan, Path(folder), **kwargs)  # type: ignore[arg-type]
        seconds = time.perf_counter() - began
        after = os.getloadavg()[0]
    return seconds, sum(t.cpu_seconds for t in traces), len(traces), (before, after)


def ray_start_up() -> tuple[float, float]:
    """Seconds to start and stop a Ray here: as ``ray.init`` starts one, and as the lab does (without the
    autoscaler's monitor and the log monitor: :func:`boardlab.playtest.ray_tasks.start_here`)."""
    import ray

    from boardlab.playtest.ray_tasks import start_here

    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    began = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, **options)
    ray.shutdown()
    plain = time.perf_counter() - began
    began = time.perf_counter()
    start_here(2, options)()
    return plain, time.perf_counter() - began


def start_head(cpus: int) -> tuple[str, Callable[[], None]]:
    """A Ray head on loopback with ``cpus`` CPUs, as ``ray start --head`` starts one; its address and a stop."""
    import shutil
    import signal
    import socket
    import subprocess
    import sys

    ports = []
    for _ in range(3):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    gcs, dashboard, metrics = ports
    temp = tempfile.mkdtemp(prefix="rb", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    ray = Path(sys.executable).with_name("ray")
    head = subprocess.Popen(
        [str(ray), "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(gcs),
         "--num-cpus", str(cpus), "--include-dashboard=false", "--dashboard-port", str(dashboard),
         "--metrics-export-port", str(metrics), "--temp-dir", temp, "--disable-usage-stats"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", gcs)) == 0:
                break
        if head.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the Ray head did not start")
        time.sleep(0.5)

    def stop() -> None:
        import ray as ray_module

        ray_module.shutdown()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(head.pid, sig)
                head.wait(timeout=10)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        shutil.rmtree(temp, ignore_errors=True)

    return f"127.0.0.1:{gcs}", stop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", nargs="+", default=["level1", "level2", "level3"])
    parser.add_argument("--games", type=int, default=200, help="games an agent (a lab run's size)")
    parser.add_argument("--size", type=int, default=4, help="Ndengrod's side (lines as long as the side)")
    parser.add_argument("--no-ray", action="store_true", help="only the process pool")
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS),
                        help="which ways to play the games (default: all); the first is the others' yardstick")
    parser.add_argument("--rounds", type=int, default=1,
                        help="play every way this many times, interleaved (the figures of each round are printed)")
    args = parser.parse_args()
    if args.no_ray:
        args.ways = [way for way in args.ways if not way.startswith("ray")]
    # A local Ray writes ~/.ray/auth_token unless it has a token; give it one for this run only.
    os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
    try:
        autogroup = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        autogroup = False
    print(f"{args.games} games of ndengrod size={args.size} length={args.size} per agent; cores: {os.cpu_count()}; "
          f"load average {os.getloadavg()[0]:.2f}; CPU shared by session (autogroup): {'yes' if autogroup else 'no'}",
          flush=True)
    if "ray-local" in args.ways:
        plain, lab = ray_start_up()
        print(f"Ray start-up and shutdown alone: {plain:.1f} s (ray.init), {lab:.1f} s (as the lab starts it)",
              flush=True)

    head, stop_head = start_head(2) if "ray-head" in args.ways else ("", lambda: None)
    try:
        for agent in args.agents:
            for _ in range(args.rounds):
                measure(agent, args, head)
    finally:
        stop_head()


WAYS: dict[str, tuple[str, dict[str, object]]] = {
    "one": ("1 worker", {"workers": 1}),
    "pool": ("2 workers", {"workers": 2}),
    "ray-local": ("Ray local, 2 workers", {"workers": 2, "ray_address": "local"}),
    "ray-head": ("Ray head, 2 CPUs", {}),
}


def measure(agent: str, args: argparse.Namespace, head: str) -> None:
    from boardlab.playtest.run import Plan

    plan = Plan("ndengrod", {"size": args.size, "length": args.size}, {}, (agent,), args.games, seed=1)
    base = None
    for way in args.ways:
        label, kwargs = WAYS[way]
        if way == "ray-head":
            kwargs = {"ray_address": head}
        seconds, cpu, games, (before, after) = timed(plan, **kwargs)
        rate = games / seconds
        base = base or rate
        print(f"{agent:>7} {label:>18}: {rate:6.2f} games/s ({seconds:6.1f} s, ×{rate / base:.2f} of {args.ways[0]}); "
              f"{cpu / games:5.2f} CPU s a game, {cpu / seconds:4.2f} cores; load average {before:.2f} before, "
              f"{after:.2f} after", flush=True)


if __name__ == "__main__":
    main()
