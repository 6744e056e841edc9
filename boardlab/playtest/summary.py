"""What a run says, in plain words: per strength and variant, who wins how often, how long games last,
how decisive they are; the skill chain; paired comparisons of variants; and the conclusions that change
with the agents' strength, flagged.

A claim about the rules should hold with a stronger agent. With a ladder of strengths (``--depth``) the
summary flags every conclusion that does not: a seat favoured at one strength and not at another (or
the other seat favoured), and a difference between two variants that is clear at one strength and goes
the other way at another. A run at one strength is flagged as such.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from boardlab.playtest import compare, metrics, stats
from boardlab.playtest.run import Plan
from boardlab.playtest.stats import Estimate, number
from boardlab.playtest.trace import GameTrace

# The metrics the paired comparisons and the flags look at (and --stop-on's, if set).
COMPARED = ("AdvantageP1", "Drawishness", "DurationTurns", "BranchingFactorAverage", "LeadChange", "DramaAverage",
            "DecisivenessMoves", "FirstContact")


@dataclass
class Cell:
    """The self-play games of one variant at one strength, and what they measure."""

    rung: int
    strength: str
    label: str
    options: dict[str, Any]
    games: list[GameTrace]
    measured: dict[str, Estimate]
    seats: list[dict[str, Estimate]]
    favoured: str  # "seat N", "none" (no seat's score interval leaves the fair share), or "" (no games)
    seat_scores: list[Estimate]


@dataclass
class Pair:
    """A paired comparison of two variants at one strength on one metric."""

    rung: int
    strength: str
    metric: str
    a: str
    b: str
    result: compare.Comparison


@dataclass
class Link:
    """One rung of the skill chain in one variant: the stronger agent's score against the weaker."""

    link: int
    label: str
    strong: str
    weak: str
    score: Estimate
    games: int


@dataclass
class Summary:
    plan: Plan
    cells: list[Cell]
    links: list[Link]
    pairs: list[Pair]
    flags: list[str] = field(default_factory=list)

    def cell(self, rung: int, label: str) -> Cell:
        return next(c for c in self.cells if c.rung == rung and c.label == label)

    @property
    def strengths(self) -> list[str]:
        return [self.plan.rung_label(r) for r in range(len(self.plan.rungs()))]


def seat_scores(games: Sequence[GameTrace]) -> list[Estimate]:
    """Each seat's points (1 win, ½ draw; a shared first place splits) as a rate with Wilson's interval."""
    if not games:
        return []
    out = []
    for seat in range(games[0].seats):
        points = 0.0
        for g in games:
            top = g.top_seats
            points += (1.0 / len(top)) if seat in top else 0.0
        out.append(stats.rate(points, len(games)))
    return out


def favoured(scores: Sequence[Estimate]) -> str:
    """``seat N`` if one seat's score interval lies above its fair share (1/seats), ``none`` otherwise."""
    if not scores:
        return ""
    fair = 1.0 / len(scores)
    above = [seat for seat, s in enumerate(scores) if s.low is not None and s.low > fair]
    return f"seat {above[0]}" if len(above) == 1 else "none"


def one_option_apart(plan: Plan) -> list[tuple[str, str]]:
    """Pairs of variants that differ in exactly one swept option: what changing that option does."""
    variants = plan.variants()
    out = []
    for (la, oa), (lb, ob) in itertools.combinations(variants, 2):
        if sum(oa[name] != ob[name] for name in plan.sweep) == 1:
            out.append((la, lb))
    return out


def summarise(plan: Plan, traces: Sequence[GameTrace], margin: float | None = None) -> Summary:
    """Everything the report's first sections say, computed once."""
    by_cell: dict[tuple[int, str], list[GameTrace]] = defaultdict(list)
    by_link: dict[tuple[int, str], list[GameTrace]] = defaultdict(list)
    for t in traces:
        (by_cell if t.kind == "self" else by_link)[(t.rung, t.variant)].append(t)
    cells = []
    for rung in range(len(plan.rungs())):
        for label, options in plan.variants():
            games = sorted(by_cell.get((rung, label), []), key=lambda g: g.seed)
            scores = seat_scores(games)
            cells.append(Cell(rung, plan.rung_label(rung), label, options, games,
                              metrics.measure(games, seed=plan.seed), metrics.seat_results(games),
                              favoured(scores), scores))
    links = []
    for link, strong, weak in plan.chain():
        for label, _ in plan.variants():
            games = by_link.get((link, label), [])
            links.append(Link(link, label, strong, weak, metrics.skill_gap(games), len(games)))
    compared = list(COMPARED)
    if plan.stop_on:
        name = metrics.canonical(plan.stop_on)
        if name not in compared:
            compared.insert(0, name)
    pairs = []
    margin = margin if margin is not None else plan.margin
    for rung in range(len(plan.rungs())):
        for a, b in one_option_apart(plan):
            ga, gb = _paired_games(by_cell.get((rung, a), []), by_cell.get((rung, b), []))
            for name in compared:
                va, vb = metrics.per_game_values(ga, name), metrics.per_game_values(gb, name)
                pooled = [v for v in (*va, *vb) if v is not None]
                m = margin or compare.default_margin(metrics.metric(name).unit,
                                                     sum(pooled) / len(pooled) if pooled else None)
                pairs.append(Pair(rung, plan.rung_label(rung), name, a, b, compare.paired(va, vb, m)))
    summary = Summary(plan, cells, links, pairs)
    summary.flags = flags(summary)
    return summary


def _paired_games(a: list[GameTrace], b: list[GameTrace]) -> tuple[list[GameTrace], list[GameTrace]]:
    seeds = sorted({g.seed for g in a} & {g.seed for g in b})
    by_a = {g.seed: g for g in a}
    by_b = {g.seed: g for g in b}
    return [by_a[s] for s in seeds], [by_b[s] for s in seeds]


def flags(summary: Summary) -> list[str]:
    """The conclusions that change with strength (and a warning where only one strength was played)."""
    plan = summary.plan
    out: list[str] = []
    strengths = summary.strengths
    if len(strengths) == 1:
        out.append(f"Measured with one strength only ({strengths[0]}): a conclusion about the rules should be "
                   "checked with a stronger agent (--depth level1,level2,level3) before it is written down.")
        return out
    for label, _ in plan.variants():
        verdicts: dict[str, list[Cell]] = {}
        for r in range(len(strengths)):
            cell = summary.cell(r, label)
            if cell.favoured:
                verdicts.setdefault(cell.favoured, []).append(cell)
        if len(verdicts) > 1:
            parts = [f"{'no seat' if f == 'none' else f} favoured at "
                     + ", ".join(f"{c.strength} (points {' / '.join(s.text(2) for s in c.seat_scores)})" for c in cells)
                     for f, cells in verdicts.items()]
            out.append(f"{label}: which seat is favoured changes with strength: " + "; ".join(parts) + ".")
    by_key: dict[tuple[str, str, str], list[Pair]] = defaultdict(list)
    for pair in summary.pairs:
        by_key[(pair.metric, pair.a, pair.b)].append(pair)
    for (name, a, b), pairs in by_key.items():
        clear = [p for p in pairs if p.result.verdict == "differs"]
        if not clear:
            continue
        for p in clear:
            assert p.result.difference is not None
            sign = p.result.difference > 0
            against = [q for q in pairs if q.result.difference is not None and q.rung != p.rung
                       and (q.result.difference > 0) != sign and q.result.difference != 0]
            if against:
                q = against[0]
                how = "reverses" if q.result.verdict == "differs" else "goes the other way"
                out.append(f"{name}: {b} − {a} is {_signed(p.result)} at {p.strength} but {how} at {q.strength} "
                           f"({_signed(q.result)}): the ranking of these variants depends on the agents.")
                break
    return out


def _signed(c: compare.Comparison) -> str:
    if c.difference is None:
        return "–"
    low = "–" if c.low is None else number(c.low, 2)
    high = "–" if c.high is None else number(c.high, 2)
    return f"{'+' if c.difference >= 0 else ''}{number(c.difference, 2)} [{low}, {high}]"


def _percent(e: Estimate) -> str:
    if e.value is None:
        return "–"
    if e.low is None or e.high is None:
        return f"{e.value * 100:.0f}%"
    return f"{e.value * 100:.0f}% ({e.low * 100:.0f}–{e.high * 100:.0f}%)"


def describe_cell(cell: Cell) -> str:
    """One variant at one strength, in a sentence or three."""
    games = cell.games
    if not games:
        return f"{cell.label}: no games."
    n = len(games)
    parts = []
    for seat, result in enumerate(cell.seats):
        wins = sum(g.winner == seat for g in games)
        parts.append(f"seat {seat} won {wins} of {n} ({_percent(result['wins'])})")
    endings: dict[str, int] = defaultdict(int)
    for g in games:
        endings[g.ending] += 1
    draws = sum(endings[e] for e in ("rule draw", "added-rule draw"))
    others = []
    if draws:
        others.append(f"{draws} drawn ({endings['rule draw']} by the seed's rules, "
                      f"{endings['added-rule draw']} at an added rule)")
    if endings["timeout"]:
        others.append(f"{endings['timeout']} stopped at --max-turns")
    if endings["shared"]:
        others.append(f"{endings['shared']} with a shared first place")
    text = f"{cell.label}: " + ", ".join(parts) + (("; " + ", ".join(others)) if others else "; no draws") + "."
    m = cell.measured
    text += f" Games lasted {m['DurationTurns'].text(2)} turns."
    if m["DecisivenessMoves"].value is not None:
        text += (f" The eventual winner was clearly ahead from {_percent(m['DecisivenessMoves'])} of the way in "
                 f"(DecisivenessMoves), and the lead changed after {_percent(m['LeadChange'])} of turns "
                 "(by the fixed evaluator).")
    verdict = "No seat is clearly favoured" if cell.favoured == "none" else f"{cell.favoured.capitalize()} is favoured"
    text += f" {verdict}"
    text += f" (points: {', '.join(s.text(2) for s in cell.seat_scores)})."
    return text


def describe_link(link: Link) -> str:
    return (f"{link.label}: {link.strong} scored {_percent(link.score)} against {link.weak} "
            f"over {link.games} games, seats alternating.")
