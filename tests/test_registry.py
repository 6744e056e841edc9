"""The registry of games: entry points in the group ``boardlab.games``, boardlab's six first, clear errors
for a plug-in that cannot be used."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import boardlab
import boardlab.render.counters
from boardlab import render
from boardlab.core import registry
from boardlab.core.package import GamePackage

ROOT = Path(__file__).resolve().parent.parent


def test_the_six_games_come_first_in_a_fixed_order_and_pyproject_registers_each() -> None:
    assert registry.game_ids()[:6] == ["ndengrod", "gtbm", "horsmeier", "mynd", "mobiatus", "hmdg"]
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["boardlab.games"]
    assert declared == registry.BUILT_IN
    for game_id in registry.BUILT_IN:
        package = registry.package(game_id)
        assert isinstance(package, GamePackage) and package.info is boardlab.info(game_id)
        assert package.game_class().info is package.info


def test_an_install_of_boardlab_registers_the_six_through_its_metadata() -> None:
    # .ci/run installs afresh (pip install -e .): then the metadata holds pyproject's entry points.
    points = {point.name: point.value for point in importlib.metadata.entry_points(group="boardlab.games")
              if point.dist is not None and point.dist.name == "boardlab"}
    if not points:
        pytest.skip("boardlab's installed metadata predates its entry points (install it again to check them)")
    assert points == registry.BUILT_IN


def test_listing_the_games_imports_no_rules() -> None:
    code = "import sys, boardlab; boardlab.games(); print(sorted({'numpy', 'numba'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


def plug_in(folder: Path, name: str, value: str, module: str | None = None, code: str = "") -> None:
    """A distribution made by hand in ``folder``: metadata registering ``name = value``, and a module."""
    info = folder / f"{name}_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[boardlab.games]\n{name} = {value}\n")
    if module:
        (folder / f"{module}.py").write_text(code)


@pytest.mark.parametrize(("value", "module", "code", "message"), [
    ("no_such_module:GAME", None, "", r"game plug-in 'broken' \(no_such_module:GAME, from distribution "
                                      r"broken-plugin\) cannot be loaded: ModuleNotFoundError.*fix or uninstall"),
    ("broken_one:GAME", "broken_one", "raise RuntimeError('half written')", "RuntimeError: half written"),
    ("broken_two:GAME", "broken_two", "GAME = 'tictac'", "is a str, not a boardlab.core.package.GamePackage"),
    ("broken_three:GAME", "broken_three", "from boardlab.games.gtbm import GAME",
     "describes the game 'gtbm'; the entry point's name must be its id"),
])
def test_a_broken_plug_in_is_named_with_what_is_wrong(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      value: str, module: str | None, code: str, message: str) -> None:
    plug_in(tmp_path, "broken", value, module, code)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(registry.PluginError, match=message):
        boardlab.games()
    monkeypatch.undo()
    assert "broken" not in registry.game_ids()


def test_a_plug_in_may_not_take_a_built_in_games_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in(tmp_path, "gtbm", "somewhere_else:GAME")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(registry.PluginError, match="takes the id of one of boardlab's own games"):
        registry.packages()


def test_a_plug_in_on_the_path_is_listed_after_the_six(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in(tmp_path, "copied", "copied_game:GAME", "copied_game",
            "from dataclasses import replace\nfrom boardlab.games.gtbm import GAME as GTBM\n"
            "GAME = replace(GTBM, info=replace(GTBM.info, id='copied', name='Copied'))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry.game_ids()[:6] == list(registry.BUILT_IN)
    assert "copied" in registry.game_ids()[6:]
    assert boardlab.info("Copied ").name == "Copied"
    assert render.layouts("copied") == ("board",)  # it names GTBM's renderer


def test_a_game_without_a_renderer_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in(tmp_path, "plain", "plain_game:GAME", "plain_game",
            "from dataclasses import replace\nfrom boardlab.games.gtbm import GAME as GTBM\n"
            "GAME = replace(GTBM, info=replace(GTBM.info, id='plain'), renderer=None, counters=None)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(render.RenderError, match="no renderer for game 'plain'; accepted: ndengrod, gtbm"):
        render.layouts("plain")
    assert render.counters.pitch("plain") == 0.0 and render.counters.counters_note("plain") == ""
    monkeypatch.undo()
    assert "copied" not in registry.game_ids()
    with pytest.raises(boardlab.OptionError, match="unknown game 'copied'; accepted: ndengrod, gtbm"):
        boardlab.info("copied")


def test_a_conventional_package_names_the_parts_its_modules_have() -> None:
    parts = {game_id: (p.face, p.renderer, p.counters, p.print_kit, p.reference)
             for game_id in registry.game_ids() for p in [registry.package(game_id)]}
    games = "boardlab.games"
    assert parts["gtbm"] == (f"{games}.gtbm.face:Gtbm", f"{games}.gtbm.render", f"{games}.gtbm.counters", None,
                             "tests.reference.gtbm_ref")
    assert parts["hmdg"] == (f"{games}.hmdg.face:HiddenMoveDoubleGomoku", f"{games}.hmdg.render", None,
                             f"{games}.hmdg.printing:pages", "tests.reference.hmdg_ref")
    assert parts["mobiatus"][2:] == (None, f"{games}.mobiatus.printing:pages", "tests.reference.mobiatus_ref")
    assert parts["horsmeier"][2:4] == (f"{games}.horsmeier.counters", f"{games}.horsmeier.printing:pages")
    # A game from elsewhere: its referee is its own module; what it declares wins over the convention.
    assert parts["tictac"] == ("boardlab_tictac.face:Tictac", "boardlab_tictac.render", "boardlab_tictac.render",
                               None, "boardlab_tictac.reference")
