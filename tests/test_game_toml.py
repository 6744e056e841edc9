"""A game declared as data (``game.toml``, read by ``read_info`` and ``read_samples``): read in order, and a
bad table is refused saying what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardlab.core.info import GameInfo, Variant, read_info
from boardlab.core.options import Option
from boardlab.core.package import GamePackage, Samples
from boardlab.errors import BoardlabError

_HEAD = """
id = "toy"
name = "Toy"
designer = "nobody"
year = 2000
players = [2, 3]
rules_version = "1"
summary = "a toy"
source = "a test"
"""


def _package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toml: str) -> str:
    name = "toy_" + re.sub(r"\W", "_", tmp_path.name)  # one per test: packages and game.toml are read once
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_a_game_toml_becomes_info_and_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = _package(tmp_path, monkeypatch, _HEAD + """
perfect_information = false
notation = "Moves: a cell, such as b2."

[end_reasons]
1 = "line"
2 = "ply cap"

[added_endings]
2 = "ply_cap (X2)"

[variants.big]
options = {size = 9}
help = "a big board"

[options.size]
default = 5
help = "side"
minimum = 2
maximum = 9

[options.reach]
default = "near"
help = "how far"
ambiguity = "X1"
added = true
[options.reach.choices]
near = "one step"
far = "any distance"

[options.edge]
default = "left"
help = "which side"
choices = ["left", "right"]

[samples]
quick = [{size = 2}]
largest = [{}, {size = 9}]
""")
    assert read_info(name) == GameInfo(
        id="toy", name="Toy", designer="nobody", year=2000, players=(2, 3), rules_version="1", summary="a toy",
        source="a test", perfect_information=False,
        options=(
            Option("size", 5, "side", minimum=2, maximum=9),
            Option("reach", "near", "how far", choices=("near", "far"), ambiguity="X1", added=True,
                   choice_help={"near": "one step", "far": "any distance"}),
            Option("edge", "left", "which side", choices=("left", "right")),
        ),
        variants=(Variant("big", {"size": 9}, "a big board"),),
        end_reasons={1: "line", 2: "ply cap"}, added_endings={2: "ply_cap (X2)"},
        notation="Moves: a cell, such as b2.",
    )
    package = GamePackage.conventional(name, read_info(name), "Toy")
    assert package.samples == Samples(quick=({"size": 2},), largest=({}, {"size": 9}))


@pytest.mark.parametrize(("toml", "says"), [
    (_HEAD + '[options.size]\ndefault = 5\nhelp = "side"\nmaximun = 9\n',
     "[options.size]: unknown key 'maximun'; accepted: default, help"),
    (_HEAD + '[options.size]\nhelp = "side"\n', "[options.size]: an option is a table with at least default and help"),
    (_HEAD + 'colour = "red"\n', "unknown key 'colour'; accepted: id, name"),
    (_HEAD.replace('year = 2000\n', ''), "not a game description"),
    (_HEAD + '[variants.big]\nhelp = "no options"\n', "not a game description"),
    (_HEAD + 'name = "twice"\n', "cannot read game.toml"),
])
def test_a_bad_game_toml_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toml: str, says: str) -> None:
    name = _package(tmp_path, monkeypatch, toml)
    with pytest.raises(BoardlabError) as error:
        read_info(name)
    assert says in str(error.value)
