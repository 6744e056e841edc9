"""The playtest report: one self-contained HTML file (plotly's script inline; it opens offline).

Sections, in order: what the run found, in plain words (per strength and variant: who wins how often,
how long, how decisive, with intervals; the skill chain; conclusions that change with strength); how
it was made (boardlab's version and commit, every agent's full settings, the fixed evaluator, seeds,
the command); the main metrics per strength; paired comparisons of variants; results by seat; every
metric (folded); charts (win rates, lengths, the fixed evaluator's trajectories, each metric against
each swept option); where moves are made on the board.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from boardlab.core.registry import load
from boardlab.playtest import compare, evaluator, metrics, summary
from boardlab.playtest.run import Plan
from boardlab.playtest.stats import Estimate, number
from boardlab.playtest.trace import GameTrace

# The measures drawn against each swept option (all are in the tables).
SWEEP_PLOTS = ("AdvantageP1", "Balance", "Drawishness", "DurationTurns", "DecisivenessMoves", "FirstContact")
TRAJECTORY_GAMES = 12

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: 0.3em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.6em 0 1em; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; white-space: nowrap; }
.wide { overflow-x: auto; max-width: 100%; }
th { background: #f3f3f3; } td.name { text-align: left; font-weight: 600; }
td.help, td.text { text-align: left; color: #555; font-size: 0.9em; white-space: normal; }
td.help { min-width: 17em; }
code, pre { background: #f6f6f6; padding: 2px 4px; } pre { padding: 8px; white-space: pre-wrap; }
.note { color: #555; font-size: 0.9em; } .summary li { margin: 0.3em 0; }
.flags { background: #fff6e0; border: 1px solid #e8c76a; padding: 0.5em 1em; }
.differs { background: #e6f2ff; } .equivalent { background: #eaf7ea; }
th[colspan] { text-align: center; }
.heat { display: flex; flex-wrap: wrap; gap: 1em; } figure { margin: 0; } figcaption { font-weight: 600; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def write_report(plan: Plan, traces: Sequence[GameTrace], path: str | Path, command: str = "",
                 folder: str | Path | None = None) -> Path:
    """Write the report for ``traces`` of ``plan`` to ``path``; return the path.

    ``folder``: the run's folder, whose ``plan.json`` lists the sittings that played it (version, commit).
    """
    found = summary.summarise(plan, traces)
    sittings = _sittings(folder)
    figures = [_seat_figure(found), _length_figure(found), _trajectory_figure(found)]
    figures += _sweep_figures(found)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Playtest: {_e(plan.game)}</title>",
             f"<style>{STYLE}</style></head><body>", f"<h1>Playtest: {_e(load(plan.game).name)}</h1>"]
    parts.append(_summary_section(found))
    parts.append(_run_section(plan, traces, command, sittings))
    parts.append(_chain_section(found))
    parts.append(_metrics_section(found))
    parts.append(_comparison_section(found))
    parts.append("<h2>Results by seat</h2>" + _seat_table(found))
    parts.append(_all_metrics_section(found))
    first = True
    for title, figure in figures:
        if figure is None:
            continue
        parts.append(f"<h2>{_e(title)}</h2>")
        parts.append(figure.to_html(full_html=False, include_plotlyjs=first, config={"displaylogo": False}))
        first = False
    parts.append("<h2>Where moves are made</h2>" + _heat_section(plan, found))
    parts.append("</body></html>")
    out = Path(path)
    out.write_text("\n".join(parts), encoding="utf-8")
    return out


def _sittings(folder: str | Path | None) -> list[dict[str, Any]]:
    if folder is None or not (Path(folder) / "plan.json").exists():
        return []
    return list(json.loads((Path(folder) / "plan.json").read_text()).get("provenance", []))


# -- the plain-words summary ---------------------------------------------------------------------------


def _summary_section(found: summary.Summary) -> str:
    parts = ["<h2>What this run found</h2><div class='summary'>"]
    if found.flags:
        parts.append("<div class='flags'><strong>Flagged:</strong><ul>"
                     + "".join(f"<li>{_e(flag)}</li>" for flag in found.flags) + "</ul></div>")
    for rung, strength in enumerate(found.strengths):
        cells = [c for c in found.cells if c.rung == rung]
        games = max((len(c.games) for c in cells), default=0)
        parts.append(f"<h3>With {_e(strength)} in every seat ({games} games a variant)</h3><ul>")
        parts += [f"<li>{_e(summary.describe_cell(c))}</li>" for c in cells]
        parts.append("</ul>")
    if found.links:
        parts.append("<h3>Skill chain</h3><ul>")
        parts += [f"<li>{_e(summary.describe_link(link))}</li>" for link in found.links]
        parts.append("</ul>")
    parts.append("<p class='note'>Percentages with their 95% interval (Wilson's). “Clearly ahead” and “the lead "
                 "changed” come from the fixed evaluator below, which scores every position for every seat; "
                 "“favoured”: a seat whose points (win 1, draw ½) have an interval above its fair share.</p>")
    parts.append("</div>")
    return "".join(parts)


def _run_section(plan: Plan, traces: Sequence[GameTrace], command: str, sittings: list[dict[str, Any]]) -> str:
    game = load(plan.game, **plan.variants()[0][1])
    judge = evaluator.make_evaluator(plan.evaluator_spec(), game)
    selfplay = sum(t.kind == "self" for t in traces)
    budget = f"{number(plan.seconds)} s a move" if plan.seconds else "the agents' own budgets (iterations unless timed)"
    rows = [
        ("game", f"{game.name} (<code>{_e(plan.game)}</code>), rules version {_e(game.rules_version)}"),
        ("base options", f"<code>{_e(_options_text(plan.options))}</code>" if plan.options else "the defaults"),
        ("variants", ", ".join(f"<code>{_e(label)}</code>" for label, _ in plan.variants())),
        ("strengths (self-play)", ", ".join(f"<code>{_e(s)}</code>" for s in
                                            (plan.rung_label(r) for r in range(len(plan.rungs()))))),
        ("self-play games", f"{plan.games} per variant and strength, seeds {plan.seed}…{plan.seed + plan.games - 1} "
                            f"(the same for every variant); {selfplay} stored"),
        ("budget", budget),
    ]
    if plan.chain():
        rows.append(("skill games", f"{plan.skill_games} per variant and pair, seats alternating; pairs: "
                     + ", ".join(f"<code>{_e(s)}</code> against <code>{_e(w)}</code>" for _, s, w in plan.chain())))
    if plan.stop_on:
        rows.append(("sequential stopping", f"on <code>{_e(plan.stop_on)}</code>, batches of {plan.batch}, "
                     f"margin {number(plan.margin) if plan.margin else 'the default'}"))
    rows.append(("fixed evaluator", f"<code>{_e(judge.spec)}</code>: {_e(judge.describe())}"))
    rows.append(("turn cap", f"{plan.max_turns} turns (a game stopped there is a timeout)"))
    for spec, settings in plan.agent_settings().items():
        rows.append((f"agent <code>{_e(spec)}</code>", f"<code>{_e(settings.replace(',', ', '))}</code>"))
    for i, sitting in enumerate(sittings or [{}]):
        which = f" (sitting {i + 1})" if len(sittings) > 1 else ""
        rows.append((f"played by{which}", f"boardlab {_e(sitting.get('boardlab', '?'))}, commit "
                     f"<code>{_e(sitting.get('commit', '?'))}</code>, started {_e(sitting.get('started', '?'))}"))
    if command:
        rows.append(("reproduce", f"<code>{_e(command)}</code>"))
    table = "".join(f"<tr><td class='name'>{name}</td><td class='text'>{value}</td></tr>" for name, value in rows)
    return ("<h2>How it was made</h2><table>" + table + "</table><p class='note'>Rates carry Wilson's 95% interval; "
            "means and other statistics a 95% percentile bootstrap over games (seeded). Metric names and definitions "
            "are Ludii's (<code>boardlab.playtest.metrics</code> gives each, with the Ludii source file and where "
            "ours differ). Estimate-based metrics (LeadChange, Stability, Drama, Decisiveness, "
            "StateEvaluationDifference, Clarity) come from the fixed evaluator, never from the playing agents.</p>")


def _options_text(options: dict[str, Any]) -> str:
    return " ".join(f"-o {k}={v}" for k, v in options.items())


def _cell(estimate: Estimate) -> str:
    return _e(estimate.text())


def _chain_section(found: summary.Summary) -> str:
    if not found.links:
        return ""
    labels = [label for label, _ in found.plan.variants()]
    links = sorted({(link.link, link.strong, link.weak) for link in found.links})
    head = "".join(f"<th>{_e(s)} against {_e(w)}</th>" for _, s, w in links)
    rows = [f"<table><tr><th>variant</th>{head}</tr>"]
    for label in labels:
        cells = []
        for link, _, _ in links:
            match = next(x for x in found.links if x.link == link and x.label == label)
            cells.append(f"<td>{_cell(match.score)} <span class='note'>({match.games})</span></td>")
        rows.append(f"<tr><td class='name'>{_e(label)}</td>{''.join(cells)}</tr>")
    rows.append("</table>")
    return ("<h2>Skill chain (SkillGap)</h2><p class='note'>Each stronger agent's score (win 1, draw ½) against "
            "the one below it, in each variant, seats alternating, with Wilson's 95% interval (games in brackets). "
            "Near 1: more skill pays in this variant; near ½: it does not (a shallow or drawish variant, or "
            "agents too close).</p>" + "".join(rows))


def _metric_table(found: summary.Summary, names: Sequence[str], helps: bool = True) -> str:
    """One table: a row per metric, a column per variant, the strengths side by side (weakest first)."""
    described = {m.name: m.help for m in metrics.METRICS}
    cells = sorted(found.cells, key=lambda c: c.rung)
    several = len(found.strengths) > 1
    meaning = "<th rowspan='2'>meaning</th>" if helps else ""
    blank = "<td></td>" if helps else ""
    if several:
        per = len(cells) // len(found.strengths)
        tops = "".join(f"<th colspan='{per}'>{_e(s)}</th>" for s in found.strengths)
        head = (f"<tr><th rowspan='2'>metric</th>{meaning}{tops}</tr><tr>"
                + "".join(f"<th>{_e(c.label)}</th>" for c in cells) + "</tr>")
    else:
        head = (f"<tr><th>metric</th>{'<th>meaning</th>' if helps else ''}"
                + "".join(f"<th>{_e(c.label)}</th>" for c in cells) + "</tr>")
    rows = [f"<div class='wide'><table>{head}"]
    for name in names:
        values = "".join(f"<td>{_cell(c.measured[name])}</td>" for c in cells)
        help_cell = f"<td class='help'>{_e(described.get(name, ''))}</td>" if helps else ""
        rows.append(f"<tr><td class='name'>{_e(name)}</td>{help_cell}{values}</tr>")
    counts = "".join(f"<td>{len(c.games)}</td>" for c in cells)
    rows.append(f"<tr><td class='name'>games</td>{blank}{counts}</tr>")
    ends = "".join("<td>" + _e(", ".join(f"{r}: {n}" for r, n in Counter(g.end_reason for g in c.games)
                                        .most_common())) + "</td>" for c in cells)
    rows.append(f"<tr><td class='name'>endings</td>{blank}{ends}</tr>")
    rows.append("</table></div>")
    return "\n".join(rows)


def _metrics_section(found: summary.Summary) -> str:
    return ("<h2>Metrics by strength and variant</h2>"
            "<p class='note'>The main metrics; every metric is in the folded table further down.</p>"
            + _metric_table(found, metrics.MAIN))


def _all_metrics_section(found: summary.Summary) -> str:
    names = [m.name for m in metrics.METRICS if not m.name.startswith("WinsSeat")]
    return ("<h2>Every metric</h2><details><summary>All "
            f"{len(names)} metrics (Ludii's multi-metrics with their eleven aggregates each)</summary>"
            + _metric_table(found, names) + "</details>")


def _comparison_section(found: summary.Summary) -> str:
    if not found.pairs:
        return ("<h2>Comparisons</h2><p class='note'>Paired comparisons need variants that differ in one swept "
                "option.</p>")
    rows = ["<div class='wide'><table><tr><th>strength</th><th>metric</th><th>A</th><th>B</th><th>pairs</th>"
            "<th>B − A [95%]</th><th>margin</th><th>TOST p</th><th>verdict</th></tr>"]
    for p in found.pairs:
        c = p.result
        diff = "–" if c.difference is None else (
            f"{number(c.difference)} [{number(c.low) if c.low is not None else '–'}, "
            f"{number(c.high) if c.high is not None else '–'}]")
        tost = "–" if c.p_equivalence is None else number(c.p_equivalence, 2)
        verdict = {"differs": "differ", "equivalent": f"equivalent within ±{number(c.margin, 2)}",
                   "undecided": "undecided", "too few pairs": f"too few pairs (< {compare.MIN_PAIRS})"}
        rows.append(f"<tr class='{_e(c.verdict)}'><td>{_e(p.strength)}</td><td class='name'>{_e(p.metric)}</td>"
                    f"<td>{_e(p.a)}</td><td>{_e(p.b)}</td><td>{c.n}</td><td>{_e(diff)}</td>"
                    f"<td>{_e(number(c.margin, 2))}</td><td>{_e(tost)}</td><td>{_e(verdict[c.verdict])}</td></tr>")
    rows.append("</table></div>")
    return ("<h2>Comparisons of variants (paired on the shared seeds)</h2><p class='note'>Variants that differ "
            "in one option, compared game by game on the seeds they share: B − A with Student's t 95% interval. "
            "<em>Differ</em>: the interval excludes 0. <em>Equivalent</em>: two one-sided tests (TOST) at 5% say the "
            "difference lies within ±margin (what a claim of “no effect” needs); an interval that merely "
            "contains 0 decides nothing.</p>" + "".join(rows))


def _seat_table(found: summary.Summary) -> str:
    rows = ["<table><tr><th>strength</th><th>variant</th><th>seat</th><th>wins</th>"
            "<th>points (win 1, draw ½)</th></tr>"]
    for c in found.cells:
        for seat, result in enumerate(c.seats):
            rows.append(f"<tr><td>{_e(c.strength)}</td><td class='name'>{_e(c.label)}</td><td>{seat}</td>"
                        f"<td>{_cell(result['wins'])}</td><td>{_cell(c.seat_scores[seat])}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _column(c: summary.Cell, strengths: int) -> str:
    return c.label if strengths == 1 else f"{c.label} @ {c.strength}"


def _seat_figure(found: summary.Summary) -> tuple[str, go.Figure | None]:
    figure = go.Figure()
    seats = max((len(c.seats) for c in found.cells), default=0)
    n = len(found.strengths)
    for seat in range(seats):
        xs, ys, up, down = [], [], [], []
        for c in found.cells:
            if seat >= len(c.seats) or c.seats[seat]["wins"].value is None:
                continue
            wins = c.seats[seat]["wins"]
            assert wins.value is not None and wins.low is not None and wins.high is not None
            xs.append(_column(c, n))
            ys.append(wins.value)
            up.append(wins.high - wins.value)
            down.append(wins.value - wins.low)
        figure.add_bar(name=f"seat {seat}", x=xs, y=ys,
                       error_y={"type": "data", "array": up, "arrayminus": down, "visible": True})
    figure.update_layout(barmode="group", yaxis_title="win rate (95% Wilson interval)", yaxis_range=[0, 1],
                         height=380, margin={"t": 20})
    return "Win rate by seat", figure


def _length_figure(found: summary.Summary) -> tuple[str, go.Figure | None]:
    figure = go.Figure()
    n = len(found.strengths)
    for c in sorted(found.cells, key=lambda c: c.rung):
        figure.add_box(y=[g.turns for g in c.games], name=_column(c, n), boxpoints="all", jitter=0.4,
                       pointpos=0, showlegend=False)
    figure.update_layout(yaxis_title="turns per game", height=360, margin={"t": 20})
    return "Game length (each point a game)", figure


def _trajectory_figure(found: summary.Summary) -> tuple[str, go.Figure | None]:
    shown = [c for c in found.cells if any(metrics.evaluations(g) is not None for g in c.games)]
    if not shown:
        return "Win-chance trajectories (none: no position was evaluated)", None
    n = len(found.strengths)
    figure = make_subplots(rows=len(shown), cols=1, shared_xaxes=True,
                           subplot_titles=[_column(c, n) for c in shown], vertical_spacing=0.3 / len(shown))
    for row, c in enumerate(shown, start=1):
        for g in c.games[:TRAJECTORY_GAMES]:
            table = metrics.evaluations(g)
            if table is None:
                continue
            ys = [*table[:, 0].tolist(), g.final_evaluation[0]]
            colour = {0: "#2a7", None: "#999"}.get(g.winner, "#c33")
            figure.add_scatter(x=list(range(len(ys))), y=ys, mode="lines", line={"color": colour, "width": 1},
                               showlegend=False, row=row, col=1, hovertext=f"{g.key}: {g.result}")
        figure.update_yaxes(range=[0, 1], title_text="seat 0", row=row, col=1)
    figure.update_xaxes(title_text="turn (the last point: the end)", row=len(shown), col=1)
    figure.update_layout(height=200 * len(shown) + 80, margin={"t": 40})
    return (f"Win-chance trajectories: seat 0's chances by the fixed evaluator before each turn, first "
            f"{TRAJECTORY_GAMES} games (green: seat 0 won, red: lost, grey: no winner)", figure)


def _sweep_figures(found: summary.Summary) -> list[tuple[str, go.Figure | None]]:
    plan = found.plan
    out: list[tuple[str, go.Figure | None]] = []
    n = len(found.strengths)
    for option, values in plan.sweep.items():
        if len(values) < 2:
            continue
        others = [name for name in plan.sweep if name != option]
        figure = make_subplots(rows=1, cols=len(SWEEP_PLOTS), subplot_titles=SWEEP_PLOTS, horizontal_spacing=0.05)
        groups: dict[str, list[summary.Cell]] = {}
        for c in found.cells:
            group = ",".join(f"{name}={c.options[name]}" for name in others) or option
            if n > 1:
                group = f"{group} @ {c.strength}" if others else c.strength
            groups.setdefault(group, []).append(c)
        for col, name in enumerate(SWEEP_PLOTS, start=1):
            for group, items in groups.items():
                xs, ys, up, down = [], [], [], []
                for c in items:
                    e = c.measured[name]
                    if e.value is None:
                        continue
                    xs.append(str(c.options[option]))
                    ys.append(e.value)
                    up.append((e.high - e.value) if e.high is not None else 0)
                    down.append((e.value - e.low) if e.low is not None else 0)
                figure.add_scatter(x=xs, y=ys, name=group, legendgroup=group, showlegend=col == 1,
                                   mode="lines+markers", row=1, col=col,
                                   error_y={"type": "data", "array": up, "arrayminus": down, "visible": True})
            figure.update_xaxes(title_text=option, type="category", row=1, col=col)
        figure.update_layout(height=360, margin={"t": 40})
        out.append((f"Metrics against {option} (95% intervals)", figure))
    return out


def heat_counts(plan: Plan, games: Sequence[GameTrace]) -> tuple[dict[str, float], int]:
    """Per board cell, the share of turns whose move touched it (the start, the landing, a slide…)."""
    if not games:
        return {}, 0
    board = set(load(plan.game, **games[0].options).cell_names())
    counts: Counter[str] = Counter()
    turns = 0
    for game in games:
        for ply in game.plies:
            turns += 1
            counts.update({cell for cell in ply.cells if cell in board})
    return {cell: n / turns for cell, n in counts.items()}, turns


def _heat_section(plan: Plan, found: summary.Summary) -> str:
    """Each variant's start position drawn by the render layer, shaded by where moves were made."""
    from boardlab.render import Marks, board_svg

    pictures = []
    n = len(found.strengths)
    for c in found.cells:
        heat, turns = heat_counts(plan, c.games)
        if not heat:
            continue
        game = load(plan.game, **c.options)
        svg = board_svg(game.new_game().view(None), size=420,
                        marks=Marks(last=(), heat=heat, heat_title="share of turns whose move touched the cell"))
        pictures.append(f"<figure><figcaption>{_e(_column(c, n))}: {turns} turns of "
                        f"{len(c.games)} games</figcaption>{svg}</figure>")
    if not pictures:
        return "<p class='note'>No moves recorded cells on the board.</p>"
    return ("<p class='note'>The start position of each variant, each cell shaded by the share of turns "
            "whose move touched it (where a piece left, landed or was placed), over all self-play games.</p>"
            "<div class='heat'>" + "".join(pictures) + "</div>")


SUMMARY_METRICS = ("AdvantageP1", "Balance", "Drawishness", "Timeouts", "DurationTurns", "BranchingFactorAverage",
                   "FirstContact", "FirstCapture", "LeadChange", "DramaAverage", "DecisivenessMoves")


def markdown_summary(plan: Plan, traces: Sequence[GameTrace], names: Sequence[str] = SUMMARY_METRICS) -> str:
    """The main metrics per strength and variant as a Markdown table, the skill chain and the flags
    (for notes such as ``docs/findings``)."""
    found = summary.summarise(plan, traces)
    lines = ["| strength | variant | games | " + " | ".join(names) + " | seat wins |",
             "|---|---|---|" + "---|" * len(names) + "---|"]
    for c in found.cells:
        cells = " | ".join(c.measured[name].text(2) for name in names)
        seats = " / ".join(seat["wins"].text(2) for seat in c.seats)
        lines.append(f"| {c.strength} | {c.label} | {len(c.games)} | {cells} | {seats} |")
    if found.links:
        lines += ["", "| variant | pair | score | games |", "|---|---|---|---|"]
        lines += [f"| {link.label} | {link.strong} vs {link.weak} | {link.score.text(2)} | {link.games} |"
                  for link in found.links]
    if found.flags:
        lines += ["", *(f"- {flag}" for flag in found.flags)]
    return "\n".join(lines) + "\n"
