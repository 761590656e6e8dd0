"""``python -m tests.discord_stub.shard_process PORT DATABASE SHARD COUNT``: a real bot process for
one shard, as ``python -m bot --shards SHARD --shard-count COUNT`` runs it (``bot.__main__.run``:
shard lock, store, owned tables, forwarded DM clicks), pointed at the stand-in on 127.0.0.1:PORT."""

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import replace


def main(argv: list[str]) -> int:
    import os

    import discord
    import yarl

    from bot.__main__ import run
    from bot.sharding import ShardPlan
    from bot.signing import SECRET_ENV
    from tests.discord_stub.sharding import TEST_SECRET
    from tests.discord_stub.tapis import TEST_CONFIG

    port, database, shard, count = argv[0], argv[1], int(argv[2]), int(argv[3])
    os.environ.setdefault(SECRET_ENV, TEST_SECRET.decode())  # every test process: the same secret
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    config = replace(TEST_CONFIG, database=database, shards=ShardPlan((shard,), count), token="stub-token")
    return asyncio.run(run(config))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
