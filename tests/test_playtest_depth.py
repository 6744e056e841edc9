"""Skill depth, paired comparisons, sequential stopping, provenance and the plain-words report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from boardlab.cli.main import main
from boardlab.playtest import compare, summary
from boardlab.playtest.report import write_report
from boardlab.playtest.run import Plan, run_plan
from boardlab.playtest.store import Store
from boardlab.playtest.trace import GameTrace, PlyTrace

SMALL = {"size": 3, "length": 3}


def trace(variant: str, rung: int, seed: int, result: list[float], turns: int, strength: str) -> GameTrace:
    plies = [PlyTrace(t, t % 2, 5, [5], "m", None, [0.5, 0.5], [], 0, [0, 0], [], [], [], [], "p", 0.0)
             for t in range(turns)]
    ending = "win" if result[0] != result[1] else "rule draw"
    return GameTrace(f"{variant}-{rung}-{seed}", variant, "ndengrod", {}, "self", ["a", "a"], -1, seed, 2, result,
                     "line", ending, turns, turns, 0, 0, 0, None, "s", None, None, "e", strength, rung, result, 0.0,
                     0.0, "", plies)


def test_paired_comparison_intervals_and_tost_by_hand() -> None:
    # Differences 1 0 0 0 0 1, three times: mean 1/3, sd .485, t(17) 2.110 → ±.241
    c = compare.paired([0.0, 1.0, 0.0, 1.0, 1.0, 0.0] * 3, [1.0, 1.0, 0.0, 1.0, 1.0, 1.0] * 3, margin=0.1)
    assert c.n == 18 and c.difference == pytest.approx(1 / 3)
    half = 2.1098 * np.std([1, 0, 0, 0, 0, 1] * 3, ddof=1) / np.sqrt(18)
    assert (c.low, c.high) == pytest.approx((1 / 3 - half, 1 / 3 + half), abs=1e-3)
    assert c.verdict == "differs"
    # Small scattered differences inside ±.1: equivalent; the same scatter about .08 with a margin of .1: undecided.
    near = [0.02, -0.03, 0.01, 0.0, -0.01, 0.03, -0.02, 0.01, 0.0, 0.02] * 2
    assert compare.paired([0.0] * 20, near, margin=0.1).verdict == "equivalent"
    assert compare.paired([0.0] * 20, [d + 0.08 for d in near], margin=0.1).verdict == "differs"
    noisy = [0.5, -0.5, 0.4, -0.3, 0.2, -0.4, 0.1, 0.3, -0.2, -0.1]
    verdict = compare.paired([0.0] * 10, noisy, margin=0.1)
    assert verdict.verdict == "undecided" and verdict.p_equivalence is not None and verdict.p_equivalence > 0.05
    assert compare.paired([1.0] * 5, [0.0] * 5, margin=0.1).verdict == "too few pairs"
    assert compare.paired([1.0, None, 0.0], [None, 1.0, 1.0], margin=0.1).n == 1  # pairs need both values


def test_a_seat_favoured_at_one_strength_and_a_ranking_that_flips_are_flagged() -> None:
    plan = Plan("ndengrod", dict(SMALL), {"size": ["3", "4"]}, ("level1",), 12, depth=("level1", "level2"))
    traces = []
    for i in range(12):
        seed = 1 + i
        # level1: seat 0 always wins and size=4 games are 5 turns longer; level2: seat 1 wins, size=4 shorter.
        traces += [trace("size=3", 0, seed, [1.0, 0.0], 10 + i % 3, "level1"),
                   trace("size=4", 0, seed, [1.0, 0.0], 15 + i % 3, "level1"),
                   trace("size=3", 1, seed, [0.0, 1.0], 20 + i % 2, "level2"),
                   trace("size=4", 1, seed, [0.0, 1.0], 14 + i % 2, "level2")]
    found = summary.summarise(plan, traces)
    assert found.cell(0, "size=3").favoured == "seat 0" and found.cell(1, "size=3").favoured == "seat 1"
    text = "\n".join(found.flags)
    assert "size=3: which seat is favoured changes with strength" in text
    assert re.search(r"DurationTurns: size=4 − size=3 is \+5 \[.*\] at level1 but reverses at level2", text)
    duration = [p for p in found.pairs if p.metric == "DurationTurns"]
    assert [p.result.verdict for p in duration] == ["differs", "differs"]
    assert duration[0].result.difference == pytest.approx(5.0) and duration[1].result.difference < 0


def test_one_strength_is_flagged_as_one_strength() -> None:
    plan = Plan("ndengrod", dict(SMALL), {}, ("level1",), 2)
    found = summary.summarise(plan, [trace("base", 0, 1, [1.0, 0.0], 5, "level1")])
    assert found.flags and "one strength only" in found.flags[0]


def test_a_skill_depth_run_plays_every_strength_and_the_chain(tmp_path: Path) -> None:
    ladder = ("random", "uct:iterations=200")
    plan = Plan("ndengrod", {"length": 3}, {"size": ["2", "3"]}, ("random",), 3, seed=5, depth=ladder, skill_games=2)
    traces = run_plan(plan, tmp_path, workers=1)
    selfplay = [t for t in traces if t.kind == "self"]
    assert sorted({(t.variant, t.strength) for t in selfplay}) == [
        ("size=2", "random"), ("size=2", "uct:iterations=200"), ("size=3", "random"), ("size=3", "uct:iterations=200")]
    assert all(t.agents == [t.strength, t.strength] for t in selfplay)
    skill = [t for t in traces if t.kind == "skill"]
    assert len(skill) == 4 and {t.strength for t in skill} == {"uct:iterations=200>random"}
    assert sorted(t.agents[t.strong_seat] for t in skill) == ["uct:iterations=200"] * 4
    found = summary.summarise(plan, traces)
    assert len(found.links) == 2 and all(link.games == 2 for link in found.links)
    page = write_report(plan, traces, tmp_path / "report.html", folder=tmp_path).read_text()
    assert "<th colspan='2'>random</th>" in page and "<th colspan='2'>uct:iterations=200</th>" in page
    assert "Skill chain (SkillGap)" in page and "uct:iterations=200 against random" in page


def test_the_plan_records_version_commit_agents_and_evaluator_and_the_report_shows_them(tmp_path: Path) -> None:
    plan = Plan("ndengrod", dict(SMALL), {}, ("level1",), 1)
    traces = run_plan(plan, tmp_path, workers=1)
    stored = json.loads((tmp_path / "plan.json").read_text())
    sitting = stored["provenance"][0]
    assert sitting["boardlab"] == "0.1.0" and re.fullmatch(r"[0-9a-f]{40}(\+changes)?", sitting["commit"])
    assert stored["evaluator"] == "playouts:n=400,move_n=40,seed=0"
    assert "iterations=100" in stored["agent_settings"]["level1"]
    run_plan(plan, tmp_path, workers=1, resume=True)  # a second sitting is recorded, not refused
    assert len(json.loads((tmp_path / "plan.json").read_text())["provenance"]) == 2
    page = write_report(plan, traces, tmp_path / "report.html", folder=tmp_path).read_text()
    assert sitting["commit"] in page and "playouts:n=400,move_n=40,seed=0" in page
    assert "iterations=100, seconds=None" in page and "What this run found" in page
    assert "e-1" not in page.split("<script")[0]  # no number in exponent form before the charts


def test_sequential_stopping_stops_a_clear_difference_and_an_equivalence_early(tmp_path: Path) -> None:
    # Random players on side 4: lines of 3 come much sooner than lines of 4.
    differ = Plan("ndengrod", {"size": 4}, {"length": ["3", "4"]}, ("random",), 40, seed=3, stop_on="DurationTurns",
                  batch=10)
    traces = run_plan(differ, tmp_path / "differ", workers=1)
    assert sorted({t.seed for t in traces}) == list(range(3, 13))  # one batch of 10 decided it
    found = summary.summarise(differ, traces)
    pair = next(p for p in found.pairs if p.metric == "DurationTurns")
    assert pair.result.verdict == "differs"
    # Two ply caps no game reaches play the same games: equivalent within any margin after one batch.
    same = Plan("ndengrod", dict(SMALL), {"ply_cap": ["200", "201"]}, ("random",), 30, seed=3,
                stop_on="DurationTurns", margin=0.5, batch=10)
    traces = run_plan(same, tmp_path / "same", workers=1)
    assert len(traces) == 20
    assert next(p for p in summary.summarise(same, traces).pairs
                if p.metric == "DurationTurns").result.verdict == "equivalent"


def test_sequential_stopping_plays_on_while_undecided_and_resumes_alike(tmp_path: Path) -> None:
    # Seat 0's wins on sides 4 and 5 (lines of 4) between random players: no clear difference in 10 pairs,
    # and a margin of .01 no 10 games can show: undecided, so every planned game is played.
    plan = Plan("ndengrod", {"length": 4}, {"size": ["4", "5"]}, ("random",), 20, seed=3, stop_on="AdvantageP1",
                margin=0.01, batch=10)
    traces = run_plan(plan, tmp_path, workers=1)
    assert len(traces) == 40
    first = summary.summarise(plan, [t for t in traces if t.seed < 13])
    assert next(p for p in first.pairs if p.metric == "AdvantageP1").result.verdict == "undecided"
    assert len(run_plan(plan, tmp_path, workers=1, resume=True)) == 40


def test_cli_depth_and_stop_on_reach_the_plan(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lab"
    assert main(["playtest", "ndengrod", "-o", "size=2", "-o", "length=3", "--depth", "random,level1", "--games", "2",
                 "--skill-games", "2", "--workers", "1", "--out", str(out)]) == 0
    stored = json.loads((out / "plan.json").read_text())
    assert stored["depth"] == ["random", "level1"] and stored["skill"] is None
    assert len(Store(out).load()) == 2 * 2 + 2
    assert "level1 against random" in (out / "report.html").read_text()
    summary_md = (out / "summary.md").read_text()
    assert "| level1 | base |" in summary_md and "level1 vs random" in summary_md
    for argv, message in ((["--depth", "level1"], "two agents or more"),
                          (["--depth", "level1,level2", "--agents", "level3"], "leave --agents out"),
                          (["--stop-on", "Fun"], "unknown metric"), (["--stop-on", "Balance"], "measured per game"),
                          (["--evaluator", "evaluation"], "has no evaluation of its own"),
                          (["--evaluator", "playouts:n=0"], "1 to 1000000")):
        assert main(["playtest", "ndengrod", *argv, "--out", str(tmp_path / "x")]) == 2
        assert message in capsys.readouterr().err
