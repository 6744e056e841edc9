"""The playtest lab end to end: traces from real games, the store and resume, Ray against the pool, the CLI."""

from __future__ import annotations

import json
import re
import threading
from concurrent.futures import Future
from dataclasses import fields, is_dataclass, replace
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab.ai.levels import LEVELS, make_agent
from boardlab.cli.main import main
from boardlab.core import registry
from boardlab.core.registry import game_ids
from boardlab.playtest.players import Players, PoolHelpers
from boardlab.playtest.run import Plan, run_plan
from boardlab.playtest.store import Store
from boardlab.playtest.trace import GameJob, GameTrace, play_traced

SMALL = {"size": 3, "length": 3}
SEARCH = "uct:iterations=300"


def plan(games: int = 4, skill_games: int = 2) -> Plan:
    return Plan("ndengrod", dict(SMALL), {"swap": ["false", "true"]}, (SEARCH,), games, seed=11,
                skill=(SEARCH, "random"), skill_games=skill_games)


def fingerprint(traces: list[GameTrace]) -> list[tuple[object, ...]]:
    """What must not depend on where a game was played (not the clock, not the record's date)."""
    return [(t.key, t.result, t.end_reason,
             [(p.move, p.legal, p.agent_estimate, p.evaluation, p.captures, p.position) for p in t.plies])
            for t in sorted(traces, key=lambda t: t.key)]


def test_search_agents_report_their_estimate_random_ones_none() -> None:
    state = boardlab.load("ndengrod", **SMALL).new_game()
    agent = make_agent(SEARCH, seed=1)
    move = agent.choose(state.view(0))
    assert agent.last_analysis is not None and agent.last_estimate is not None
    best = agent.last_analysis.candidates[0]
    assert move == best.move and agent.last_estimate == best.value and 0.0 <= best.value <= 1.0
    randomly = make_agent("random", seed=1)
    randomly.choose(state.view(0))
    assert randomly.last_estimate is None and randomly.last_analysis is None


def test_trace_counts_captures_as_pieces_leave_the_board() -> None:
    game = boardlab.load("gtbm", size=4)
    trace = play_traced(GameJob("g", "v", "gtbm", {"size": 4}, ("random", "random"), seed=5))
    start = [int(np.count_nonzero(game.occupancy(game.new_game().data) == s)) for s in (0, 1)]
    assert start == [4, 4]
    final = trace.plies[-1].pieces
    taken_from = [sum(p.captures for p in trace.plies if p.seat != seat) for seat in (0, 1)]
    assert [start[s] - taken_from[s] for s in (0, 1)] == final  # GTBM loses pieces only to captures
    if trace.first_capture is not None:
        assert trace.plies[trace.first_capture].captures > 0
        assert all(p.captures == 0 for p in trace.plies[: trace.first_capture])
        assert trace.first_contact is not None and trace.first_contact <= trace.first_capture
    assert trace.record and trace.turns == len(trace.plies)


def test_occupancy_follows_the_swap() -> None:
    game = boardlab.load("ndengrod", size=3, length=3, swap=True)
    state = game.new_game().play("b2")
    assert game.occupancy(state.data).tolist().count(0) == 1
    swapped = state.play("swap")
    owners = game.occupancy(swapped.data).tolist()
    assert owners.count(1) == 1 and owners.count(0) == 0  # the swapper (seat 1) now owns x's stone


def test_a_stopped_run_resumes_without_losing_or_repeating_a_game(tmp_path: Path) -> None:
    the_plan = plan()
    planned = {job.key for job in the_plan.jobs()}

    def stop_after_three(trace: GameTrace, done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_plan(the_plan, tmp_path / "lab", workers=2, on_game=stop_after_three)
    store = Store(tmp_path / "lab")
    assert len(store.finished()) == 3
    with pytest.raises(boardlab.BoardlabError, match="--resume"):
        run_plan(the_plan, tmp_path / "lab", workers=2)
    played: list[int] = []
    resumed = run_plan(the_plan, tmp_path / "lab", workers=2, resume=True,
                       on_game=lambda trace, done, total: played.append(done))
    assert played == list(range(4, len(planned) + 1))  # only the games not yet stored were played
    keys = [t.key for t in resumed]
    assert sorted(keys) == sorted(planned) and len(keys) == len(set(keys))
    assert len(list((tmp_path / "lab" / "store" / "games").glob("*.parquet"))) == len(planned)
    whole = run_plan(the_plan, tmp_path / "fresh", workers=1)
    assert fingerprint(resumed) == fingerprint(whole)


def same_values_and_types(a: object, b: object, where: str) -> list[str]:
    """Where ``a`` and ``b`` differ in a value or a type, looking inside lists, dicts and dataclasses."""
    if type(a) is not type(b):
        return [f"{where}: {type(a).__name__} against {type(b).__name__}"]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items against {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in same_values_and_types(x, y, f"{where}[{i}]")]
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return [f"{where}: keys {sorted(a)} against {sorted(b)}"]
        return [d for k in a for d in same_values_and_types(a[k], b[k], f"{where}[{k!r}]")]
    if is_dataclass(a):
        return [d for f in fields(a) for d in same_values_and_types(getattr(a, f.name), getattr(b, f.name),
                                                                    f"{where}.{f.name}")]
    return [] if a == b else [f"{where}: {a!r} against {b!r}"]


@pytest.mark.parametrize("game", sorted(game_ids()))
def test_a_stored_game_reads_back_as_it_was_played(game: str, tmp_path: Path) -> None:
    # A run returns the games it played from memory, not read back from disk: that is only the same
    # if reading back changes nothing, not a value, not a type (an int64 for an int, a tuple for a list).
    job = Plan(game, {}, {}, ("random",), 1, seed=7, max_turns=12).jobs()[0]
    played = play_traced(job)
    store = Store(tmp_path)
    store.add(played)
    assert store.load() == [played]
    (read,) = Store(tmp_path).load()
    assert same_values_and_types(played, read, "trace") == []


def test_resume_refuses_a_changed_plan(tmp_path: Path) -> None:
    run_plan(plan(games=1, skill_games=0), tmp_path, workers=1)
    with pytest.raises(boardlab.BoardlabError, match="games"):
        run_plan(plan(games=2, skill_games=0), tmp_path, workers=1, resume=True)


def test_resume_refuses_a_run_whose_level_has_changed_since(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    levelled = Plan("ndengrod", dict(SMALL), {}, ("level1",), 1, seed=11)
    run_plan(levelled, tmp_path, workers=1)
    monkeypatch.setitem(LEVELS, 1, replace(LEVELS[1], iterations=50))
    with pytest.raises(boardlab.BoardlabError, match=r"holds a run with other settings \(agent_settings\)"):
        run_plan(levelled, tmp_path, workers=1, resume=True)
    monkeypatch.undo()
    assert len(run_plan(levelled, tmp_path, workers=1, resume=True)) == 1


def test_ray_plays_the_same_games_as_the_process_pool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ray = pytest.importorskip("ray")
    import secrets

    # Ray 2.59+ turns token authentication on for a local Ray and, without a token, writes one to
    # ~/.ray/auth_token, which would turn it on for every later `ray start --head` of this user: give it one.
    monkeypatch.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)  # restored (unset) after the test, whatever Ray sets
    the_plan = plan(games=2, skill_games=1)
    pooled = run_plan(the_plan, tmp_path / "pool", workers=2)
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        on_ray = run_plan(the_plan, tmp_path / "ray", ray_address="local")
    finally:
        ray.shutdown()
    assert len(on_ray) == len(the_plan.jobs()) == 6
    assert fingerprint(on_ray) == fingerprint(pooled)
    assert any(p.agent_estimate is not None for t in on_ray for p in t.plies)


def test_a_ray_the_run_starts_itself_serves_every_batch_of_a_sequential_run(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # The run starts Ray in a background thread while this process plays; Ray's processes die with the
    # thread that started them, so that thread must outlive the batches (it once did not: the second
    # batch's tasks never came back).
    pytest.importorskip("ray")
    import secrets

    monkeypatch.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    undecided = Plan("ndengrod", {"length": 4}, {"size": ["4", "5"]}, ("random",), 12, seed=3,
                     stop_on="AdvantageP1", margin=0.01, batch=4)
    here = run_plan(undecided, tmp_path / "here", workers=1)
    on_ray = run_plan(undecided, tmp_path / "ray", workers=2, ray_address="local")
    assert len(here) == 24  # three batches of 4 games in each of two variants
    assert fingerprint(on_ray) == fingerprint(here)


def _descendants(pid: int) -> list[str]:
    """The command lines of ``pid``'s descendants (Linux's /proc)."""
    children: dict[int, list[int]] = {}
    lines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdecimal():
            try:
                stat = (entry / "stat").read_text()
                lines[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            fields_after_name = stat.rpartition(")")[2].split()
            if fields_after_name[0] != "Z":
                children.setdefault(int(fields_after_name[1]), []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(lines.get(child, ""))
            stack.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc")
def test_a_ray_the_run_starts_runs_only_what_a_run_needs_and_stops_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # ray.init also starts the autoscaler's monitor, a log monitor and an API server: three Python processes
    # that import Ray (some 1.8 s of CPU, taken from the games played meanwhile) and that a run on one machine
    # does not use. The run's own Ray does without them; with a Ray whose private Node differs it falls back
    # to ray.init, and this test fails to say so.
    ray = pytest.importorskip("ray")
    import logging
    import os
    import secrets
    import time

    from boardlab.playtest.ray_tasks import start_here

    monkeypatch.setenv("RAY_AUTH_TOKEN", secrets.token_hex(32))
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    stop = start_here(1, {"logging_level": logging.ERROR, "log_to_driver": False})
    try:
        job = plan(games=1).jobs()[0]
        remote = ray.remote(num_cpus=1)(play_traced)
        assert fingerprint([ray.get(remote.remote(job))]) == fingerprint([play_traced(job)])
        assert ray.cluster_resources().get("CPU") == 1
        running = "\n".join(_descendants(os.getpid()))
        assert "gcs_server" in running and "raylet" in running, running
        for unused in ("autoscaler/_private/monitor.py", "_private/log_monitor.py", "dashboard/dashboard.py"):
            assert unused not in running, running
    finally:
        stop()
    assert not ray.is_initialized()

    def rays() -> list[str]:
        marks = ("gcs_server", "raylet", "ray::", "/ray/dashboard/", "/ray/_private/", "/ray/autoscaler/")
        return [line for line in _descendants(os.getpid()) if any(mark in line for mark in marks)]
    deadline = time.monotonic() + 10
    while rays() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert rays() == []


def test_helpers_get_their_next_game_while_this_process_plays_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # This process plays too; the helpers used to be topped up only between its own games, so a helper
    # that finished its two queued games waited for this process's game to end (15% of its time at level 1).
    jobs = Plan("ndengrod", dict(SMALL), {}, ("random",), 8, seed=5).jobs()
    handed: list[str] = []
    all_handed = threading.Event()
    submit = PoolHelpers.submit

    def counted(self: PoolHelpers, job: GameJob) -> Future[GameTrace]:
        handed.append(job.key)
        if len(handed) == len(jobs) - 1:
            all_handed.set()
        return submit(self, job)

    def first_game_waits(job: GameJob) -> GameTrace:
        all_handed.wait(timeout=120)
        return play_traced(job)

    monkeypatch.setattr(PoolHelpers, "submit", counted)
    with Players(2) as players:
        monkeypatch.setattr(players, "_play_here", first_game_waits)
        traces = list(players.play(jobs))
    assert all_handed.is_set(), f"the helper was handed {len(handed)} games while this process played its first"
    assert traces[0].key == jobs[0].key  # this process's one game came first: the helper's waited for it
    assert sorted(t.key for t in traces) == sorted(job.key for job in jobs)


def test_players_refuse_a_worker_count_below_one() -> None:
    with pytest.raises(boardlab.BoardlabError, match=r"--workers 0: accepted: a positive number"):
        Players(0)


def test_cli_playtest_writes_a_store_and_an_offline_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lab"
    code = main(["playtest", "ndengrod", "-o", "length=3", "--sweep", "size=2,3", "--agents", "level1",
                 "--games", "3", "--skill-games", "2", "--workers", "1", "--out", str(out)])
    assert code == 0
    assert "report:" in capsys.readouterr().out
    traces = Store(out).load()
    assert {t.variant for t in traces} == {"size=2", "size=3"} and len(traces) == 10
    page = (out / "report.html").read_text()
    # Offline: no script or style is loaded from anywhere; plotly's own code is in the page.
    assert "<script src=" not in page and "<link" not in page
    assert "Plotly.newPlot" in page and len(page) > 1_000_000
    for name in ("AdvantageP1", "GameTreeComplexity", "SkillGap", "Win rate by seat", "Metrics against size"):
        assert name in page
    assert page.count("<svg") >= 2 and 'data-cell="a1"' in page  # a heat map on each variant's board
    assert "share of turns whose move touched the cell" in page


def test_heat_map_counts_the_cells_each_move_touches() -> None:
    from boardlab.playtest.report import heat_counts

    the_plan = Plan("ndengrod", dict(SMALL), {}, ("random",), 2)
    games = [play_traced(job) for job in the_plan.jobs()]
    heat, turns = heat_counts(the_plan, games)
    assert turns == sum(g.turns for g in games)
    assert sum(heat.values()) == pytest.approx(1.0)  # a placement touches exactly one cell
    first = games[0].plies[0]
    assert first.cells == [first.move] and first.move in heat


@pytest.mark.parametrize(("argv", "message"), [
    (["playtest", "ndengrod", "--sweep", "size"], "NAME=VALUE1,VALUE2"),
    (["playtest", "ndengrod", "--sweep", "size=99"], "size"),
    (["playtest", "ndengrod", "--agents", "level9"], "unknown agent"),
    (["playtest", "ndengrod", "--games", "0"], "--games 0"),
    (["playtest", "nosuchgame"], "nosuchgame"),
    (["tune", "ndengrod", "--space", "size=3..", "--target", "Drawishness<=0.1"], "LO..HI"),
    (["tune", "ndengrod", "--space", "size=3..4", "--target", "Fun<=1"], "unknown metric"),
])
def test_cli_explains_bad_input_in_one_line(argv: list[str], message: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_tune_finds_variants_and_each_reproduce_command_plays_them_again(tmp_path: Path) -> None:
    from boardlab.playtest.tune import parse_space, parse_targets, tune

    base = Plan("ndengrod", {"length": 3}, {}, ("random",), 4, seed=2)
    targets = parse_targets(["DurationTurns<=6", "AdvantageP1=0.5"])
    result = tune(base, parse_space(["size=2..3"]), targets, trials=3, folder=tmp_path / "tune", workers=1)
    assert result.best and len(result.best[0].misses) == 2
    order = [(not f.pareto, sum(f.misses)) for f in result.best]
    assert order == sorted(order) and result.best[0].pareto
    for f in result.best:  # a variant on the front is beaten on every target by no other
        if f.pareto:
            assert not any(all(a < b for a, b in zip(g.misses, f.misses, strict=True)) for g in result.best)
    best = result.best[0]
    for target, miss in zip(targets, best.misses, strict=True):
        assert miss == pytest.approx(target.miss(best.measured[target.metric].value))
    argv = best.command.split()[1:]
    argv[argv.index("--out") + 1] = str(tmp_path / "again")
    assert main([*argv, "--workers", "1"]) == 0
    again = [t for t in Store(tmp_path / "again").load() if t.kind == "self"]
    assert sum(t.turns for t in again) / len(again) == pytest.approx(best.measured["DurationTurns"].value)
    assert "reproduce: boardlab playtest ndengrod -o length=3 -o size=" in result.summary()


def test_tune_checks_each_trials_options_not_the_base_alone(tmp_path: Path) -> None:
    from boardlab.playtest.tune import MISSING, parse_space, parse_targets, tune

    base = Plan("ndengrod", {"size": 2, "length": 5}, {}, ("random",), 2, seed=2)  # lines of 5 need side 3
    result = tune(base, parse_space(["size=3..4"]), parse_targets(["DurationTurns<=100"]), trials=2,
                  folder=tmp_path, workers=1)
    assert result.best and all(f.misses[0] < MISSING and f.options["size"] in (3, 4) for f in result.best)


def test_tune_replays_its_best_on_unseen_seeds_with_a_stronger_agent(tmp_path: Path) -> None:
    from boardlab.playtest.tune import HOLDOUT_SEED_OFFSET, parse_space, parse_targets, tune

    base = Plan("ndengrod", {"length": 3}, {}, ("random",), 4, seed=2)
    targets = parse_targets(["DurationTurns<=6", "AdvantageP1>=0.4"])
    result = tune(base, parse_space(["size=2..3"]), targets, trials=2, folder=tmp_path, workers=1, top=2,
                  holdout_games=3, holdout_agents=("uct:iterations=50",))
    assert result.best
    for found in result.best:
        assert found.holdout is not None and len(found.verdicts) == 2
        held = [t for t in Store(tmp_path / f"holdout-{found.number:03d}").load() if t.kind == "self"]
        assert sorted(t.seed for t in held) == [2 + HOLDOUT_SEED_OFFSET + i for i in range(3)]  # unseen seeds
        assert all(t.agents == ["uct:iterations=50"] * 2 for t in held)
        assert found.verdicts == [t.judge(found.holdout[t.metric]) for t in targets]
        met = [v for v, miss in zip(found.verdicts, found.misses, strict=True) if miss == 0]
        assert found.survives == (("fails" not in met) if met else None)
        turns = sum(t.turns for t in held) / len(held)
        assert found.holdout["DurationTurns"].value == pytest.approx(turns)
    text = result.summary()
    assert "held out:" in text and "survive" in text and "uct:iterations=50" in text
    assert not re.search(r"\d e-?\d|\de-\d", text)  # numbers to their precision, never 1.11e-16


def _free_ports(count: int) -> list[int]:
    import socket

    sockets, ports = [], []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
        ports.append(s.getsockname()[1])
    for s in sockets:
        s.close()
    return ports


def test_a_real_ray_cluster_with_token_authentication(tmp_path: Path) -> None:
    """A head started by ``ray start --head`` on loopback, with Ray's token authentication on (the head's
    token in RAY_AUTH_TOKEN, as Ray's docs say); boardlab's driver, given the token and nothing else, turns
    token mode on and plays the same games as here. The head is stopped by its own process group."""
    pytest.importorskip("ray")
    import os
    import secrets
    import signal
    import socket
    import subprocess
    import sys
    import tempfile
    import time

    ray = Path(sys.executable).with_name("ray")
    token = secrets.token_hex(32)
    home = tmp_path / "home"  # no ~/.ray/auth_token of the machine is read or written
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token,
           "RAY_USAGE_STATS_ENABLED": "0"}
    gcs, node, objects, dash, agent, agent_grpc, runtime, metrics_port, low = _free_ports(9)
    temp = Path(tempfile.mkdtemp(prefix="rl", dir="/tmp"))  # short: Ray's socket paths must fit 107 bytes
    log = (tmp_path / "head.log").open("w")
    head = subprocess.Popen(
        [str(ray), "start", "--head", "--block", "--node-ip-address", "127.0.0.1", "--port", str(gcs),
         "--num-cpus", "2", "--include-dashboard=false", "--dashboard-port", str(dash),
         "--node-manager-port", str(node), "--object-manager-port", str(objects),
         "--dashboard-agent-listen-port", str(agent),
         "--dashboard-agent-grpc-port", str(agent_grpc), "--runtime-env-agent-port", str(runtime),
         "--metrics-export-port", str(metrics_port), "--min-worker-port", str(low), "--max-worker-port",
         str(low + 40), "--temp-dir", str(temp), "--disable-usage-stats"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", gcs)) == 0:
                    break
            assert head.poll() is None and time.monotonic() < deadline, (tmp_path / "head.log").read_text()[-2000:]
            time.sleep(0.5)
        driver_env = {k: v for k, v in env.items() if k != "RAY_AUTH_MODE"}  # only the token, as a user has it
        out = tmp_path / "lab"
        argv = [sys.executable, "-m", "boardlab", "playtest", "ndengrod", "-o", "size=3", "-o", "length=3",
                "--agents", "random", "--games", "3", "--skill-gap", "off", "--ray", f"127.0.0.1:{gcs}",
                "--out", str(out)]
        done = subprocess.run(argv, env=driver_env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-3000:]
        on_cluster = Store(out).load()
        here = run_plan(Plan("ndengrod", {"size": 3, "length": 3}, {}, ("random",), 3), tmp_path / "here", workers=1)
        assert len(on_cluster) == 3 and fingerprint(on_cluster) == fingerprint(here)
    finally:
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):  # then whatever of the group is left
            try:
                os.killpg(head.pid, sig)
                head.wait(timeout=wait)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        log.close()
        subprocess.run(["rm", "-rf", str(temp)], check=False)


def test_the_plan_records_the_settings_the_game_is_played_with(tmp_path: Path) -> None:
    # Levels 2-5 search with each game's enhancements (their packages' tuned_search); the plan (and so the report and a
    # resume's check) shows them. Plans written before showed the untuned levels, and still resume.
    levelled = Plan("ndengrod", dict(SMALL), {}, ("level2",), 1, seed=11)
    settings = levelled.agent_settings()["level2"]
    assert "amaf=grave" in settings and "exploration=0.0" in settings
    assert make_agent("level2").describe(registry.load("ndengrod", **SMALL)) == settings
    run_plan(levelled, tmp_path, workers=1)
    stored = json.loads((tmp_path / "plan.json").read_text())
    assert stored["agent_settings"] == levelled.agent_settings()
    stored["agent_settings"] = levelled.untuned_agent_settings()  # as written before 27 November 2026
    (tmp_path / "plan.json").write_text(json.dumps(stored))
    assert len(run_plan(levelled, tmp_path, workers=1, resume=True)) == 1
    stored["agent_settings"] = {"level2": "iterations=7"}  # anything else is still refused
    (tmp_path / "plan.json").write_text(json.dumps(stored))
    with pytest.raises(boardlab.BoardlabError, match=r"other settings \(agent_settings\)"):
        run_plan(levelled, tmp_path, workers=1, resume=True)


def _processes_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` (Linux's /proc)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdecimal():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields_after_name = stat.rpartition(")")[2].split()
            if int(fields_after_name[2]) == group and fields_after_name[0] != "Z":
                members.append(int(entry.name))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process groups from Linux's /proc")
@pytest.mark.parametrize("command", ["playtest", "match"])
def test_sigterm_stops_a_run_and_its_worker_processes(command: str, tmp_path: Path) -> None:
    # SIGTERM (kill, timeout) reaches only the run's own process. Its workers, each in a game of a minute or
    # more, must stop too, and the run must say so and exit as a terminated program does (143).
    import os
    import signal
    import subprocess
    import sys
    import time

    slow = "uct:iterations=1000000"
    common = ["-o", "size=4", "-o", "length=4", "--workers", "2"]
    if command == "playtest":
        argv = ["playtest", "ndengrod", *common, "--agents", slow, "--games", "6", "--skill-gap", "off",
                "--out", str(tmp_path / "lab")]
    else:
        argv = ["match", "ndengrod", slow, slow, *common, "--games", "4", "--save", str(tmp_path / "match")]
    run = subprocess.Popen([sys.executable, "-m", "boardlab", *argv], start_new_session=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(_processes_in_group(run.pid)) < 3:  # the run, and its workers (a pool's fork server too)
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.2)
        time.sleep(3)  # the workers are in their games
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=30)
        assert run.returncode == 143 and "terminated" in err, err[-2000:]
        deadline = time.monotonic() + 10
        while _processes_in_group(run.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _processes_in_group(run.pid) == []
    finally:
        for pid in _processes_in_group(run.pid):
            os.kill(pid, signal.SIGKILL)
