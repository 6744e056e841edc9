"""Options declared as data (``options.toml``, read by ``read_options``): read in order, and a bad table is
refused saying what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.core.options import Option, read_options
from boardlab.errors import BoardlabError


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, toml: str) -> str:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "options.toml").write_text(toml, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_tables_become_options_in_file_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _package(tmp_path, monkeypatch, "opts_ok", """
[size]
default = 5
help = "side"
minimum = 2
maximum = 9

[reach]
default = "near"
help = "how far"
ambiguity = "X1"
added = true
[reach.choices]
near = "one step"
far = "any distance"

[edge]
default = "left"
help = "which side"
choices = ["left", "right"]
""")
    assert read_options(name) == (
        Option("size", 5, "side", minimum=2, maximum=9),
        Option("reach", "near", "how far", choices=("near", "far"), ambiguity="X1", added=True,
               choice_help={"near": "one step", "far": "any distance"}),
        Option("edge", "left", "which side", choices=("left", "right")),
    )


@pytest.mark.parametrize(("toml", "says"), [
    ('[size]\ndefault = 5\nhelp = "side"\nmaximun = 9\n', "unknown key 'maximun'; accepted: default, help"),
    ('[size]\nhelp = "side"\n', "[size]: an option is a table with at least default and help"),
    ('[size]\ndefault = 5\nhelp = "side\n', "cannot read options.toml"),
])
def test_a_bad_table_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toml: str, says: str) -> None:
    name = _package(tmp_path, monkeypatch, f"opts_bad_{abs(hash(toml))}", toml)
    with pytest.raises(BoardlabError) as error:
        read_options(name)
    assert says in str(error.value)
