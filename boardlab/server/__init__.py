"""``boardlab serve``: a game server for correspondence and live play (FastAPI, SQLAlchemy, Alembic).

Layers, each a small module: :mod:`.config` (settings), :mod:`.db` (engine, sessions), :mod:`.models`
(tables), :mod:`.migrate` and ``migrations/`` (Alembic), :mod:`.accounts`, :mod:`.play` (the rules of
the server: challenges, moves, draws, takebacks, timeouts), :mod:`.clocks`, :mod:`.views` (what a seat
is sent), :mod:`.events` (live updates), :mod:`.ai` (the computer's worker processes), :mod:`.mail`
and :mod:`.notices`, :mod:`.service` (transactions and what follows a change), ``routes/`` (thin
FastAPI routers) and :mod:`.app` (the application factory).
"""
