"""Horsmeier's strength race, from the seed (004) and the rules notes (§6, IDs J1–J11).

Positions are written as position text: rows from row 11 down, each a comma-separated list of
empty-square counts and pieces (``5w11``: strength 5, White, life span 11). ``setup`` builds one from
a dict of squares.
"""

from __future__ import annotations

import re

import pytest

import boardlab

# The seed's start diagram, verbatim.
SEED_DIAGRAM = """
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |1b|  |1b|  |1b|  |1b|  |1b|  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |2b|  |  |2b|  |  |2b|  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |3b|  |  |  |3b|  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |  |  |  |  |  |  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |  |  |5b|  |  |  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |  |  |  |  |  |  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |  |  |5w|  |  |  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |  |  |  |  |  |  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |  |3w|  |  |  |3w|  |  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |  |2w|  |  |2w|  |  |2w|  |  |
		+--+--+--+--+--+--+--+--+--+--+--+
		|  |1w|  |1w|  |1w|  |1w|  |1w|  |
		+--+--+--+--+--+--+--+--+--+--+--+
"""


def horsmeier(**options: object) -> boardlab.Game:
    return boardlab.load("horsmeier", **options)


def setup(pieces: dict[str, str], to_move: str = "w", ply: int = 10) -> str:
    """Position text with ``pieces`` ({"d5": "5w11", …}) on an otherwise empty board."""
    rows = []
    for row in range(11, 0, -1):
        items: list[str] = []
        empty = 0
        for file in "abcdefghijk":
            piece = pieces.get(f"{file}{row}")
            if piece is None:
                empty += 1
                continue
            items += [str(empty)] if empty else []
            items.append(piece)
            empty = 0
        rows.append(",".join(items + ([str(empty)] if empty else [])))
    return f"{'/'.join(rows)} {to_move} {ply}"


def pieces(state: boardlab.State) -> dict[str, str]:
    """The pieces of a position by square, as the position text writes them."""
    found = {}
    for top, row_text in enumerate(state.to_text().split()[0].split("/")):
        file = 0
        for item in row_text.split(","):
            if item.isdigit():
                file += int(item)
            else:
                found[f"{'abcdefghijk'[file]}{11 - top}"] = item
                file += 1
    return found


def play(state: boardlab.State, moves: str) -> boardlab.State:
    for move in moves.split(","):
        state = state.play(move.strip())
    return state


def moves_from(state: boardlab.State, square: str) -> list[str]:
    return [str(m) for m in state.legal_moves() if str(m).startswith(square + "-")]


# -- the start ------------------------------------------------------------------------------------


def test_the_start_is_the_seeds_diagram_with_full_life_spans() -> None:
    state = horsmeier().new_game()
    seed_rows = [re.findall(r"\|([^|]*)(?=\|)", line) for line in SEED_DIAGRAM.splitlines() if "|" in line]
    drawn_rows = [re.findall(r"\|([^|]*)(?=\|)", line) for line in str(state).splitlines() if "|" in line]
    assert len(seed_rows) == len(drawn_rows) == 11
    for seed_row, drawn_row in zip(seed_rows, drawn_rows, strict=True):
        assert [cell.strip() for cell in seed_row] == [cell[:2].strip() for cell in drawn_row]
        assert all(cell[2:] == "11" for cell in drawn_row if cell.strip())
    assert state.to_move == 0 and state.seat_label(0) == "White"
    assert sum(int(p[0]) for p in pieces(state).values()) == 44  # 22 a side


def test_the_board_shows_row_sums_and_a_legend() -> None:
    text = str(horsmeier().new_game())
    assert text.splitlines()[0].endswith("Σw  Σb")
    assert " 10 |    |    |2b11|" in text and text.splitlines()[4].endswith("10   0   6")
    assert "life span left" in text


# -- strength blocking (J2): the seed's two examples, and the options --------------------------


def test_seed_example_equal_strength_blocks_the_forward_move() -> None:
    # "white cannot move her/his piece forward, 'cause the strengths are equal."
    state = horsmeier().from_text(setup({"f6": "5b11", "d5": "5w11"}))
    assert moves_from(state, "d5") == ["d5-e5", "d5-d4", "d5-c5"]
    blocked = r"strength block: Black's strength on row 6 \(5\) is at least White's strength on row 5 \(5\)"
    with pytest.raises(boardlab.IllegalMove, match=blocked):
        state.play("d5-d6")


def test_seed_example_physical_block_and_not_enough_strength() -> None:
    # "there are two reasons why white cannot move forwards: there's a physical block (1b) and
    # there's not enough strength to move forwards (5w < 1b+5b == 6b)."
    state = horsmeier().from_text(setup({"d6": "1b11", "f6": "5b11", "d5": "5w11", "e5": "5w11"}))
    with pytest.raises(boardlab.IllegalMove, match=r"d6 is occupied \(physical block\)"):
        state.play("d5-d6")
    # With a second 5 beside it, White's row sum is 10 > 6, so e5 may advance.
    assert "e5-e6" in moves_from(state, "e5")
    alone = horsmeier().from_text(setup({"d6": "1b11", "f6": "5b11", "e5": "5w11"}))
    assert "e5-e6" not in moves_from(alone, "e5")  # 5 < 6: not enough strength
    assert "  6   0   6" in str(alone)


def test_a_row_without_enemy_pieces_never_blocks() -> None:
    state = horsmeier().from_text(setup({"a5": "1w11", "k11": "1b11"}))
    assert moves_from(state, "a5") == ["a5-a6", "a5-b5", "a5-a4"]


SIDEWAYS = {"a5": "1w11", "k5": "3b11", "k11": "1b11"}


def test_sideways_moves_are_strength_blocked_by_default() -> None:
    assert moves_from(horsmeier().from_text(setup(SIDEWAYS)), "a5") == ["a5-a6", "a5-a4"]
    exempt = horsmeier(sideways_blocking="exempt").from_text(setup(SIDEWAYS))
    assert moves_from(exempt, "a5") == ["a5-a6", "a5-b5", "a5-a4"]


BACKWARD = {"a5": "1w11", "k4": "2b11", "k11": "1b11"}


def test_backward_moves_are_strength_blocked_by_default() -> None:
    assert moves_from(horsmeier().from_text(setup(BACKWARD)), "a5") == ["a5-a6", "a5-b5"]
    exempt = horsmeier(backward_blocking="exempt").from_text(setup(BACKWARD))
    assert moves_from(exempt, "a5") == ["a5-a6", "a5-b5", "a5-a4"]


OWN_ROW = {"a5": "3w11", "c5": "2w11", "k6": "3b11", "k11": "1b11"}


def test_the_movers_strength_is_its_whole_row_unless_own_sum_is_piece_only() -> None:
    state = horsmeier().from_text(setup(OWN_ROW))
    assert "a5-a6" in moves_from(state, "a5") and "c5-c6" in moves_from(state, "c5")  # 5 > 3
    piece_only = horsmeier(own_sum="piece_only").from_text(setup(OWN_ROW))
    assert "a5-a6" not in moves_from(piece_only, "a5") and "c5-c6" not in moves_from(piece_only, "c5")
    with pytest.raises(boardlab.IllegalMove, match=r"at least the piece's strength \(3\)"):
        piece_only.play("a5-a6")


# -- strength changes (J3, J4) --------------------------------------------------------------------


def strengths_climbing(upgrade_rule: str) -> list[int]:
    """The strength of a White 1 walked from a1 to a10, after each step."""
    game = horsmeier(upgrade_rule=upgrade_rule)
    start = {"a1": "1w11", "k11": "1b11"}
    if upgrade_rule != "band":
        start = {"a1": "1w11^1", "k11": "1b11^1"}
    state = game.from_text(setup(start))
    seen = []
    for row in range(1, 10):
        state = play(state, f"a{row}-a{row + 1}, {'k11-j11' if row % 2 else 'j11-k11'}")
        seen.append(int(pieces(state)[f"a{row + 1}"][0]))
    return seen


def test_upgrade_band_on_reaching_row_twice_the_strength() -> None:
    assert strengths_climbing("band") == [2, 2, 3, 3, 5, 5, 5, 5, 8]


def test_upgrade_since_last_change() -> None:
    assert strengths_climbing("since_last_change") == [2, 2, 3, 3, 3, 5, 5, 5, 5]


def test_upgrade_from_own_start() -> None:
    assert strengths_climbing("from_own_start") == [2, 3, 5, 5, 8, 8, 8, 8, 8]


def test_a_sideways_move_never_upgrades() -> None:
    state = horsmeier().from_text(setup({"a4": "1w11", "k11": "1b11"})).play("a4-b4")
    assert pieces(state)["b4"] == "1w11"


def test_retreating_below_row_n_degrades_one_step() -> None:
    state = horsmeier().from_text(setup({"f5": "5w11", "k11": "1b11"}))
    seen = []
    for row in (5, 4, 3, 2):
        state = play(state, f"f{row}-f{row - 1}, {'k11-j11' if row % 2 else 'j11-k11'}")
        seen.append(int(pieces(state)[f"f{row - 1}"][0]))
    assert seen == [3, 3, 2, 1]


def test_an_8_degrades_to_5_and_black_counts_rows_from_its_side() -> None:
    state = horsmeier().from_text(setup({"a1": "1w11", "e5": "8b11"}, to_move="b")).play("e5-e6")
    assert pieces(state)["e6"] == "5b11"  # Black's own-side row 6 < 8


# -- life spans and expiry (J5–J7) ----------------------------------------------------------------


def test_moving_resets_the_life_span_and_ages_only_the_movers_other_pieces() -> None:
    state = horsmeier().new_game().play("f5-f6")
    after = pieces(state)
    assert after["f6"] == "5w11" and after["b1"] == "1w10" and after["d3"] == "3w10"
    assert after["f7"] == "5b11" and after["b11"] == "1b11"
    state = state.play("f7-g7")
    assert pieces(state)["f6"] == "5w11" and pieces(state)["b11"] == "1b10"


EXPIRING = {"a1": "1w1", "c1": "2w1", "k5": "1w11", "k11": "1b11"}


@pytest.mark.parametrize("rule, a1, c1", [
    ("degrade_and_reset", None, "1w11"),
    ("degrade_each_turn", None, "1w0"),
    ("remove_any", None, None),
    ("never", "1w1", "2w1"),  # added for playtests: life spans stand still
])
def test_expiry(rule: str, a1: str | None, c1: str | None) -> None:
    state = horsmeier(expiry_rule=rule).from_text(setup(EXPIRING)).play("k5-k6")
    after = pieces(state)
    assert (after.get("a1"), after.get("c1")) == (a1, c1)


def test_degrade_each_turn_keeps_degrading_a_piece_left_still() -> None:
    state = horsmeier(expiry_rule="degrade_each_turn").from_text(setup({"c1": "3w1", "k5": "1w11", "k11": "1b11"}))
    state = play(state, "k5-k6, k11-j11")
    assert pieces(state)["c1"] == "2w0"
    state = play(state, "k6-k7, j11-k11")
    assert pieces(state)["c1"] == "1w0"
    state = play(state, "k7-k8, k11-j11")
    assert "c1" not in pieces(state)
    saved = horsmeier(expiry_rule="degrade_each_turn").from_text(setup({"c1": "2w0", "k11": "1b11"})).play("c1-c2")
    assert pieces(saved)["c2"] == "2w11"  # moving restores it


def test_the_far_row_wins_at_once_before_any_update() -> None:
    state = horsmeier().from_text(setup({"a10": "1w11", "c1": "1w1", "k6": "1b11"})).play("a10-a11")
    assert state.is_over and state.result == (1.0, 0.0) and state.end_reason == "far row"
    assert pieces(state)["c1"] == "1w1"  # the game ended before the life spans were updated
    assert state.to_text().endswith("b 11 end:far-row")


# -- no legal move (J9), repetition and the ply cap (J10) -----------------------------------------

# White's lone 1 on a9 is strength blocked in every direction by Black's 1s on rows 8, 9 and 10.
STUCK = {"a9": "1w2", "k8": "1b11", "k9": "1b11", "k10": "1b11"}


def test_a_player_with_no_legal_move_passes_and_ages() -> None:
    state = horsmeier().from_text(setup(STUCK))
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    state = state.play("pass")
    assert pieces(state)["a9"] == "1w1"
    state = play(state, "k10-j10, pass")
    assert state.result == (0.0, 1.0) and state.end_reason == "no pieces"


def test_passing_is_refused_while_a_move_is_legal() -> None:
    with pytest.raises(boardlab.IllegalMove, match="passing is allowed only when no move is legal"):
        horsmeier().new_game().play("pass")
    with pytest.raises(boardlab.IllegalMove, match="passing is not part of these rules"):
        horsmeier(no_move_rule="lose").new_game().play("pass")


@pytest.mark.parametrize("rule, result", [("lose", (0.0, 1.0)), ("draw", (0.5, 0.5))])
def test_no_move_rule_lose_or_draw(rule: str, result: tuple) -> None:
    state = horsmeier(no_move_rule=rule).from_text(setup(STUCK, to_move="b")).play("k10-j10")
    assert state.result == result and state.end_reason == "no legal move"


ONE_EACH = {"f1": "1w11", "f11": "1b11"}
SHUFFLE = "f1-e1, f11-e11, e1-f1, e11-f11"


def test_threefold_repetition_of_the_whole_state_draws() -> None:
    start = setup(ONE_EACH, ply=0)
    state = play(horsmeier().from_text(start), SHUFFLE)
    assert state.to_text() == start.replace(" 0", " 4") and not state.is_over
    state = play(state, SHUFFLE.rsplit(",", 1)[0])
    assert not state.is_over
    state = state.play("e11-f11")
    assert state.result == (0.5, 0.5) and state.end_reason == "repetition"


def test_life_spans_are_part_of_the_repeated_state() -> None:
    # With a second White piece left still, it ages, so nothing repeats.
    state = horsmeier().from_text(setup({**ONE_EACH, "a5": "2w11"}, ply=0))
    state = play(state, f"{SHUFFLE}, {SHUFFLE}")
    assert not state.is_over and pieces(state)["a5"] == "2w7"


def test_repetition_off_and_the_ply_cap() -> None:
    state = play(horsmeier(repetition="off").from_text(setup(ONE_EACH, ply=0)), f"{SHUFFLE}, {SHUFFLE}")
    assert not state.is_over
    state = play(horsmeier(ply_cap=3).from_text(setup(ONE_EACH, ply=0)), "f1-e1, f11-e11")
    assert not state.is_over
    state = state.play("e1-f1")
    assert state.result == (0.5, 0.5) and state.end_reason == "ply cap"


def test_first_player_black() -> None:
    state = horsmeier(first_player="black").new_game()
    assert state.to_move == 0 and state.seat_label(0) == "Black" and state.seat_label(1) == "White"
    assert "f7-f6" in [str(m) for m in state.legal_moves()]
    assert state.to_text().endswith(" b 0")
    won = horsmeier(first_player="black").from_text(setup({"a2": "1b11", "k5": "1w11"}, to_move="b")).play("a2-a1")
    assert won.result == (1.0, 0.0)  # seat 0, Black, wins


# -- notation, positions, options -----------------------------------------------------------------


@pytest.mark.parametrize("text", ["f5-f6", "f5f6", "F5 F6", " f5 - f6 ", "f5n", "F5N", "f5 north", "f5up"])
def test_moves_are_read_as_people_type_them(text: str) -> None:
    assert str(horsmeier().new_game().parse_move(text)) == "f5-f6"


@pytest.mark.parametrize("text, error, message", [
    ("hello", boardlab.InvalidMove, "not a move; a move is the square moved from and the square moved to"),
    ("f5x", boardlab.InvalidMove, "not a move"),
    ("f5-z5", boardlab.InvalidMove, "there is no square z5 on this board"),
    ("f5-f7", boardlab.IllegalMove, "one square left, right, forward or back"),
    ("f5-g6", boardlab.IllegalMove, "one square left, right, forward or back"),
    ("b1s", boardlab.IllegalMove, "that step leaves the board"),
    ("a1-a2", boardlab.IllegalMove, "there is no piece on a1"),
    ("f7-f6", boardlab.IllegalMove, "the piece on f7 is Black's; White is to move"),
    ("f1-f2", boardlab.IllegalMove, r"f2 is occupied \(physical block\)"),
])
def test_bad_moves_say_why(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        horsmeier().new_game().play(text)


@pytest.mark.parametrize("options", [{}, {"upgrade_rule": "since_last_change"}, {"expiry_rule": "degrade_each_turn"}])
def test_position_text_round_trips_exactly(options: dict) -> None:
    state = play(horsmeier(**options).new_game(), "f5-f6, f7-g7, f6-e6, d9-d8")
    again = horsmeier(**options).from_text(state.to_text())
    assert again.to_text() == state.to_text() and str(again) == str(state)
    assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_reference_rows_are_shown_and_written_under_other_upgrade_rules() -> None:
    state = horsmeier(upgrade_rule="since_last_change").new_game().play("b1-b2")
    assert pieces(state)["b2"] == "2w11^2" and pieces(state)["d1"] == "1w10^1"
    assert "Upgrades count from (row on the owner's side): b11 1," in str(state)


@pytest.mark.parametrize("text, message", [
    ("11/11 w 0", "the board has 11 rows, not 2"),
    (setup({"a1": "1w11", "k11": "1b11"}).replace("1w11,10", "1w11,11"), "row 1 has 12 squares, not 11"),
    (setup({"a1": "4w11", "k11": "1b11"}), "has strength 4; strengths are 1, 2, 3, 5 and 8"),
    (setup({"a1": "1w12", "k11": "1b11"}), "has life span 12; accepted: 1 to 11"),
    (setup({"a1": "1w0", "k11": "1b11"}), "has life span 0; accepted: 1 to 11"),
    (setup({"a1": "1w11^1", "k11": "1b11"}), "with upgrade_rule=band a piece takes no"),
    (setup({"a1": "1x11", "k11": "1b11"}), "row 1 has '1x11'"),
    (setup({"a1": "1w11", "k11": "1b11"}).replace(" w ", " x "), "expected w or b"),
    (setup({"a1": "1w11", "k11": "1b11"}).replace(" 10", " ten"), "the ply is 'ten'"),
    (setup({"a1": "1w11", "k11": "1b11"}, ply=401), "ply 401 is past the ply cap 400"),
    (setup({"a1": "1w11", "k11": "1b11"}) + " bogus", "unexpected 'bogus'"),
    (setup({"a1": "1w11"}), r"the game is over here \(no-pieces\), so end:no-pieces is needed"),
    (setup({"a11": "1w11", "k11": "1b11"}, to_move="b"), r"the game is over here \(far-row\)"),
    (setup({"a11": "1w11", "k11": "1b11"}, to_move="w") + " end:far-row", "White moved last and cannot be to move"),
    (setup({"a11": "1w11", "a1": "1b11"}, to_move="b"), "both colours have a piece on the far row"),
    (setup({}), "neither colour has a piece"),
    (setup({"a1": "1w11", "k11": "1b11"}) + " end:ply-cap", r"end:ply-cap does not fit this position \(the game goes"),
    (setup({f"{f}{r}": "1w11" for f in "abcdef" for r in (1, 2)} | {"k11": "1b11"}), "White has more than 11 pieces"),
])
def test_malformed_positions_are_rejected_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(boardlab.PositionError, match=message):
        horsmeier().from_text(text)


def test_a_reference_row_is_needed_under_other_upgrade_rules() -> None:
    with pytest.raises(boardlab.PositionError, match="with upgrade_rule=from_own_start a piece needs"):
        horsmeier(upgrade_rule="from_own_start").from_text(setup({"a1": "1w11", "k11": "1b11"}))


@pytest.mark.parametrize("options, message", [
    ({"upgrade_rule": "fib"}, "accepted: one of band, since_last_change, from_own_start"),
    ({"ply_cap": 0}, "ply_cap=0 is out of range; accepted: an integer from 1 to 10000"),
    ({"first_player": "red"}, "accepted: one of white, black"),
])
def test_bad_options_say_what_is_accepted(options: dict, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message):
        horsmeier(**options)


def test_repr_pastes_back() -> None:
    state = horsmeier(ply_cap=100).new_game().play("f5-f6")
    assert repr(state).startswith("boardlab.load('horsmeier', ply_cap=100).from_text('1,1b11,")
    assert eval(repr(state), {"boardlab": boardlab}) == state


def test_under_the_band_rule_no_piece_is_stronger_than_its_row() -> None:
    # rules-notes §6.4: every strength-n piece starts on own-side row n; an upgrade needs row 2n,
    # a retreat below n degrades, expiry only lowers strength: so n <= own-side row always.
    import random

    game = horsmeier()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game()
        while not state.is_over:
            for square, piece in pieces(state).items():
                row = int(square[1:]) if piece[1] == "w" else 12 - int(square[1:])
                assert int(piece[0]) <= row, f"{piece} on {square} at ply {state.ply}"
            state = state.play(rng.choice(state.legal_moves()))


def test_a_terminal_game_shows_strengths_and_life_spans() -> None:
    from boardlab.ai import RandomAgent
    from boardlab.cli.play import PlaySession

    typed = iter(["f5n", "pass", "quit"])
    shown: list[str] = []

    def read(prompt: str) -> str:
        shown.append(prompt)
        return next(typed)

    session = PlaySession(horsmeier().new_game(), {0}, {1: RandomAgent(seed=1)}, ["me", "random"],
                          read=read, write=shown.append)
    assert session.run() == 0
    text = "\n".join(shown)
    assert "Last move: White f5-f6" in text and "|5w11|" in text and "|3w10|" in text
    assert "Not played: pass: passing is allowed only when no move is legal" in text
    assert "White> " in shown and session.state.ply == 2
