"""Hints where no other person plays (a hot-seat table) and on the analysis board of a finished game,
never against another person; a hot-seat table's draw; how a replayed record's end is told; the live
clock, ticking for a spectator between the server's events. In a real browser."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

import boardlab
from boardlab import records
from tests.web.play import IDLE, new_game

SMALL = {"size": 3, "length": 3}


def _targets(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("#board [data-target]", "cells => cells.map(c => c.dataset.cell)"))


def test_a_hot_seat_table_has_hints_and_agrees_a_draw_but_a_game_against_a_friend_has_none(
        server: Any, context: Any) -> None:
    page = context.new_page()
    new_game(page, server.url, "ndengrod", SMALL, opponent="hotseat")
    page.wait_for_selector("#board [data-target]")
    page.wait_for_selector(IDLE)
    assert page.locator("#hint").is_visible()
    page.click("#hint")
    page.wait_for_selector("#hints .hint-move")
    hinted = page.locator("#hints .hint-move").all_inner_texts()
    assert 1 <= len(hinted) <= 3 and set(hinted) <= _targets(page)
    assert "for x" in page.locator("#hints").inner_text()
    page.locator("#hints .hint-move").first.click()  # a hinted move, played
    page.wait_for_selector("#board[data-ply='1']")
    page.wait_for_selector(IDLE)
    assert page.locator("#hints .hint-move").count() == 0  # the old position's hint is gone
    assert "0 on the board" in page.locator("#seats li[data-seat='1']").inner_text()  # none of o's yet
    page.click("#hint")  # now for the other person at the table
    page.wait_for_selector("#hints .hint-move")
    assert "for o" in page.locator("#hints").inner_text()
    # At the table a takeback is granted at once: the last move (x's) goes, and x is to move again.
    page.click("#undo")
    page.wait_for_selector("#board[data-ply='0']")
    page.wait_for_selector(IDLE)
    assert page.locator("#seats li[data-seat='0']").get_attribute("class") == "to-move"
    assert page.locator("#moves li").count() == 0
    # The two at the table agree to a draw with one offer.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#draw")
    page.wait_for_selector("#status[data-status=finished]")
    assert "Draw by agreement" in page.locator("#status").inner_text()

    # A game against a friend (an invitation link): this browser holds one seat only; no hint.
    game_id = new_game(page, server.url, "ndengrod", {}, opponent="link")
    page.wait_for_selector("#board [data-target]")
    page.wait_for_selector(IDLE)
    assert page.locator("#hint").is_hidden()
    asked = page.evaluate("""async (id) => {
        const tokens = JSON.parse(localStorage.getItem("boardlab.seats"))[id];
        const answer = await fetch(`/api/games/${id}/hint`, {method: "POST", headers: {"X-Seat-Token": tokens[0],
            "Content-Type": "application/json"}, body: JSON.stringify({seat: 0})});
        return [Object.keys(tokens), answer.status, (await answer.json()).detail];
    }""", game_id)
    assert asked[0] == ["0"] and asked[1] == 403 and "against another person" in asked[2]


def test_an_uploaded_resigned_record_is_an_analysis_board_with_hints(server: Any, context: Any,
                                                                    tmp_path: Path) -> None:
    state = boardlab.load("ndengrod", **SMALL).new_game().play("b2").play("a1")
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    record.update(result=[1, 0], termination="resignation")
    upload = tmp_path / "resigned.json"
    upload.write_text(json.dumps(record), encoding="utf-8")
    page = context.new_page()
    page.goto(f"{server.url}/new")
    page.set_input_files("#upload [name=record]", str(upload))
    page.click("#upload button[type=submit]")
    page.wait_for_url(f"{server.url}/games/*")
    page.wait_for_selector("#status[data-status=finished]")
    page.wait_for_selector(IDLE)
    assert page.locator("#status").inner_text() == "Game over: guest (x) won (guest (o) resigned)."
    caption = page.locator("#board svg").text_content()  # the board's own words agree: nobody's turn
    assert "Game over: guest (x) won (guest (o) resigned)." in caption and "your turn" not in caption
    # One move back: the page says where it is and how the game ended, and the computer analyses it.
    page.click("#moves button[data-ply='1']")
    page.wait_for_selector("#board[data-ply='1']")
    page.wait_for_selector(IDLE)
    assert page.locator("#status").inner_text() == \
        "After move 1 of 2: o to move. Game over: guest (x) won (guest (o) resigned)."
    caption = page.locator("#board svg").text_content()
    assert "o to move (seat 1), ply 1" in caption and "your turn" not in caption
    # The move list still holds every move, the one shown marked: the next position is a click away.
    assert page.locator("#moves li").count() == 2
    assert page.locator("#moves button.current").get_attribute("data-ply") == "1"
    assert page.locator("#hint").is_visible()
    page.click("#hint")
    page.wait_for_selector("#hints .hint-move")
    assert "for o, after move 1" in page.locator("#hints").inner_text()
    hinted = set(page.locator("#hints .hint-move").all_inner_texts())
    legal = {m.text for m in boardlab.load("ndengrod", **SMALL).new_game().play("b2").legal_moves()}
    assert hinted and hinted <= legal
    assert page.locator("#hints button").count() == 0  # analysis: shown, not played
    # From here, a new board where this browser plays every seat: o's move, a hint, the rest of the game.
    finished_url = page.url
    page.click("#analyse")
    page.wait_for_url(lambda url: url != finished_url and "/games/" in url)
    page.wait_for_selector("#board[data-ply='1'] [data-target]")
    page.wait_for_selector(IDLE)
    assert page.locator("#status").get_attribute("data-status") == "active"
    assert page.locator("#moves li").count() == 1 and page.locator("#analyse").is_hidden()
    assert _targets(page) == legal and page.locator("#hint").is_visible()
    page.locator("#board [data-target]").first.click()
    page.wait_for_selector("#board[data-ply='2']")
    record = httpx.get(f"{server.url}/api/games/{page.url.rsplit('/', 1)[1]}/record").json()
    assert record["moves"][0] == "b2" and len(record["moves"]) == 2 and record["result"] is None


def test_the_live_clock_ticks_for_a_spectator_and_follows_the_moves(server: Any, context: Any) -> None:
    created = httpx.post(f"{server.url}/api/games", json={
        "game": "ndengrod", "options": SMALL, "seats": [{"kind": "guest"}, {"kind": "guest"}],
        "time": {"kind": "live", "minutes": 1, "increment": 5}}).json()
    game_id, first = created["game"]["id"], created["invitations"]["0"]
    page = context.new_page()
    page.clock.install()  # the page's own time, moved forward by the test: no waiting
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("#board svg")
    page.wait_for_selector(IDLE)

    def clock(seat: int) -> int:
        minutes, seconds = page.locator(f"#seats li[data-seat='{seat}'] .clock").inner_text().split(":")
        return int(minutes) * 60 + int(seconds)

    assert "live, 1 min + 5 s" in page.locator("#seats").inner_text()
    start = clock(0)
    assert 50 <= start <= 60 and clock(1) == 60
    page.clock.run_for(10_000)
    assert clock(0) <= start - 9 and clock(1) == 60  # the side to move ticks down; the other waits
    moved = httpx.post(f"{server.url}/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"},
                       headers={"X-Seat-Token": first})
    assert moved.status_code == 201
    after = {c["seat"]: c["remaining_seconds"] for c in moved.json()["clocks"]}
    page.wait_for_selector("#seats li[data-seat='1'].to-move")  # the server's event reached the page
    page.wait_for_selector(IDLE)
    assert abs(clock(0) - after[0]) <= 1 and after[0] > 60 - 10  # seat 0's time, with its increment
    before = clock(1)
    page.clock.run_for(7_000)
    assert clock(1) <= before - 6 and abs(clock(0) - after[0]) <= 1


def test_the_last_moves_captures_are_flagged_and_each_seats_pieces_counted(server: Any, context: Any,
                                                                         tmp_path: Path) -> None:
    state = boardlab.load("gtbm", size=4).new_game()
    for move in ("b1-a2", "c4-d3", "a2-b3", "d4-c3", "b3-c4xc3"):  # the last takes White's c3
        state = state.play(move)
    upload = tmp_path / "gtbm.json"
    upload.write_text(json.dumps(records.GameRecord.from_state(state, players=["a", "b"]).to_dict()),
                      encoding="utf-8")
    page = context.new_page()
    page.goto(f"{server.url}/new")
    page.set_input_files("#upload [name=record]", str(upload))
    page.click("#upload button[type=submit]")
    page.wait_for_url(f"{server.url}/games/*")
    page.wait_for_selector("#board[data-ply='5']")
    page.wait_for_selector(IDLE)
    # On the board: the captured cell flagged (a shape, with its words), the move's own cells marked.
    assert page.locator("#board [data-cell='c3'] .mark-flag").count() == 1
    assert page.locator("#board .mark-flag").count() == 1
    flag_title = page.locator("#board [data-cell='c3'] title").first.text_content()
    assert "captured by the last move: White piece" in flag_title
    assert page.locator("#board [data-cell='c4'] .mark-last").count() == 1
    assert page.locator("#captures").inner_text() == "Captured by the last move (1): c3 (White piece)"
    start = boardlab.load("gtbm", size=4).new_game()
    white_at_start = sum(1 for cell in start.game.cell_contents(start.view(None)) for p in cell.pieces if p.seat == 1)
    assert f"{white_at_start - 1} on the board" in page.locator("#seats li[data-seat='1']").inner_text()
    # One move back, nothing had been taken yet.
    page.click("#moves button[data-ply='4']")
    page.wait_for_selector("#board[data-ply='4']")
    page.wait_for_selector(IDLE)
    assert page.locator("#board .mark-flag").count() == 0 and page.locator("#captures").inner_text() == ""
    assert f"{white_at_start} on the board" in page.locator("#seats li[data-seat='1']").inner_text()
