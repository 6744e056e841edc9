"""No registered game skips a generic suite: each suite's cases, as pytest collects them, name every game
of the registry (a suite that listed games by hand would silently leave a new one out)."""

from __future__ import annotations

import configparser
import importlib
from pathlib import Path
from typing import Any

import pytest

from boardlab.core import registry
from boardlab.core.info import GameInfo
from tests.conftest import PLUGIN_GAMES

# suite module -> its tests that every game must go through
SUITES = {
    "tests.test_conformance": ["test_random_games_keep_every_invariant", "test_kernel_playouts_finish_with_a_result",
                               "test_description_is_complete_and_documented",
                               "test_a_move_of_junk_actions_is_refused_with_a_reason_and_leaves_the_state_alone"],
    "tests.test_render": ["test_every_board_parses_and_names_its_cells_as_the_notation"],
    "tests.test_click": ["test_clicking_enters_exactly_the_legal_moves"],
    "tests.test_terminal_fit": ["test_every_drawing_is_at_most_80_columns",
                                "test_a_session_at_80_by_24_keeps_the_board_last_move_and_prompt_in_view"],
    "tests.test_actions_planes": ["test_actions_in_range_and_games_within_bound", "test_planes_fixed_shape"],
    "tests.test_fuzz": ["test_from_text_refuses_bad_positions_with_a_boardlab_error",
                        "test_play_refuses_bad_moves_with_a_boardlab_error",
                        "test_records_load_refuses_bad_records_with_a_boardlab_error"],
    "tests.test_print": ["test_every_game_makes_a_pdf_of_the_paper_size",
                         "test_rules_page_prints_the_in_brief_section"],
    "tests.web.test_every_game_page": ["test_every_game_is_started_drawn_and_played_by_clicks_in_its_page"],
}
GAME_ARGUMENTS = ("game_id", "info")


def games_in(function: Any) -> set[str]:
    """The game ids among a test function's ``parametrize`` cases (``game_id`` or a :class:`GameInfo`)."""
    found: set[str] = set()
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, cases = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        where = next((i for i, name in enumerate(names) if name in GAME_ARGUMENTS), None)
        if where is None:
            continue
        for case in cases:
            values = case.values if hasattr(case, "values") else (case if len(names) > 1 else (case,))
            value = values[where]
            found.add(value.id if isinstance(value, GameInfo) else value)
    return found


@pytest.mark.parametrize(("suite", "test"), [(suite, test) for suite, tests in SUITES.items() for test in tests])
def test_every_registered_game_goes_through_every_generic_suite(suite: str, test: str) -> None:
    module = pytest.importorskip(suite) if suite.startswith("tests.test_print") else importlib.import_module(suite)
    assert games_in(getattr(module, test)) == set(registry.game_ids())


def test_every_test_only_game_is_registered_through_its_entry_point() -> None:
    # tests/plugin_games/*: put on the path by tests/conftest.py, each found as another distribution's game
    named = []
    for folder in PLUGIN_GAMES:
        for points in Path(folder).glob("*.dist-info/entry_points.txt"):
            parser = configparser.ConfigParser()
            parser.read_string(points.read_text())
            named += list(parser["boardlab.games"])
    assert set(named) <= set(registry.game_ids()[len(registry.BUILT_IN):])
