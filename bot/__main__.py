"""``python -m bot [--config PATH] [--shards 0-3 --shard-count 16]``: load the config, open the store,
run the bot until stopped.

With shards (PostgreSQL only, unless the process serves every shard), the process first takes the
advisory lock of each of its shards (waiting while another process serves one), then resumes only
its guilds' tables; losing the lock connection stops it (exit code 1), for its supervisor to restart.
Shard processes sign the DM clicks they forward to each other (``bot.signing``): without
``TAPIS_FORWARD_SECRET`` (at least 16 characters, the same in every process) they do not start.

A missing ``DISCORD_TOKEN``, a bad config or a database that cannot be used (missing directory,
not a database, a PostgreSQL server that cannot be reached, a schema newer than this code) or a
shard process without its forwarding secret prints one line on stderr and exits with code 2.
``python -m bot play GAME [--seats N] …`` plays a session in the terminal against AI seats
instead (no Discord, no token; see ``bot/play.py``). ``python -m bot admin rebuild-ratings``
recomputes every rating from the action logs and ``python -m bot admin copy-to-postgres`` carries an
SQLite club over to PostgreSQL (see ``bot/maintenance.py``). ``python -m bot invite``
prints the link that adds the bot to a server with the permissions its tables need
(``bot/permissions.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.base import Store

EXIT_CONFIG = 2
log = logging.getLogger("bot")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Tapis Discord bot.")
    parser.add_argument("--config", metavar="PATH", default=None,
                        help="TOML config file (default: ./config.toml if present)")
    parser.add_argument("--shards", metavar="IDS", default=None,
                        help="gateway shards this process serves, e.g. 0-3 or 0,2 (needs --shard-count)")
    parser.add_argument("--shard-count", metavar="N", type=int, default=None,
                        help="total number of shards of the bot (all processes)")
    return parser.parse_args(argv)


def shard_plan(args: argparse.Namespace, config: object) -> object:
    """The config with ``--shards``/``--shard-count`` applied; ConfigError if they do not fit."""
    from dataclasses import replace

    from bot.config import ConfigError
    from bot.sharding import ShardPlan, parse_shard_ids
    from bot.store.db import is_postgres_url

    plan = config.shards  # type: ignore[attr-defined]
    if args.shards is not None or args.shard_count is not None:
        count = args.shard_count if args.shard_count is not None else (plan.count if plan else None)
        if count is None:
            raise ConfigError("--shards needs --shard-count (or count in the [shards] section)")
        try:
            ids = parse_shard_ids(args.shards) if args.shards is not None else tuple(range(count))
            plan = ShardPlan(ids, count)
        except ValueError as exc:
            raise ConfigError(f"--shards: {exc}") from None
    if plan is not None and not plan.everything and not is_postgres_url(config.database):  # type: ignore
        raise ConfigError("serving only some shards needs a shared PostgreSQL database "
                          "(database = \"postgresql://…\"); SQLite serves one process with every shard")
    return replace(config, shards=plan)  # type: ignore[type-var]


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S")
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(config: object) -> int:
    """Open the store (and take the shard locks), build the services and the bot, and run until the
    bot stops; 1 if the shard locks were lost, else 0."""
    from bot.sharded import bot_class
    from bot.sharding import ShardLocks
    from bot.store.db import Database, is_postgres_url
    from bot.store.ledger import Ledger
    from bot.tables import TableService

    plan = config.shards  # type: ignore[attr-defined]
    secret = forward_secret(config)
    db = await Database.open(config.database)  # type: ignore[attr-defined]
    locks: ShardLocks | None = None
    lost = asyncio.Event()
    try:
        if plan is not None and is_postgres_url(config.database):  # type: ignore[attr-defined]
            locks = ShardLocks(config.database, plan,  # type: ignore[attr-defined]
                               on_lost=functools.partial(_locks_lost, db, lost))
            await locks.acquire()
        ledger = Ledger(db, config)  # type: ignore[arg-type]
        tables = TableService(db, ledger, config)  # type: ignore[arg-type]
        if plan is not None:
            tables.shards = (plan.ids, plan.count)
        options = plan.bot_options() if plan is not None else {}
        try:
            async with bot_class(plan)(config, db, ledger, tables, **options) as bot:
                if locks is not None:  # DM clicks for this process's tables arrive at shard 0's
                    from bot.outbox.forward import Forwarder
                    from bot.sharding import IdentifyGate

                    assert secret is not None
                    bot.forwarder = Forwarder(bot, locks, plan, secret)
                    await bot.forwarder.start()
                    bot.before_identify_hook = IdentifyGate(locks)  # one IDENTIFY per 5 s, bot-wide
                watch = asyncio.create_task(_stop_when(lost, bot))
                try:
                    await bot.start(config.token)  # type: ignore[attr-defined]
                finally:
                    watch.cancel()
        finally:
            await tables.close()
    finally:
        if locks is not None:
            await locks.release()
        await db.close()
    return 1 if lost.is_set() else 0


def forward_secret(config: object) -> bytes | None:
    """The secret that signs forwarded DM clicks, for a shard process (shards on PostgreSQL);
    None for any other process. ``bot.signing.SecretMissing`` if a shard process lacks it."""
    from bot.signing import secret_from_env
    from bot.store.db import is_postgres_url

    if config.shards is None or not is_postgres_url(config.database):  # type: ignore[attr-defined]
        return None
    return secret_from_env()


def _locks_lost(db: Store, lost: asyncio.Event) -> None:
    """The shard locks are gone: stop writing at once (another process may be resuming these
    tables: ``bot.store.fence``), then stop the bot (``_stop_when``)."""
    db.fence("this process lost its shard locks")
    lost.set()


async def _stop_when(lost: asyncio.Event, bot: object) -> None:
    await lost.wait()
    log.critical("shard locks lost: stopping (another process may now serve these shards)")
    await bot.close()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:
        from bot.play import main as play_main

        return play_main(argv[1:])
    if argv[:1] == ["admin"]:
        from bot.maintenance import main as admin_main

        return admin_main(argv[1:])
    if argv[:1] == ["invite"]:
        import os

        from bot.permissions import invite_main

        return invite_main(argv[1:], os.environ.get("DISCORD_TOKEN"))
    from bot.config import ConfigError, load_config

    args = parse_args(argv)
    try:
        config = shard_plan(args, load_config(args.config))
    except ConfigError as exc:
        print(f"tapis: bad configuration: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if not config.token:
        print("tapis: DISCORD_TOKEN is not set: export the bot token in the environment", file=sys.stderr)
        return EXIT_CONFIG
    from bot.signing import SecretMissing

    try:
        forward_secret(config)
    except SecretMissing as exc:
        print(f"tapis: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(config.log_level)
    try:
        return asyncio.run(run(config))
    except KeyboardInterrupt:
        log.info("stopped")
    except Exception as exc:
        import discord

        from bot.sharding import ShardConflict
        from bot.store.db import StoreError

        if isinstance(exc, (StoreError, ShardConflict)):
            print(f"tapis: {exc}", file=sys.stderr)
            return EXIT_CONFIG
        if isinstance(exc, discord.LoginFailure):
            print(f"tapis: Discord refused the token: {exc}", file=sys.stderr)
            return EXIT_CONFIG
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
