"""CPU time of one short statement on PostgreSQL by each way the server could send it, in this process.

    python bench/server_pg_statement.py              # 3000 statements a way, two rounds, a throw-away cluster
    python bench/server_pg_statement.py --count 10000 --rounds 3

The ways, in turns on one connection each (autocommit, as the move's): psycopg's cursor (what the move's
statements use from a thread), libpq's ``exec_params`` through ``psycopg.pq`` (no query conversion, no
result set-up: the floor of what psycopg's C layer costs), psycopg's asyncio cursor awaited on the event
loop (the move route's since issue 33), and the thread pool's crossing (starlette's
``run_in_threadpool``) with nothing in it, and with the cursor's statement in it. It says what is left
to win below a move's statement, not what a move costs (``bench/server_move.py``). Not a test: nothing
is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

SQL = "SELECT %(a)s::int, %(b)s::text, now(), 1.5::float8, true, '{}'::json, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"
RAW_SQL = b"SELECT $1::int, $2::text, now(), 1.5::float8, true, '{}'::json, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"
PARAMETERS = {"a": 1, "b": "x"}


def cpu_us(run: Callable[[int], None], count: int) -> float:
    began = time.process_time()
    run(count)
    return (time.process_time() - began) / count * 1e6


async def cpu_us_async(run: Callable[[int], object], count: int) -> float:
    began = time.process_time()
    await run(count)  # type: ignore[misc]
    return (time.process_time() - began) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3000, help="statements a way and round (3000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every way in turn (2)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    import psycopg
    from server_load import postgres_cluster
    from starlette.concurrency import run_in_threadpool

    with postgres_cluster() as (url, _):
        conninfo = url.replace("postgresql+psycopg://", "postgresql://", 1)
        connection = psycopg.connect(conninfo, autocommit=True)
        cursor = connection.cursor()

        def with_cursor(count: int) -> None:
            for _ in range(count):
                cursor.execute(SQL, PARAMETERS)
                cursor.fetchall()

        def with_libpq(count: int) -> None:
            pgconn = connection.pgconn
            for _ in range(count):
                pgconn.exec_params(RAW_SQL, [b"1", b"x"]).get_value(0, 0)

        async def on_the_loop(count: int) -> dict[str, float]:
            aconnection = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
            acursor = aconnection.cursor()

            async def awaited(count: int) -> None:
                for _ in range(count):
                    await acursor.execute(SQL, PARAMETERS)
                    await acursor.fetchall()

            async def crossing(count: int) -> None:
                for _ in range(count):
                    await run_in_threadpool(int)

            async def crossing_with_cursor(count: int) -> None:
                for _ in range(count):
                    await run_in_threadpool(with_cursor, 1)

            found = {}
            for name, way in (("asyncio cursor on the loop", awaited), ("thread pool, nothing in it", crossing),
                              ("thread pool, the cursor in it", crossing_with_cursor)):
                await way(50)  # warm: psycopg prepares a statement on its sixth use
                found[name] = await cpu_us_async(way, count)
            await aconnection.close()
            return found

        with_cursor(50)
        print(f"{args.count} statements a way, CPU time of this process a statement (load average "
              f"{os.getloadavg()[0]:.2f} before):")
        for _ in range(args.rounds):
            found = {"psycopg cursor": cpu_us(with_cursor, args.count),
                     "libpq exec_params (psycopg.pq)": cpu_us(with_libpq, args.count),
                     **asyncio.run(on_the_loop(args.count))}
            print("  " + ", ".join(f"{name} {value:.1f} us" for name, value in found.items()))
        print(f"  (load average {os.getloadavg()[0]:.2f} after)")
        connection.close()


if __name__ == "__main__":
    main()
