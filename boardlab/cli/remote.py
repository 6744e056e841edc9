"""``boardlab remote``: the play-by-mail commands, as a client of a boardlab server's API.

The token is kept in ``$XDG_CONFIG_HOME/boardlab/remote.json`` (default ``~/.config/boardlab/``),
readable by its owner only. Everything printed about a game is what the server sent for the
user's own seat: the board is drawn on the server from that seat's view.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.core.options import parse_assignments
from boardlab.errors import BoardlabError
from boardlab.server.status import GameStatus

if TYPE_CHECKING:
    import httpx

DEFAULT_SERVER = "http://127.0.0.1:8000"
AI_NAMES = {"computer": "level3", **{f"level{n}": f"level{n}" for n in range(1, 6)}, "random": "random"}


class RemoteError(BoardlabError):
    """The server refused a request, or could not be reached."""


def add_arguments(commands: argparse._SubParsersAction) -> None:
    remote = commands.add_parser("remote", help="play on a boardlab server (the play-by-mail commands)")
    remote.add_argument("--server", metavar="URL", help=f"the server (default: the last one logged in to, "
                        f"$BOARDLAB_SERVER, or {DEFAULT_SERVER})")
    actions = remote.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, text in (("register", "make an account (and log in)"), ("login", "log in; the token is kept")):
        sub = actions.add_parser(name, help=text)
        sub.add_argument("name", nargs="?", help="your user name (asked if left out)")
        if name == "register":
            sub.add_argument("--email", help="for e-mail notices, if the server sends them")
    challenge = actions.add_parser("challenge", help="challenge people (or the computer) to a game")
    challenge.add_argument("game", help="game id (see `boardlab games`)")
    challenge.add_argument("players", nargs="+", metavar="PLAYER",
                           help="the players in seat order: user names (yours for your seat), 'computer' or "
                                "level1…level5 for the computer, 'anyone' for an open seat; one name alone: "
                                "you take seat 0 against them")
    challenge.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="a rules option")
    challenge.add_argument("--variant", metavar="NAME", help="a named rule set")
    challenge.add_argument("--days", type=int, help="correspondence: days per move (the default between people: 3; "
                           "against the computer alone: untimed)")
    challenge.add_argument("--rated", action="store_true", help="a rated game (Glicko-2): you and one other "
                           "registered person; casual without it")
    challenge.add_argument("--live", metavar="MIN+INC", help="a live game: minutes each, plus seconds a move (5+3)")
    for name, text in (("accept", "accept a challenge"), ("decline", "decline a challenge"),
                       ("resign", "resign a game"), ("board", "show a game as your seat sees it"),
                       ("watch", "print each move as it is made, until the game ends"),
                       ("record", "print the game's record (JSON): yours until the end, the full one after")):
        sub = actions.add_parser(name, help=text)
        sub.add_argument("game_id", type=int, metavar="GAME_ID")
    move = actions.add_parser("move", help="make a move")
    move.add_argument("game_id", type=int, metavar="GAME_ID")
    move.add_argument("move", nargs="+", metavar="MOVE", help="the move in the game's notation")
    actions.add_parser("games", help="your games, those waiting for you first")
    actions.add_parser("logout", help="forget the token (and end the session on the server)")


# -- the token file ---------------------------------------------------------------------------------


def config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "boardlab" / "remote.json"


def load_config() -> dict[str, Any]:
    path = config_path()
    if not path.exists():
        return {"servers": {}}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RemoteError(f"cannot read {path}: {error}; delete it and log in again") from None
    return data if isinstance(data, dict) and isinstance(data.get("servers"), dict) else {"servers": {}}


def save_config(data: dict[str, Any]) -> None:
    """Write the token file readable by its owner only (0600), created so from the start."""
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IRUSR | stat.S_IWUSR)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2)
    os.chmod(temporary, stat.S_IRUSR | stat.S_IWUSR)
    temporary.replace(path)


# -- talking to the server --------------------------------------------------------------------------


class Client:
    def __init__(self, server: str, token: str | None) -> None:
        self.server = server.rstrip("/")
        import httpx  # here, not at the top: every `boardlab` command would pay for it

        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=self.server, headers=headers, timeout=30)

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        import httpx

        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.HTTPError as error:
            raise RemoteError(f"cannot reach the server at {self.server}: {error}") from None
        # This client signs with its token. A session cookie kept (registering sets one) would make its next
        # requests look like a browser's, which the server refuses without an Origin header.
        self.http.cookies.clear()
        if response.status_code >= 400:
            raise RemoteError(_detail(response))
        return response.json() if response.content else None


def _detail(response: httpx.Response) -> str:
    try:
        detail = response.json().get("detail")
    except ValueError:
        detail = response.text.strip()[:200]
    if isinstance(detail, list):  # a request the API's schema refused
        detail = "; ".join(f"{'.'.join(str(p) for p in d.get('loc', [])[1:])}: {d.get('msg')}" for d in detail)
    return f"{detail} (HTTP {response.status_code})"


def _server(args: argparse.Namespace, config: dict[str, Any]) -> str:
    return (args.server or config.get("default") or os.environ.get("BOARDLAB_SERVER") or DEFAULT_SERVER).rstrip("/")


def _ask(prompt: str, secret: bool = False) -> str:
    if not sys.stdin.isatty():  # scripted: one line of standard input per question
        line = sys.stdin.readline()
        if not line:
            raise RemoteError(f"{prompt.strip(': ')} needed (none on standard input)")
        return line.rstrip("\n")
    return getpass.getpass(prompt) if secret else input(prompt)


# -- the commands -----------------------------------------------------------------------------------


def run_remote(args: argparse.Namespace) -> int:
    config = load_config()
    server = _server(args, config)
    saved = config["servers"].get(server, {})
    client = Client(server, saved.get("token"))
    action = args.action
    if action in ("register", "login"):
        return _login(args, client, config, server)
    if action == "logout":
        if saved:
            client.call("POST", "/api/logout")
            del config["servers"][server]
            save_config(config)
        print(f"Logged out of {server}.")
        return 0
    if action == "watch":
        return _watch(client, args.game_id)
    if action == "challenge":
        return _challenge(args, client, saved.get("user"))
    if action == "games":
        for game in client.call("GET", "/api/my/games"):
            print(_summary_line(game))
        return 0
    if action == "move":
        game = client.call("GET", f"/api/games/{args.game_id}")
        body = {"ply": game["ply"], "move": " ".join(args.move)}
        _print_game(client.call("POST", f"/api/games/{args.game_id}/moves", json=body))
        return 0
    if action == "record":
        print(json.dumps(client.call("GET", f"/api/games/{args.game_id}/record"), indent=2))
        return 0
    if action == "board":
        _print_game(client.call("GET", f"/api/games/{args.game_id}"))
        return 0
    paths = {"accept": "accept", "decline": "decline", "resign": "resign"}
    _print_game(client.call("POST", f"/api/games/{args.game_id}/{paths[action]}"))
    return 0


def _login(args: argparse.Namespace, client: Client, config: dict[str, Any], server: str) -> int:
    name = args.name or _ask("user name: ")
    password = _ask("password: ", secret=True)
    if args.action == "register" and _ask("password again: ", secret=True) != password:
        raise RemoteError("the two passwords differ; nothing was registered (type the same password twice)")
    if args.action == "register":
        body: dict[str, Any] = {"name": name, "password": password}
        if args.email:
            body["email"] = args.email
        client.call("POST", "/api/register", json=body)
    out = client.call("POST", "/api/login", json={"name": name, "password": password, "kind": "api"})
    config["servers"][server] = {"user": out["user"], "token": out["token"]}
    config["default"] = server
    save_config(config)
    print(f"Logged in to {server} as {out['user']}; the token is kept in {config_path()}.")
    return 0


def _challenge(args: argparse.Namespace, client: Client, me: str | None) -> int:
    if me is None:
        raise RemoteError("log in first: boardlab remote login NAME")
    names = list(args.players)
    if len(names) == 1 and names[0].lower() != me.lower():
        names = [me, *names]
    if me.lower() not in (n.lower() for n in names):
        raise RemoteError(f"name yourself ({me}) among the players, in seat order")
    seats: list[dict[str, str]] = []
    for name in names:
        lower = name.lower()
        if lower == me.lower() and not any(s.get("kind") == "me" for s in seats):
            seats.append({"kind": "me"})
        elif lower in AI_NAMES or lower.startswith(("uct:", "alphabeta:", "level")):
            seats.append({"kind": "ai", "agent": AI_NAMES.get(lower, name)})
        elif lower == "anyone":
            seats.append({"kind": "open"})
        else:
            seats.append({"kind": "user", "user": name})
    time: dict[str, Any] | None = {"kind": "correspondence", "days": args.days} if args.days else None
    if args.live:
        minutes, _, increment = args.live.partition("+")
        try:
            time = {"kind": "live", "minutes": float(minutes), "increment": float(increment or 0)}
        except ValueError:
            raise RemoteError(f"--live {args.live!r}: accepted: MINUTES+SECONDS, e.g. 5+3") from None
    body = {"game": args.game, "variant": args.variant, "options": parse_assignments(args.option or []),
            "seats": seats, "time": time, "rated": args.rated}
    created = client.call("POST", "/api/games", json=body)
    game = created["game"]
    print(f"Game {game['id']} ({game['game_name']}): {_players(game)}; {game['time']['description']}.")
    _print_game(game)
    return 0


def _players(game: dict[str, Any]) -> str:
    def rated(seat: dict[str, Any]) -> str:
        return "" if seat.get("rating") is None else f", {round(seat['rating'])}"

    return " vs ".join(f"{s['name'] or 'anyone'} ({s['label']}{rated(s)})" for s in game["seats"])


def _summary_line(game: dict[str, Any]) -> str:
    if game["invited"]:
        state = "challenge for you: boardlab remote accept " + str(game["id"])
    elif game["your_turn"]:
        state = "YOUR TURN"
    elif game["status"] == GameStatus.ACTIVE:
        state = f"seat {game['to_move']} to move"
    elif game["status"] == GameStatus.FINISHED:
        state = game["outcome"] or "over"
    else:
        state = game["status"]
    return f"#{game['id']:<5} {game['game']:<9} {_players(game):<40} ply {game['ply']:<4} {state}"


def _print_game(game: dict[str, Any]) -> None:
    view = game["view"]
    print(f"Game {game['id']} ({game['game_name']}), ply {game['ply']}: {_players(game)}")
    print(view["board"])
    print(view["description"])
    legal = view["legal_moves"]
    if legal:
        shown = " ".join(legal[:40]) + (f" … ({len(legal)} moves)" if len(legal) > 40 else "")
        print(f"Your moves: {shown}")


def _watch(client: Client, game_id: int) -> int:
    """Follow a game's live updates (Server-Sent Events), printing each move as it comes."""
    import httpx

    printed = -1
    try:
        stream = client.http.stream("GET", f"/api/games/{game_id}/events", timeout=httpx.Timeout(30, read=None))
        with stream as response:
            if response.status_code >= 400:
                response.read()
                raise RemoteError(_detail(response))
            event = ""
            for line in response.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "game":
                    game = json.loads(line[5:])
                    moves = game["view"]["moves"]
                    if printed < 0:
                        print(f"Game {game_id} ({game['game_name']}): {_players(game)}")
                        print(game["view"]["board"])
                    for move in moves[printed + 1 if printed >= 0 else len(moves):]:
                        label = game["seats"][move["seat"]]["label"]
                        print(f"{move['ply'] + 1}. {label}: {move['text']}", flush=True)
                    if printed >= 0 and len(moves) <= printed:  # a takeback
                        print(f"(moves taken back; now at ply {game['ply']})", flush=True)
                    printed = len(moves) - 1
                    print(game["view"]["description"], flush=True)
                elif line.startswith("data:") and event == "end":
                    return 0
    except httpx.HTTPError as error:
        raise RemoteError(f"lost the connection to {client.server}: {error}") from None
    return 0
