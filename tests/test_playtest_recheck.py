"""``boardlab playtest --recheck``: a findings manifest's claims re-run at a reduced budget."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.errors import BoardlabError
from boardlab.playtest import metrics, recheck

COMMAND = ("boardlab playtest ndengrod -o size=3 --sweep length=3,4 --agents random --games 50 --skill-gap off "
           "--out lab/x")
MANIFEST = f"""
findings = "demo.md"
games = 12

[[claim]]
id = "longer-lines-longer-games"
text = "Lines of 4 make longer games than lines of 3."
command = "{COMMAND}"
checks = ["DurationTurns[length=4] > DurationTurns[length=3]", "DurationTurns[length=3] < 40"]

[[claim]]
id = "short-games-last-fifty"
text = "A claim the games contradict."
command = "{COMMAND}"
checks = ["DurationTurns[length=3] > 50"]

[[claim]]
id = "balanced-within-five-points"
text = "Too fine for twelve games to tell."
command = "{COMMAND}"
games = 6
checks = ["AdvantageP1[length=3] ~ 0.5 +- 0.05"]
"""


def test_recheck_says_which_claims_still_hold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "demo.md").write_text("# demo findings\n")
    (tmp_path / "demo.claims.toml").write_text(MANIFEST)
    out = tmp_path / "recheck"
    code = main(["playtest", "--recheck", str(tmp_path / "demo.md"), "--out", str(out), "--workers", "1"])
    assert code == 1  # a claim fails
    text = capsys.readouterr().out
    assert "| longer-lines-longer-games | holds | 12 |" in text
    assert "| short-games-last-fifty | fails | 12 |" in text
    assert "| balanced-within-five-points | unclear | 6 |" in text
    assert "paired difference" in text and "1 of 3 claims hold, 1 fail, 1 unclear" in text
    assert (out / "recheck.md").read_text() == text
    runs = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert runs == ["run-01", "run-02"]  # the two 12-game claims share one run; the 6-game claim has its own


@pytest.mark.parametrize(("check", "message"), [
    ("Fun[size=3] > 1", "unknown metric"),
    ("DurationTurns >> 3", "accepted: METRIC[VARIANT]@STRENGTH"),
    ("DurationTurns ~ 3", "needs a margin"),
    ("DurationTurns > 3 +- 1", "goes with ~ only"),
])
def test_bad_checks_say_what_is_accepted(check: str, message: str) -> None:
    with pytest.raises(BoardlabError, match=re.escape(message)):
        recheck.parse_check(check)


def test_bad_manifests_are_refused_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.claims.toml"
    for body, message in (("[[claim]]\nid = 'a'\n", "missing 'command'"),
                          ("[[claim\n", "not a readable TOML manifest"),
                          ("[[claim]]\nid='a'\ncommand='boardlab match ndengrod a b'\nchecks=['AdvantageP1 > 0']\n",
                           "accepted: a 'boardlab playtest"),
                          ("games = 3\n", "no [[claim]]")):
        bad.write_text(body)
        with pytest.raises(BoardlabError, match=re.escape(message)):
            claims = recheck.load_manifest(bad)
            recheck.reduced_plan(claims[0])
    assert main(["playtest", "--recheck", str(tmp_path / "missing.md")]) == 2
    assert "no manifest" in capsys.readouterr().err


def test_a_check_naming_an_ambiguous_variant_or_strength_is_refused(tmp_path: Path) -> None:
    claim = recheck.Claim("a", "", "boardlab playtest ndengrod -o size=2 -o length=3 --sweep swap=false,true "
                          "--depth random,level1 --games 20", [recheck.parse_check("AdvantageP1 > 0")], games=1,
                          skill_games=0)
    plan = recheck.reduced_plan(claim)
    assert plan.games == 1 and plan.depth == ("random", "level1")
    with pytest.raises(BoardlabError, match="name one in brackets"):
        recheck.evaluate(plan, [], recheck.parse_check("AdvantageP1 > 0"))
    with pytest.raises(BoardlabError, match="name one after @"):
        recheck.evaluate(plan, [], recheck.parse_check("AdvantageP1[swap=true] > 0"))


FINDINGS = Path(__file__).resolve().parent.parent / "docs" / "findings"


@pytest.mark.parametrize("manifest", sorted(FINDINGS.glob("*.claims.toml")), ids=lambda path: path.name)
def test_every_findings_manifest_names_runs_variants_strengths_and_metrics_that_exist(manifest: Path) -> None:
    # Without playing a game: each claim's command is a playtest this version accepts, and each check
    # names a metric, exactly one of its variants and one of its strengths (or skill pairs).
    claims = recheck.load_manifest(manifest)
    assert claims and (FINDINGS / recheck.manifest_path(manifest).name.replace(".claims.toml", ".md")).exists()
    for claim in claims:
        plan = recheck.reduced_plan(claim)
        plan.check()
        for check in claim.checks:
            for term in (check.left, check.right):
                if isinstance(term, recheck.Term):
                    metrics.canonical(term.metric)
                    recheck._variant(plan, term)
                    recheck._rung(plan, term)
