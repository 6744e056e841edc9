"""``boardlab playtest --recheck FILE``: re-run a findings file's claims at a reduced budget and say which
still hold.

A findings file (``docs/findings/GAME.md``) keeps its claims, each with the command that made it and a
machine-checkable assertion, in a manifest beside it, ``GAME.claims.toml`` (TOML: Python reads it
without any extra library)::

    findings = "ndengrod.md"   # the findings file the claims come from (beside this manifest)
    games = 8                  # the reduced budget: self-play games per variant and strength
    skill_games = 4            # skill games per variant and pair (default: games / 2)

    [[claim]]
    id = "size-branching"                       # unique in the manifest
    text = "Bigger boards raise the branching factor."
    section = "Size"                            # optional: where the findings file says it
    command = "boardlab playtest ndengrod --sweep size=4,5 -o length=4 --depth level1,level2 --games 16"
    games = 6                                   # optional: this claim's own reduced budget
    checks = [
        "BranchingFactorAverage[size=5]@level2 > BranchingFactorAverage[size=4]@level2",
        "BranchingFactorAverage[size=5] > 40",
        "AdvantageP1[size=4]@level1 ~ 0.5 +- 0.25",
    ]

``command`` is the claim's full command (its budget is the one the findings quote); the recheck plays
it with ``--games`` (and ``--skill-games``) replaced by the reduced budget, into its own folder
(``--out`` is replaced too), once per distinct command. A *check* names a metric (any name of the
report's tables, aliases such as ``Drama`` included, and ``SkillGap``), optionally the variant in
brackets (``name=value`` pairs that pick out exactly one variant) and the strength after ``@`` (a rung
of ``--depth`` or the agents' label; for ``SkillGap`` the stronger agent of the pair); then:

- ``TERM > X``, ``>=``, ``<``, ``<=``: *holds* if the metric's 95% interval lies on the right side of
  ``X``, *fails* if it lies wholly on the wrong side, *unclear* otherwise;
- ``TERM > TERM`` (and the others): the two compared game by game on their shared seeds where both are
  measured per game at one strength (the paired difference's interval must exclude 0), else by their
  intervals (disjoint intervals decide);
- ``TERM ~ X +- M`` (or ``±``): *holds* if the interval lies inside ``[X − M, X + M]``; ``TERM ~ TERM +- M``:
  an equivalence test (TOST, paired) at 5%; *fails* if the interval lies wholly outside.

A claim holds when all its checks hold, fails when any fails, and is unclear otherwise: a reduced
budget often cannot decide, and says so rather than guess. The exit status is 1 if any claim fails.

>>> parse_check("DurationTurns[size=5,length=4]@level2 >= 12")
Check(left=Term(metric='DurationTurns', variant='size=5,length=4', strength='level2'), op='>=', right=12.0, margin=None)
>>> parse_check("AdvantageP1 ~ 0.5 +- 0.2").margin
0.2
"""

from __future__ import annotations

import argparse
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from boardlab.errors import BoardlabError
from boardlab.playtest import compare, metrics, summary
from boardlab.playtest.run import Plan
from boardlab.playtest.stats import Estimate, number
from boardlab.playtest.trace import GameTrace

_TERM = r"([A-Za-z][A-Za-z0-9]*)(?:\[([^\]]*)\])?(?:@(\S+))?"
_NUMBER = r"(-?[0-9]+(?:\.[0-9]*)?)"
_CHECK = re.compile(rf"^\s*{_TERM}\s*(<=|>=|<|>|~)\s*(?:{_NUMBER}|{_TERM})\s*(?:(?:\+-|±)\s*{_NUMBER})?\s*$")


@dataclass(frozen=True)
class Term:
    metric: str
    variant: str | None = None
    strength: str | None = None

    def __str__(self) -> str:
        return (self.metric + (f"[{self.variant}]" if self.variant else "")
                + (f"@{self.strength}" if self.strength else ""))


@dataclass(frozen=True)
class Check:
    left: Term
    op: str
    right: float | Term
    margin: float | None = None

    def __str__(self) -> str:
        right = number(self.right) if isinstance(self.right, float) else str(self.right)
        margin = f" +- {number(self.margin)}" if self.margin is not None else ""
        return f"{self.left} {self.op} {right}{margin}"


@dataclass
class Claim:
    id: str
    text: str
    command: str
    checks: list[Check]
    games: int
    skill_games: int | None = None
    section: str = ""


@dataclass
class Outcome:
    """One check's verdict with what was measured."""

    check: Check
    verdict: str  # "holds", "fails", "unclear"
    measured: str


@dataclass
class ClaimResult:
    claim: Claim
    outcomes: list[Outcome] = field(default_factory=list)
    folder: str = ""

    @property
    def verdict(self) -> str:
        verdicts = [o.verdict for o in self.outcomes]
        return "fails" if "fails" in verdicts else "holds" if verdicts and all(v == "holds" for v in verdicts) \
            else "unclear"


def parse_check(text: str) -> Check:
    """A check from its text; :class:`BoardlabError` says what is accepted."""
    match = _CHECK.match(text)
    if not match:
        raise BoardlabError(f"claim check {text!r}: accepted: METRIC[VARIANT]@STRENGTH OP VALUE, OP one of "
                            "< <= > >= (VALUE a number or another such term), or ~ VALUE +- MARGIN")
    name, variant, strength, op, value, rname, rvariant, rstrength, margin = match.groups()
    try:
        left = Term(metrics.canonical(name), variant or None, strength or None)
        right: float | Term = float(value) if value is not None else Term(metrics.canonical(rname),
                                                                            rvariant or None, rstrength or None)
    except KeyError as error:
        raise BoardlabError(f"claim check {text!r}: {error.args[0]}") from None
    if op == "~" and margin is None:
        raise BoardlabError(f"claim check {text!r}: ~ needs a margin: TERM ~ VALUE +- MARGIN")
    if op != "~" and margin is not None:
        raise BoardlabError(f"claim check {text!r}: +- MARGIN goes with ~ only")
    return Check(left, op, right, float(margin) if margin is not None else None)


def manifest_path(path: str | Path) -> Path:
    """The manifest for ``path``: itself if a ``.toml``, else ``NAME.claims.toml`` beside ``NAME.md``."""
    given = Path(path)
    found = given if given.suffix == ".toml" else given.with_name(given.stem + ".claims.toml")
    if not found.exists():
        raise BoardlabError(f"--recheck {path}: no manifest {found} (accepted: a .claims.toml file, or a findings "
                            ".md file with one beside it)")
    return found


def load_manifest(path: str | Path) -> list[Claim]:
    """The claims of a manifest, checked: ids, commands and checks all parse."""
    source = manifest_path(path)
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BoardlabError(f"--recheck {source}: not a readable TOML manifest: {error}") from None
    games = data.get("games", 8)
    skill_games = data.get("skill_games")
    claims = []
    seen = set()
    for i, item in enumerate(data.get("claim", [])):
        where = f"--recheck {source}: claim {i + 1}"
        for key in ("id", "command", "checks"):
            if key not in item:
                raise BoardlabError(f"{where}: missing {key!r} (a claim has id, text, command, checks)")
        if item["id"] in seen:
            raise BoardlabError(f"{where}: id {item['id']!r} is used twice")
        seen.add(item["id"])
        if not isinstance(item["checks"], list) or not item["checks"]:
            raise BoardlabError(f"{where}: checks: accepted: a list of check strings")
        claims.append(Claim(str(item["id"]), str(item.get("text", "")), str(item["command"]),
                            [parse_check(str(c)) for c in item["checks"]], int(item.get("games", games)),
                            item.get("skill_games", skill_games), str(item.get("section", ""))))
    if not claims:
        raise BoardlabError(f"--recheck {source}: no [[claim]] in the manifest")
    return claims


def _playtest_args(command: str) -> argparse.Namespace:
    from boardlab.cli.main import build_parser

    words = shlex.split(command)
    if words[:3] == ["python", "-m", "boardlab"]:
        words = words[2:]
    if words[:2] != ["boardlab", "playtest"]:
        raise BoardlabError(f"claim command {command!r}: accepted: a 'boardlab playtest …' command")
    try:
        args = build_parser().parse_args(words[1:])
    except SystemExit:
        raise BoardlabError(f"claim command {command!r}: boardlab playtest does not accept it") from None
    if args.recheck or not args.game:
        raise BoardlabError(f"claim command {command!r}: a playtest of one game, not a recheck")
    return args


def reduced_plan(claim: Claim) -> Plan:
    """The claim's command as a plan, with the reduced budget."""
    from boardlab.cli.playtest import make_plan
    from boardlab.playtest.run import parse_sweep

    args = _playtest_args(claim.command)
    args.games = claim.games
    args.skill_games = claim.skill_games if claim.skill_games is not None else max(2, claim.games // 2)
    args.stop_on = None  # a recheck plays its budget whole
    plan: Plan = make_plan(args, parse_sweep(args.sweep or []))
    return plan


def _variant(plan: Plan, term: Term) -> str:
    labels = plan.variants()
    if term.variant is None:
        if len(labels) > 1:
            raise BoardlabError(f"check term {term}: the run has {len(labels)} variants; name one in brackets "
                                f"({', '.join(label for label, _ in labels)})")
        return labels[0][0]
    wanted = dict(part.split("=", 1) for part in term.variant.split(",") if "=" in part)
    found = [label for label, options in labels if all(str(options.get(k)) == v for k, v in wanted.items())]
    if len(found) != 1:
        raise BoardlabError(f"check term {term}: matches {len(found)} variants; accepted: one of "
                            f"{', '.join(label for label, _ in labels)}")
    return found[0]


def _rung(plan: Plan, term: Term) -> int:
    labels = [plan.rung_label(r) for r in range(len(plan.rungs()))]
    if term.metric == "SkillGap":
        chain = plan.chain()
        if not chain:
            raise BoardlabError(f"check term {term}: the run plays no skill games")
        if term.strength is None:
            return chain[-1][0]
        found = [link for link, strong, _ in chain if strong == term.strength]
        if not found:
            raise BoardlabError(f"check term {term}: no pair with the stronger agent {term.strength}")
        return found[0]
    if term.strength is None:
        if len(labels) > 1:
            raise BoardlabError(f"check term {term}: the run has strengths {', '.join(labels)}; name one after @")
        return 0
    if term.strength not in labels:
        raise BoardlabError(f"check term {term}: accepted strengths: {', '.join(labels)}")
    return labels.index(term.strength)


def _games(plan: Plan, traces: list[GameTrace], term: Term) -> list[GameTrace]:
    label, rung = _variant(plan, term), _rung(plan, term)
    kind = "skill" if term.metric == "SkillGap" else "self"
    return sorted((t for t in traces if t.kind == kind and t.variant == label and t.rung == rung),
                  key=lambda t: t.seed)


def _estimate(plan: Plan, traces: list[GameTrace], term: Term) -> Estimate:
    games = _games(plan, traces, term)
    if term.metric == "SkillGap":
        return metrics.skill_gap(games)
    return metrics.measure(games, seed=plan.seed, names=[term.metric])[term.metric]


def _against_number(estimate: Estimate, op: str, x: float, margin: float | None) -> str:
    if estimate.value is None:
        return "unclear"
    low = estimate.value if estimate.low is None else estimate.low
    high = estimate.value if estimate.high is None else estimate.high
    if op == "~":
        assert margin is not None
        return "holds" if x - margin <= low and high <= x + margin else \
            "fails" if high < x - margin or low > x + margin else "unclear"
    above = {">": (low > x, high <= x), ">=": (low >= x, high < x),
             "<": (high < x, low >= x), "<=": (high <= x, low > x)}[op]
    return "holds" if above[0] else "fails" if above[1] else "unclear"


def evaluate(plan: Plan, traces: list[GameTrace], check: Check) -> Outcome:
    """One check against the games of a run."""
    left = _estimate(plan, traces, check.left)
    if isinstance(check.right, float):
        verdict = _against_number(left, check.op, check.right, check.margin)
        return Outcome(check, verdict, f"{check.left} = {left.text()}")
    right = _estimate(plan, traces, check.right)
    measured = f"{check.left} = {left.text()}; {check.right} = {right.text()}"
    per_game = check.left.metric != "SkillGap" and check.right.metric != "SkillGap" \
        and metrics.metric(check.left.metric).per_game is not None \
        and metrics.metric(check.right.metric).per_game is not None \
        and _rung(plan, check.left) == _rung(plan, check.right)
    if per_game:
        a_games, b_games = summary._paired_games(_games(plan, traces, check.right), _games(plan, traces, check.left))
        b = metrics.per_game_values(b_games, check.left.metric)
        a = metrics.per_game_values(a_games, check.right.metric)
        result = compare.paired(a, b, check.margin or 0.0, min_pairs=2)
        if result.difference is None or result.low is None or result.high is None:
            return Outcome(check, "unclear", measured + "; no pairs")
        measured += (f"; paired difference {number(result.difference)} [{number(result.low)}, "
                     f"{number(result.high)}] over {result.n} games")
        if check.op == "~":
            assert check.margin is not None
            verdict = "holds" if result.p_equivalence is not None and result.p_equivalence < compare.ALPHA else \
                "fails" if result.low > check.margin or result.high < -check.margin else "unclear"
        elif check.op in (">", ">="):
            verdict = "holds" if result.low > 0 else "fails" if result.high < 0 else "unclear"
        else:
            verdict = "holds" if result.high < 0 else "fails" if result.low > 0 else "unclear"
        return Outcome(check, verdict, measured)
    if left.value is None or right.value is None:
        return Outcome(check, "unclear", measured)
    spread = Estimate(left.value - right.value,
                      None if left.low is None or right.high is None else left.low - right.high,
                      None if left.high is None or right.low is None else left.high - right.low, left.n, "")
    return Outcome(check, _against_number(spread, check.op, 0.0, check.margin), measured)


def recheck(path: str | Path, out: str | Path | None = None, workers: int | None = None,
            ray_address: str | None = None) -> list[ClaimResult]:
    """Re-run every claim of the manifest at its reduced budget; each run once, into ``out``."""
    from boardlab.playtest.run import run_plan

    source = manifest_path(path)
    claims = load_manifest(source)
    folder = Path(out) if out is not None else Path("recheck") / source.name.removesuffix(".claims.toml")
    runs: dict[str, tuple[Plan, list[GameTrace], str]] = {}
    results = []
    for claim in claims:
        plan = reduced_plan(claim)
        key = repr(sorted(plan.to_dict().items(), key=lambda item: item[0]))
        if key not in runs:
            where = folder / f"run-{len(runs) + 1:02d}"
            traces = run_plan(plan, where, workers=workers, ray_address=ray_address, resume=True)
            runs[key] = (plan, traces, str(where))
        plan, traces, run_folder = runs[key]
        result = ClaimResult(claim, folder=run_folder)
        for check in claim.checks:
            result.outcomes.append(evaluate(plan, traces, check))
        results.append(result)
    return results


def report(results: list[ClaimResult]) -> str:
    """The recheck in Markdown: each claim's verdict, then each check with what was measured."""
    lines = ["| claim | verdict | games | run |", "|---|---|---|---|"]
    lines += [f"| {r.claim.id} | {r.verdict} | {r.claim.games} | {r.folder} |" for r in results]
    for r in results:
        lines += ["", f"**{r.claim.id}** ({r.verdict}): {r.claim.text}", f"`{r.claim.command}`"]
        lines += [f"- {o.verdict}: `{o.check}` — {o.measured}" for o in r.outcomes]
    held = sum(r.verdict == "holds" for r in results)
    failed = sum(r.verdict == "fails" for r in results)
    lines += ["", f"{held} of {len(results)} claims hold, {failed} fail, {len(results) - held - failed} unclear "
                  "at the reduced budget."]
    return "\n".join(lines) + "\n"


def recheck_command(path: str, out: str | None, workers: int | None, ray_address: str | None) -> int:
    """The CLI's ``--recheck``: run, print and keep the report; exit status 1 if any claim fails."""
    results = recheck(path, out, workers, ray_address)
    text = report(results)
    print(text, end="")
    folder = Path(out) if out is not None else Path("recheck") / manifest_path(path).name.removesuffix(".claims.toml")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "recheck.md").write_text(text, encoding="utf-8")
    except OSError as error:
        raise BoardlabError(f"cannot write {folder}/recheck.md: {error.strerror}") from None
    return 1 if any(r.verdict == "fails" for r in results) else 0
