"""``boardlab serve`` and ``boardlab db upgrade``: run the game server; migrate its database."""

from __future__ import annotations

import argparse
import os

from boardlab.server.config import DEFAULT_DB, MAX_BODY, MAX_RECORD, Settings, SettingsError, kib


def add_arguments(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve", help="run the game server (API at /api, its documentation at /docs)")
    serve.add_argument("--db", metavar="URL", help=f"database: sqlite:///FILE (default {DEFAULT_DB}, in this "
                       f"folder) or postgresql+psycopg://USER:PASSWORD@HOST/NAME")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=1, help="server processes (more than 1 needs PostgreSQL)")
    serve.add_argument("--ai-workers", type=int, default=1, metavar="N",
                       help="processes searching the computer's moves, per server process (default 1)")
    serve.add_argument("--ai-queue", action="store_true",
                       help="queue the computer's searches in the database for `boardlab ai-worker` processes, on "
                            "this machine or others (PostgreSQL), instead of searching them here")
    serve.add_argument("--smtp", metavar="HOST:PORT",
                       help="send e-mail notices through this SMTP server (default: none)")
    serve.add_argument("--mail-from", default="boardlab@localhost", metavar="ADDRESS", help="sender of the notices")
    serve.add_argument("--base-url", metavar="URL", help="the server's address as people reach it (for links in mail)")
    serve.add_argument("--no-warm-up", action="store_true", help="do not compile every game's rules at start "
                       "(the first game of each compiles them, as it comes)")
    serve.add_argument("--max-body", type=int, default=MAX_BODY, metavar="BYTES",
                       help=f"largest request body accepted, else 413 (default {MAX_BODY} = {kib(MAX_BODY)})")
    serve.add_argument("--max-record", type=int, default=MAX_RECORD, metavar="BYTES",
                       help=f"largest body of a new game, which may carry an uploaded record (default {MAX_RECORD} "
                            f"= {kib(MAX_RECORD)})")
    serve.add_argument("--secure-cookies", action="store_true",
                       help="mark the session cookie Secure (HTTPS only): for a server reached over HTTPS. Requests "
                            "that arrive over HTTPS get it anyway, as uvicorn tells from a proxy's "
                            "X-Forwarded-Proto (see --forwarded-allow-ips)")
    serve.add_argument("--quick-move-commits", action="store_true",
                       help="PostgreSQL: do not wait for a move's commit to reach the disk (as SQLite here, whose "
                            "synchronous=NORMAL does the same): less CPU and time a move; a crash of the database "
                            "or its machine may lose the last moves made before it, never corrupt a game")
    serve.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                       help="proxies whose X-Forwarded-Proto and X-Forwarded-For are believed (comma-separated "
                            "addresses, or '*'; default: uvicorn's, 127.0.0.1, or $FORWARDED_ALLOW_IPS)")
    serve.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))

    worker = commands.add_parser("ai-worker", help="search the computer's moves queued by servers started with "
                                 "--ai-queue (PostgreSQL), on this machine")
    worker.add_argument("--db", metavar="URL", required=True, help="the servers' database (postgresql+psycopg://…)")
    worker.add_argument("--lease", type=float, default=30.0, metavar="SECONDS",
                        help="a job this worker stops renewing (it died) is taken again after this long (30)")
    worker.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"))

    db = commands.add_parser("db", help="the server's database: `boardlab db upgrade` applies the migrations")
    db.add_argument("action", choices=("upgrade", "current"), help="upgrade: migrate to the newest schema; "
                    "current: print the schema revision")
    db.add_argument("--db", metavar="URL", help=f"database URL (default {DEFAULT_DB})")


def _settings(args: argparse.Namespace, **more: object) -> Settings:
    db = args.db or os.environ.get("BOARDLAB_DB") or DEFAULT_DB
    return Settings(db_url=db, **more)  # type: ignore[arg-type]


def run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from boardlab.server import migrate

    settings = _settings(args, host=args.host, port=args.port, workers=args.workers, ai_workers=args.ai_workers,
                         smtp=args.smtp, mail_from=args.mail_from, base_url=args.base_url, max_body=args.max_body,
                         max_record=args.max_record, secure_cookies=args.secure_cookies,
                         ai_queue=args.ai_queue, warm_up=not args.no_warm_up,
                         quick_move_commits=args.quick_move_commits)
    migrate.upgrade(settings.db_url)  # once, here, before the workers start
    os.environ.update(settings.with_(migrate=False).to_env())
    print(f"boardlab serving {settings.public_url} (database {settings.db_url}, {settings.workers} "
          f"worker{'s' if settings.workers > 1 else ''}); the API's documentation is at {settings.public_url}/docs",
          flush=True)
    uvicorn.run("boardlab.server.app:app_from_env", factory=True, host=settings.host, port=settings.port,
                workers=settings.workers, log_level=args.log_level, timeout_graceful_shutdown=5,
                forwarded_allow_ips=args.forwarded_allow_ips)
    return 0


def run_db(args: argparse.Namespace) -> int:
    from boardlab.server import migrate

    settings = _settings(args)
    if args.action == "upgrade":
        migrate.upgrade(settings.db_url)
    print(f"{settings.db_url}: schema revision {migrate.current(settings.db_url)}")
    return 0


def run_ai_worker(args: argparse.Namespace) -> int:
    import logging
    import signal
    from datetime import timedelta

    from boardlab.server import jobs
    from boardlab.server.service import GameService

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    if not 1 <= args.lease <= 3600:
        raise SettingsError(f"--lease {args.lease:g} is not accepted; accepted: 1 to 3600 seconds")
    settings = Settings(db_url=args.db, ai_queue=True, background=False, warm_up=False)
    service = GameService(settings)
    worker = jobs.Worker(service, lease=timedelta(seconds=args.lease))
    signal.signal(signal.SIGTERM, lambda *_: worker.stop.set())
    print(f"boardlab ai-worker {worker.name}: taking the computer's turns from {settings.db_url}", flush=True)
    try:
        worker.run()
    except KeyboardInterrupt:
        pass
    finally:
        service.close()
    return 0
