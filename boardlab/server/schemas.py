"""The API's vocabulary: every request and response body, as pydantic models (OpenAPI at ``/docs``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from boardlab.server.status import GameStatus

OptionValue = int | bool | str


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- accounts --------------------------------------------------------------------------------------


class RegisterRequest(Strict):
    name: str = Field(min_length=1, max_length=64, description="2–32 letters or digits of any script, '_' or '-', "
                      "starting with a letter (stored NFKC-normalised; unique ignoring case; a look-alike of a "
                      "name taken is refused)")
    password: str = Field(min_length=8, max_length=256, description="at least 8 characters")
    email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$",
                              description="for e-mail notices when the server sends them")


class LoginRequest(Strict):
    name: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=256)
    kind: Literal["session", "api"] = Field(
        default="session", description="session: a browser's cookie (expires); api: a token for scripts")


class TokenOut(BaseModel):
    user: str
    token: str
    kind: str


class UserOut(BaseModel):
    name: str
    email: str | None


class PasswordChange(Strict):
    current: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=8, max_length=256, description="at least 8 characters")


class EmailChange(Strict):
    password: str = Field(min_length=1, max_length=256)
    email: str | None = Field(default=None, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$",
                              description="null: no e-mail (no notices, no password reset by e-mail)")


class ResetRequest(Strict):
    name_or_email: str = Field(min_length=1, max_length=254, description="the account's name or its e-mail address")


class ResetConfirm(Strict):
    token: str = Field(min_length=20, max_length=100, description="the one-time token from the e-mailed link")
    password: str = Field(min_length=8, max_length=256, description="the new password: at least 8 characters")


class MessageOut(BaseModel):
    detail: str


# -- the catalogue of games -------------------------------------------------------------------------


class OptionOut(BaseModel):
    name: str
    type: Literal["int", "bool", "str"]
    default: OptionValue
    allowed: str
    help: str
    choices: list[str]
    choice_help: dict[str, str]
    minimum: int | None
    maximum: int | None
    ambiguity: str | None
    added: bool


class VariantOut(BaseModel):
    name: str
    options: dict[str, OptionValue]
    help: str


class GameInfoOut(BaseModel):
    id: str
    name: str
    designer: str
    year: int
    players: list[int]
    summary: str
    rules_version: str
    perfect_information: bool
    options: list[OptionOut]
    variants: list[VariantOut]


class AgentsOut(BaseModel):
    levels: dict[int, str]
    agents: list[str]
    help: str


# -- creating games ---------------------------------------------------------------------------------


class SeatRequest(Strict):
    """Who plays a seat: ``me``; a ``user`` by name; ``open`` to anyone who accepts; ``ai`` (an agent spec:
    level1 … level5, random, uct:seconds=1 …); ``guest`` (an invitation link with a secret seat token)."""

    kind: Literal["me", "user", "open", "ai", "guest"]
    user: str | None = Field(default=None, max_length=32, description="for kind=user")
    agent: str | None = Field(default=None, max_length=200, description="for kind=ai; default level3")


class TimeRequest(Strict):
    kind: Literal["correspondence", "live", "untimed"] = "correspondence"
    days: int = Field(default=3, ge=1, le=60, description="correspondence: days per move")
    minutes: float = Field(default=10, ge=0.05, le=600, description="live: minutes on each clock")
    increment: float = Field(default=0, ge=0, le=600, description="live: seconds added after each move")


class CreateGameRequest(Strict):
    game: str | None = Field(default=None, max_length=32, description="a game id (see /api/catalog)")
    variant: str | None = Field(default=None, max_length=64)
    options: dict[str, OptionValue] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(
        default=None, min_length=1, max_length=4,
        description="one per seat, in seat order; default: you against the computer (level 3), you first")
    time: TimeRequest | None = Field(
        default=None, description="default: untimed where one person plays (against the computer, a record "
                                  "to analyse), 3 days a move between people")
    rated: bool = Field(default=False, description="a rated game (Glicko-2): two seats, both registered people; "
                                                   "otherwise casual")
    private: bool = Field(default=False, description="not listed among the games to watch (anyone with its "
                                                     "address may still watch); games with fewer than two people "
                                                     "in them are never listed")
    record: dict[str, Any] | None = Field(
        default=None, description="a boardlab JSON record (the referee's full record) to continue or analyse: "
                                  "its game, options and moves replace game/variant/options")


class MoveRequest(Strict):
    ply: int = Field(ge=0, description="moves played before this one (the game's ply when you chose it)")
    move: str = Field(min_length=1, max_length=200, description="the move in the game's notation")
    seat: int | None = Field(default=None, ge=0, le=3, description="the seat moving (default: the one to move)")


class SeatChoice(Strict):
    seat: int | None = Field(default=None, ge=0, le=3)


class HintRequest(Strict):
    seat: int | None = Field(default=None, ge=0, le=3, description="the seat asking (one you hold)")
    ply: int | None = Field(default=None, ge=0, le=100_000,
                            description="the position after this many moves (finished games; default: now)")


class OfferRequest(Strict):
    action: Literal["offer", "accept", "decline"]
    seat: int | None = Field(default=None, ge=0, le=3)


class UndoRequest(Strict):
    action: Literal["request", "grant", "decline"]
    seat: int | None = Field(default=None, ge=0, le=3)


# -- games going out --------------------------------------------------------------------------------


class SeatOut(BaseModel):
    seat: int
    kind: str
    name: str | None = Field(description="the user's name, the agent, 'guest', or null for an open seat")
    label: str = Field(description="what the rules call this seat here (x, o, a colour)")
    accepted: bool
    rating: float | None = Field(default=None, description="rated games: the player's rating when the game began")
    rating_change: float | None = Field(default=None, description="rated games, at the end: the rating's change")


class TimeOut(BaseModel):
    kind: str
    description: str
    days_per_move: int | None
    minutes: float | None
    increment: float | None


class ClockOut(BaseModel):
    seat: int
    remaining_seconds: float | None = Field(description="live games: time left on the seat's clock, now")
    running: bool


class MoveOut(BaseModel):
    ply: int
    seat: int
    label: str = Field(description="what the rules called the mover when the move was made")
    text: str = Field(description="the move as the viewing seat knows it")
    at: datetime
    seconds: float


class ViewOut(BaseModel):
    seat: int | None = Field(description="whose view this is; null: a spectator's")
    ply: int
    to_move: int | None
    position: str = Field(description="the position as this seat may know it, in the game's position notation")
    board: str = Field(description="the board drawn as text, as this seat may see it")
    description: str
    legal_moves: list[str] = Field(description="the viewing seat's legal moves (none unless it is to move)")
    move_steps: dict[str, list[str]] = Field(
        description="for each legal move entered in several steps (a capture chain, a slide), the text after "
                    "each step, its last entry the move itself; moves of one step are not listed")
    last_move: str | None = Field(description="the last move in words, as this seat knows it ('x revealed nothing: "
                                              "the stone is placed hidden')")
    result: list[float] | None
    end_reason: str | None
    # Last, as ``view`` is GameOut's last: an answer may splice in the list's JSON, kept from the answer
    # before (boardlab.server.views.game_json).
    moves: list[MoveOut]
    # ``moves``, and where its JSON is kept (boardlab.server.views.Listed)
    _moves_json: tuple[list[MoveOut], Any] | None = PrivateAttr(default=None)


class GameOut(BaseModel):
    id: int
    game: str
    game_name: str
    variant: str | None
    options: dict[str, OptionValue]
    rules_version: str
    perfect_information: bool
    notation: str = Field(description="how moves are written, for a newcomer")
    status: Literal[GameStatus.CHALLENGE, GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.DECLINED]
    ply: int
    to_move: int | None
    result: list[float] | None
    termination: str | None
    loser: int | None
    outcome: str | None = Field(description="how the game ended, in one sentence: 'ann (x) won (bob (o) resigned)'")
    rated: bool
    private: bool
    rematch: int | None = Field(description="the game offered or played as this one's rematch")
    seats: list[SeatOut]
    time: TimeOut
    clocks: list[ClockOut]
    deadline: datetime | None
    draw_offers: list[int]
    undo_request: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    version: int
    your_seats: list[int] = Field(description="the seats the caller holds")
    can_hint: bool = Field(description="hints (the computer's top moves) are offered to the caller for the position "
                                       "shown: in a game in play with no other person in it, for the seat to move "
                                       "now; in a finished game, to anyone, wherever a seat is to move")
    view: ViewOut  # the last field (see ViewOut.moves)


class CreatedGameOut(BaseModel):
    game: GameOut
    invitations: dict[int, str] = Field(
        description="seat → secret seat token of each guest seat (shown once; pass it as X-Seat-Token or "
                    "?seat_token=)")
    links: dict[int, str] = Field(description="seat → invitation link of each guest seat")


class GameSummary(BaseModel):
    id: int
    game: str
    game_name: str
    status: str
    ply: int
    to_move: int | None
    seats: list[SeatOut]
    time: TimeOut
    deadline: datetime | None
    result: list[float] | None
    termination: str | None
    outcome: str | None = Field(description="how the game ended, in one sentence")
    rated: bool
    created_at: datetime
    finished_at: datetime | None
    your_seats: list[int]
    your_turn: bool
    invited: bool = Field(description="a challenge waiting for the caller's answer")


class LobbyOut(BaseModel):
    open_challenges: list[GameSummary]
    my_games: list[GameSummary] = Field(description="the caller's games, those waiting for the caller first")
    watch: list[GameSummary] = Field(description="public games between people, being played now")


class ArchiveOut(BaseModel):
    games: list[GameSummary] = Field(description="finished games, the latest first")
    page: int
    pages: int
    total: int


class RatingPointOut(BaseModel):
    game_id: int
    at: datetime
    before: float
    after: float


class RatingOut(BaseModel):
    game: str
    game_name: str
    rating: float
    deviation: float
    provisional: bool = Field(description="deviation above 110: the rating is not settled yet")
    games: int
    history: list[RatingPointOut] = Field(description="the rating after each rated game, oldest first")


class ProfileOut(BaseModel):
    name: str
    joined: datetime
    ratings: list[RatingOut]
    recent: list[GameSummary] = Field(description="the player's latest finished games")
    finished: int = Field(description="finished games in all")


class LeaderOut(BaseModel):
    rank: int
    name: str
    rating: float
    deviation: float
    provisional: bool
    games: int


class LeaderboardOut(BaseModel):
    game: str
    game_name: str
    players: list[LeaderOut]


class ServerStatusOut(BaseModel):
    rules_ready: dict[str, bool] = Field(
        description="game id → whether its rules (and the computer's search) are compiled and loaded; a game "
                    "not ready yet still plays, its first request waiting while it compiles")


class ComputerTurnOut(BaseModel):
    thinking: bool = Field(description="whether it is the computer's turn in this game (its search queued or running)")
    queue_place: int | None = Field(
        description="with the server's search queue (--ai-queue): 0 while a worker searches this turn, n when it is "
                    "n-th in the queue; null without a queue, or when the turn is not queued yet")


class CandidateOut(BaseModel):
    move: str
    visits: int = Field(description="playouts through the move (Monte Carlo tree search); 0 where alpha-beta "
                                    "searched it (then see depth)")
    value: float | None = Field(description="the mover's expected score after it, a draw counting half")
    depth: int | None = Field(None, description="plies alpha-beta looked ahead for the value; null for MCTS")


class HintOut(BaseModel):
    seat: int
    ply: int
    candidates: list[CandidateOut]
    line: list[str]


class ErrorOut(BaseModel):
    detail: str
