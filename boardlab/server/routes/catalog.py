"""The games the server plays, with their options and variants, and the computer's levels."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from boardlab.core.info import GameInfo
from boardlab.core.registry import games, info
from boardlab.server import warmup
from boardlab.server.schemas import AgentsOut, GameInfoOut, OptionOut, VariantOut
from boardlab.server.strict_json import StrictJsonRoute

router = APIRouter(prefix="/api", tags=["catalog"], route_class=StrictJsonRoute)


def info_out(game: GameInfo) -> GameInfoOut:
    return GameInfoOut(
        id=game.id, name=game.name, designer=game.designer, year=game.year, players=list(game.players),
        summary=game.summary, rules_version=game.rules_version, perfect_information=game.perfect_information,
        options=[OptionOut(name=o.name, type=o.kind.__name__, default=o.default, allowed=o.allowed,  # type: ignore[arg-type]
                           help=o.help, choices=list(o.choices), choice_help=dict(o.choice_help),
                           minimum=o.minimum, maximum=o.maximum, ambiguity=o.ambiguity, added=o.added)
                 for o in game.options],
        variants=[VariantOut(name=v.name, options=dict(v.options), help=v.help) for v in game.variants])


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
