"""The playtest report: one self-contained HTML file (plotly's script inline; it opens offline).

Sections: the run (game, agents, budget, the command that reproduces it), the metrics table per
variant with 95% intervals, results by seat, the skill gap, game lengths, win-estimate trajectories,
where moves are made on the board, and each metric against each swept option.
"""

from __future__ import annotations

import html
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from boardlab.core.registry import load
from boardlab.playtest import metrics
from boardlab.playtest.run import Plan
from boardlab.playtest.stats import Estimate
from boardlab.playtest.trace import GameTrace

# The measures drawn against each swept option (all are in the table).
SWEEP_PLOTS = ("AdvantageP1", "Balance", "Drawishness", "DurationTurns", "FirstContact", "SkillGap")
TRAJECTORY_GAMES = 12

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
h1 { font-size: 1.6em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 1em 0; }
th, td { border: 1px solid #ddd; padding: 3px 7px; text-align: right; white-space: nowrap; }
.wide { overflow-x: auto; max-width: 100%; }
th { background: #f3f3f3; } td.name { text-align: left; font-weight: 600; }
td.help { text-align: left; color: #666; font-size: 0.9em; }
code, pre { background: #f6f6f6; padding: 2px 4px; } pre { padding: 8px; white-space: pre-wrap; }
.note { color: #555; font-size: 0.9em; }
.heat { display: flex; flex-wrap: wrap; gap: 1em; } figure { margin: 0; } figcaption { font-weight: 600; }
"""


def variant_summaries(plan: Plan, traces: Sequence[GameTrace]) -> list[dict[str, Any]]:
    """Per variant: its label, options, self-play metrics, seat results and skill gap."""
    by_variant: dict[str, list[GameTrace]] = defaultdict(list)
    for trace in traces:
        by_variant[trace.variant].append(trace)
    out = []
    for label, options in plan.variants():
        games = by_variant.get(label, [])
        selfplay = [g for g in games if g.kind == "self"]
        measured = metrics.measure(selfplay, seed=plan.seed)
        measured["SkillGap"] = metrics.skill_gap(games)
        out.append({"label": label, "options": options, "games": selfplay, "metrics": measured,
                    "seats": metrics.seat_results(selfplay),
                    "end_reasons": Counter(g.end_reason for g in selfplay)})
    return out


def write_report(plan: Plan, traces: Sequence[GameTrace], path: str | Path, command: str = "") -> Path:
    """Write the report for ``traces`` of ``plan`` to ``path``; return the path."""
    summaries = variant_summaries(plan, traces)
    figures = [_seat_figure(summaries), _length_figure(summaries), _trajectory_figure(summaries)]
    figures += _sweep_figures(plan, summaries)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Playtest: {html.escape(plan.game)}</title>",
             f"<style>{STYLE}</style></head><body>", _header(plan, traces, command)]
    parts.append("<h2>Metrics by variant</h2>" + _metrics_table(summaries))
    parts.append("<h2>Results by seat</h2>" + _seat_table(summaries))
    first = True
    for title, figure in figures:
        if figure is None:
            continue
        parts.append(f"<h2>{html.escape(title)}</h2>")
        parts.append(figure.to_html(full_html=False, include_plotlyjs=first, config={"displaylogo": False}))
        first = False
    parts.append("<h2>Where moves are made</h2>" + _heat_section(plan, summaries))
    parts.append("</body></html>")
    out = Path(path)
    out.write_text("\n".join(parts), encoding="utf-8")
    return out


def _header(plan: Plan, traces: Sequence[GameTrace], command: str) -> str:
    selfplay = sum(t.kind == "self" for t in traces)
    skill = len(traces) - selfplay
    budget = f"{plan.seconds} s a move" if plan.seconds else "the agents' own budgets (iterations unless timed)"
    lines = [
        f"<h1>Playtest: {html.escape(plan.game)}</h1>",
        "<p>",
        f"Self-play agents by seat: <code>{html.escape(', '.join(plan.agents))}</code>; {budget}. ",
        f"{plan.games} self-play games per variant ({selfplay} stored)",
    ]
    if plan.skill:
        lines.append(f"; skill gap: <code>{html.escape(plan.skill[0])}</code> against "
                     f"<code>{html.escape(plan.skill[1])}</code>, {plan.skill_games} games per variant "
                     f"({skill} stored), seats alternating")
    lines.append(f". Self-play seeds {plan.seed}…{plan.seed + plan.games - 1}; turn cap {plan.max_turns}.</p>")
    if plan.options:
        lines.append(f"<p>Base options: <code>{html.escape(_options_text(plan.options))}</code></p>")
    if command:
        lines.append(f"<p>Reproduce: <code>{html.escape(command)}</code></p>")
    lines.append("<p class='note'>Rates carry Wilson's 95% interval; means and other statistics a 95% "
                 "percentile bootstrap over games (seeded). Metric names and definitions are Ludii's "
                 "(<code>boardlab.playtest.metrics</code> gives each formula and where ours differ). "
                 "Estimates are the playing agents' own; games with random agents have none.</p>")
    return "".join(lines)


def _options_text(options: dict[str, Any]) -> str:
    return " ".join(f"-o {k}={v}" for k, v in options.items())


def _cell(estimate: Estimate) -> str:
    return html.escape(estimate.text())


def _metrics_table(summaries: list[dict[str, Any]]) -> str:
    head = "".join(f"<th>{html.escape(s['label'])}</th>" for s in summaries)
    rows = [f"<div class='wide'><table><tr><th>metric</th><th>meaning</th>{head}</tr>"]
    names = [*metrics.NAMES, "SkillGap"]
    helps = {m.name: m.help for m in metrics.METRICS}
    helps["SkillGap"] = "stronger agent's score against the weaker"
    for name in names:
        cells = "".join(f"<td>{_cell(s['metrics'][name])}</td>" for s in summaries)
        rows.append(f"<tr><td class='name'>{name}</td><td class='help'>{html.escape(helps[name])}</td>{cells}</tr>")
    games = "".join(f"<td>{len(s['games'])}</td>" for s in summaries)
    rows.append(f"<tr><td class='name'>games</td><td class='help'>self-play games measured</td>{games}</tr>")
    ends = "".join("<td>" + html.escape(", ".join(f"{r}: {n}" for r, n in s["end_reasons"].most_common())) + "</td>"
                   for s in summaries)
    rows.append(f"<tr><td class='name'>endings</td><td class='help'>how the games ended</td>{ends}</tr>")
    rows.append("</table></div>")
    return "\n".join(rows)


def _seat_table(summaries: list[dict[str, Any]]) -> str:
    rows = ["<table><tr><th>variant</th><th>seat</th><th>wins</th><th>mean score (win 1, draw ½)</th></tr>"]
    for s in summaries:
        for seat, result in enumerate(s["seats"]):
            rows.append(f"<tr><td class='name'>{html.escape(s['label'])}</td><td>{seat}</td>"
                        f"<td>{_cell(result['wins'])}</td><td>{_cell(result['score'])}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _seat_figure(summaries: list[dict[str, Any]]) -> tuple[str, go.Figure | None]:
    figure = go.Figure()
    seats = max((len(s["seats"]) for s in summaries), default=0)
    for seat in range(seats):
        xs, ys, up, down = [], [], [], []
        for s in summaries:
            if seat >= len(s["seats"]):
                continue
            wins = s["seats"][seat]["wins"]
            if wins.value is None:
                continue
            xs.append(s["label"])
            ys.append(wins.value)
            up.append(wins.high - wins.value)
            down.append(wins.value - wins.low)
        figure.add_bar(name=f"seat {seat}", x=xs, y=ys,
                       error_y={"type": "data", "array": up, "arrayminus": down, "visible": True})
    figure.update_layout(barmode="group", yaxis_title="win rate (95% Wilson interval)", yaxis_range=[0, 1],
                         height=380, margin={"t": 20})
    return "Win rate by seat", figure


def _length_figure(summaries: list[dict[str, Any]]) -> tuple[str, go.Figure | None]:
    figure = go.Figure()
    for s in summaries:
        figure.add_histogram(x=[g.turns for g in s["games"]], name=s["label"], opacity=0.6)
    figure.update_layout(barmode="overlay", xaxis_title="turns", yaxis_title="games", height=360, margin={"t": 20})
    return "Game length", figure


def _trajectory_figure(summaries: list[dict[str, Any]]) -> tuple[str, go.Figure | None]:
    shown = [s for s in summaries if any(metrics.estimates(g) is not None for g in s["games"])]
    if not shown:
        return "Win-estimate trajectories (none: no agent estimated its chances)", None
    figure = make_subplots(rows=len(shown), cols=1, shared_xaxes=True,
                           subplot_titles=[s["label"] for s in shown], vertical_spacing=0.08)
    for row, s in enumerate(shown, start=1):
        for g in s["games"][:TRAJECTORY_GAMES]:
            table = metrics.estimates(g)
            if table is None:
                continue
            colour = {0: "#2a7", None: "#999"}.get(g.winner, "#c33")
            figure.add_scatter(x=list(range(len(table))), y=table[:, 0].tolist(), mode="lines",
                               line={"color": colour, "width": 1}, showlegend=False, row=row, col=1,
                               hovertext=f"{g.key}: {g.result}")
        figure.update_yaxes(range=[0, 1], title_text="seat 0", row=row, col=1)
    figure.update_xaxes(title_text="turn", row=len(shown), col=1)
    figure.update_layout(height=220 * len(shown) + 80, margin={"t": 40})
    return (f"Win-estimate trajectories: seat 0's estimated chances, first {TRAJECTORY_GAMES} games "
            "(green: seat 0 won, red: lost, grey: no winner)", figure)


def _sweep_figures(plan: Plan, summaries: list[dict[str, Any]]) -> list[tuple[str, go.Figure | None]]:
    out: list[tuple[str, go.Figure | None]] = []
    for option, values in plan.sweep.items():
        if len(values) < 2:
            continue
        others = [name for name in plan.sweep if name != option]
        figure = make_subplots(rows=1, cols=len(SWEEP_PLOTS), subplot_titles=SWEEP_PLOTS, horizontal_spacing=0.05)
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in summaries:
            groups[",".join(f"{n}={s['options'][n]}" for n in others) or option].append(s)
        for col, name in enumerate(SWEEP_PLOTS, start=1):
            for group, items in groups.items():
                xs, ys, up, down = [], [], [], []
                for s in items:
                    e = s["metrics"][name]
                    if e.value is None:
                        continue
                    xs.append(str(s["options"][option]))
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


def _heat_section(plan: Plan, summaries: list[dict[str, Any]]) -> str:
    """Each variant's start position drawn by the render layer, shaded by where moves were made."""
    from boardlab.render import Marks, board_svg

    pictures = []
    for s in summaries:
        heat, turns = heat_counts(plan, s["games"])
        if not heat:
            continue
        game = load(plan.game, **s["options"])
        svg = board_svg(game.new_game().view(None), size=420,
                        marks=Marks(last=(), heat=heat, heat_title="share of turns whose move touched the cell"))
        pictures.append(f"<figure><figcaption>{html.escape(s['label'])}: {turns} turns of "
                        f"{len(s['games'])} games</figcaption>{svg}</figure>")
    if not pictures:
        return "<p class='note'>No moves recorded cells on the board.</p>"
    return ("<p class='note'>The start position of each variant, each cell shaded by the share of turns "
            "whose move touched it (where a piece left, landed or was placed), over all self-play games.</p>"
            "<div class='heat'>" + "".join(pictures) + "</div>")


SUMMARY_METRICS = ("AdvantageP1", "Balance", "Drawishness", "Timeouts", "DurationTurns", "BranchingFactor",
                   "FirstContact", "FirstCapture", "LeadChange", "Drama", "SkillGap")


def markdown_summary(plan: Plan, traces: Sequence[GameTrace], names: Sequence[str] = SUMMARY_METRICS) -> str:
    """The main metrics per variant as a Markdown table (for notes such as ``docs/findings``)."""
    summaries = variant_summaries(plan, traces)
    lines = ["| variant | games | " + " | ".join(names) + " | seat wins |",
             "|---|---|" + "---|" * len(names) + "---|"]
    for s in summaries:
        cells = " | ".join(s["metrics"][name].text(2) for name in names)
        seats = " / ".join(seat["wins"].text(2) for seat in s["seats"])
        lines.append(f"| {s['label']} | {len(s['games'])} | {cells} | {seats} |")
    return "\n".join(lines) + "\n"
