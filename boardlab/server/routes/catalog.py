"""The games the server plays, with their options and variants, and the computer's levels."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from boardlab.core.info import GameInfo, info_document
from boardlab.core.registry import games, info
from boardlab.server import warmup
from boardlab.server.schemas import AgentsOut, GameInfoOut
from boardlab.server.strict_json import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["catalog"], route_class=StrictJsonRoute)


def info_out(game: GameInfo) -> GameInfoOut:
    return GameInfoOut.model_validate(info_document(game))


@router.get("/catalog", response_model=list[GameInfoOut])
def catalog() -> list[GameInfoOut]:
    return [info_out(game) for game in games()]


@router.get("/catalog/{game}", response_model=GameInfoOut)
def game_info(game: str) -> GameInfoOut:
    return info_out(info(game))


@router.get("/catalog/{game}/rules", response_class=PlainTextResponse)
def rules(game: str) -> str:
    from boardlab.docs import rules_text

    return rules_text(info(game).id)


@router.get("/agents", response_model=AgentsOut)
def agents() -> AgentsOut:
    # The levels are the search's settings: imported once the search is compiled (in a child process, soon
    # after a start), never compiled in this process (a thread of the pool waits meanwhile).
    warmup.prepare_search()
    from boardlab.ai.levels import LEVELS, NAMES

    levels = {n: f"level{n}: " + (f"{s.iterations:,} iterations" if s.iterations else f"{s.seconds:g} s")
              + " a move" for n, s in LEVELS.items()}
    return AgentsOut(levels=levels, agents=list(NAMES),
                     help="an agent spec: level1 … level5, random, uct:seconds=1,exploration=1.4, alphabeta:seconds=1")
