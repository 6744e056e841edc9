"""Property-based fuzzing (issue 11): text from outside never crashes boardlab.

For every game, Hypothesis feeds ``Game.from_text``, ``State.play`` and ``records.loads`` with
valid inputs (positions and records of random games) and mutations of them: huge numbers in place
of small ones, characters inserted, deleted or swapped, fields of a record replaced. Whatever comes
in, the only exception allowed out is a :class:`boardlab.BoardlabError` (a one-line refusal).

A few hundred examples per game run in CI; ``BOARDLAB_FUZZ=thorough`` runs thousands.
"""

from __future__ import annotations

import json
import os
import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardlab
from boardlab import records
from boardlab.core import registry
from boardlab.core.state import State
from boardlab.errors import BoardlabError

settings.register_profile("ci", max_examples=150, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("BOARDLAB_FUZZ", "ci"))

GAMES = registry.game_ids()
# Numbers that broke parsers: too big for memory, for int64, for int() itself (over 4300 digits).
HUGE = ["1000000000000", str(2**63), str(2**64 + 1), "9" * 5000, "-1", "\uff15", "\u0665"]


@cache
def games_played(game_id: str) -> list[State]:
    """Final states of a few random games (with every position on the way reachable by .previous)."""
    game = boardlab.load(game_id)
    finals = []
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over and state.ply < 60 + 40 * seed:
            state = state.play(rng.choice(state.legal_moves()))
        finals.append(state)
    return finals


def positions(game_id: str) -> list[str]:
    texts = []
    for final in games_played(game_id):
        state: State | None = final
        while state is not None:
            texts.append(state.to_text())
            state = state.previous
    return texts


def mutate(text: str, draw: st.DrawFn) -> str:
    """One to three edits of ``text``: a number made huge, a character inserted, deleted or swapped."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["number", "insert", "delete", "swap", "duplicate"]))
        if kind == "number":
            numbers = list(re.finditer(r"\d+", text))
            if numbers:
                found = numbers[draw(st.integers(0, len(numbers) - 1))]
                text = text[:found.start()] + draw(st.sampled_from(HUGE)) + text[found.end():]
                continue
        at = draw(st.integers(0, len(text)))
        if kind == "insert" or not text:
            text = text[:at] + draw(st.sampled_from(list("xoXObwBWRrgG*+~-/,:=()0123456789 \u0665\x00"))) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + 1:]
        elif kind == "swap" and at + 1 < len(text):
            text = text[:at] + text[at + 1] + text[at] + text[at + 2:]
        elif kind == "duplicate":
            text = text[:at] + text[at:at + 5] * draw(st.integers(2, 4)) + text[at:]
    return text


@st.composite
def position_texts(draw: st.DrawFn, game_id: str) -> str:
    text = draw(st.sampled_from(positions(game_id)))
    return text if draw(st.integers(0, 9)) == 0 else mutate(text, draw)


@st.composite
def move_texts(draw: st.DrawFn, game_id: str) -> tuple[State, str]:
    final = draw(st.sampled_from(games_played(game_id)))
    history = final.history()
    state = final
    for _ in range(draw(st.integers(0, len(history)))):
        state = state.previous or state
    moves = state.legal_moves()
    text = draw(st.sampled_from([m.text for m in moves])) if moves else "a1"
    return state, (text if draw(st.integers(0, 4)) == 0 else mutate(text, draw))


@st.composite
def record_texts(draw: st.DrawFn, game_id: str) -> str:
    final = draw(st.sampled_from(games_played(game_id)))
    data: dict[str, Any] = records.GameRecord.from_state(final).to_dict()
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(["result", "termination", "start", "moves", "players", "seed", "tags",
                                     "options", "loser", "format"]))
        kind = draw(st.integers(0, 4))
        if kind == 0:
            data[name] = mutate(draw(st.sampled_from(positions(game_id))), draw)
        elif kind == 1:
            moves = [move.text for move in final.history()]
            data[name] = [mutate(move, draw) if draw(st.booleans()) else move for move in moves]
        else:
            data[name] = draw(st.one_of(
                st.none(), st.sampled_from(["rules", "resignation", "timeout", "agreement", "x", ""]),
                st.lists(st.sampled_from([0, 0.5, 1, 1.0, 2, -1, None, "1"]), max_size=4),
                st.integers(-2, 2), st.sampled_from([2**63, 2**200]),
            ))
    text = json.dumps(data)
    numbers = list(re.finditer(r"\d+", text))
    if numbers and draw(st.integers(0, 3)) == 0:  # a number in the JSON itself made huge
        found = numbers[draw(st.integers(0, len(numbers) - 1))]
        text = text[:found.start()] + draw(st.sampled_from(HUGE[:4])) + text[found.end():]
    return text if draw(st.integers(0, 5)) else mutate(text, draw)


def only_boardlab_errors(call: Any, *args: Any) -> None:
    try:
        call(*args)
    except BoardlabError as error:
        message = str(error)
        assert message and "\n" not in message.strip(), f"not one line: {message!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_from_text_refuses_bad_positions_with_a_boardlab_error(game_id: str) -> None:
    game = boardlab.load(game_id)

    @given(position_texts(game_id))
    def check(text: str) -> None:
        only_boardlab_errors(game.from_text, text)

    check()


@pytest.mark.parametrize("game_id", GAMES)
def test_play_refuses_bad_moves_with_a_boardlab_error(game_id: str) -> None:
    @given(move_texts(game_id))
    def check(case: tuple[State, str]) -> None:
        state, text = case
        only_boardlab_errors(state.play, text)

    check()


@pytest.mark.parametrize("game_id", GAMES)
def test_records_load_refuses_bad_records_with_a_boardlab_error(game_id: str) -> None:
    @given(record_texts(game_id))
    def check(text: str) -> None:
        only_boardlab_errors(records.loads, text)

    check()
