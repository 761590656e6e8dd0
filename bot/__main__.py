"""``python -m bot [--config PATH] [--shards 0-3 --shard-count 16]``: load the config, open the store,
run the bot until stopped.

With shards (PostgreSQL only, unless the process serves every shard), the process first takes the
advisory lock of each of its shards (waiting while another process serves one), then resumes only
its guilds' tables; losing the lock connection stops it (exit code 1), for its supervisor to restart.
Shard processes sign the DM clicks they forward to each other (``bot.signing``): without
``TAPIS_FORWARD_SECRET`` (at least 16 characters, the same in every process) they do not start.

A missing ``DISCORD_TOKEN``, a bad config or a database that cannot be used (missing directory,
not a database, a PostgreSQL server that cannot be reached, a schema newer than this code, a
failing migration, another bot on the same SQLite file: ``bot.store.single``), a shard process
without its forwarding secret, a token Discord refuses or a privileged intent it refuses prints
one line on stderr and exits with code 2; Discord unreachable, one line and exit code 1. SIGTERM
stops the bot cleanly (exit code 0), as Ctrl-C does.
``python -m bot play GAME [--seats N] …`` plays a session in the terminal against AI seats
instead (no Discord, no token; see ``bot/play.py``). ``python -m bot admin rebuild-ratings``
recomputes every rating from the action logs, ``python -m bot admin copy-to-postgres`` carries an
SQLite club over to PostgreSQL and ``python -m bot admin backup`` copies a running bot's SQLite file
(see ``bot/maintenance.py``). ``python -m bot invite``
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
    from bot.config import Config
    from bot.store.base import Store

EXIT_CONFIG = 2
EPILOG = """\
other commands (each has --help):
  python -m bot invite                  print the link that adds the bot to a server
  python -m bot play GAME               play a session in the terminal against the AI (no Discord)
  python -m bot admin backup DEST       copy the SQLite database safely while the bot runs
  python -m bot admin copy-to-postgres  move a stopped bot's SQLite database to PostgreSQL
  python -m bot admin rebuild-ratings   recompute every rating from the action logs

environment:
  DISCORD_TOKEN         the bot token (required; never put it in a file)
  DATABASE_URL          a postgresql:// URL that replaces the config's database
  TAPIS_FORWARD_SECRET  shard processes only: the same secret in each (16+ characters)

exit codes: 0 stopped (SIGTERM, Ctrl-C), 1 Discord unreachable or failing, shard locks lost,
2 bad configuration, token or database (one line on stderr)"""
log = logging.getLogger("bot")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Tapis Discord bot.",
                                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="PATH", default=None,
                        help="TOML config file (default: ./config.toml if present)")
    parser.add_argument("--shards", metavar="IDS", default=None,
                        help="gateway shards this process serves, e.g. 0-3 or 0,2 (needs --shard-count)")
    parser.add_argument("--shard-count", metavar="N", type=int, default=None,
                        help="total number of shards of the bot (all processes)")
    return parser.parse_args(argv)


def shard_plan(args: argparse.Namespace, config: Config) -> Config:
    """The config with ``--shards``/``--shard-count`` applied; ConfigError if they do not fit."""
    from dataclasses import replace

    from bot.config import ConfigError
    from bot.sharding import ShardPlan, parse_shard_ids
    from bot.store.db import is_postgres_url

    plan = config.shards
    if args.shards is not None or args.shard_count is not None:
        count = args.shard_count if args.shard_count is not None else (plan.count if plan else None)
        if count is None:
            raise ConfigError("--shards needs --shard-count (or count in the [shards] section)")
        try:
            ids = parse_shard_ids(args.shards) if args.shards is not None else tuple(range(count))
            plan = ShardPlan(ids, count)
        except ValueError as exc:
            raise ConfigError(f"--shards: {exc}") from None
    if plan is not None and not plan.everything and not is_postgres_url(config.database):
        raise ConfigError("serving only some shards needs a shared PostgreSQL database "
                          "(database = \"postgresql://…\"); SQLite serves one process with every shard")
    return replace(config, shards=plan)


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S")
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(config: object, source: str | None = None) -> int:
    """Open the store (and take the shard locks), build the services and the bot, and run until the
    bot stops; 1 if the shard locks were lost, else 0. ``source``: the config file, for the log."""
    from bot.sharded import bot_class
    from bot.sharding import ShardLocks, SoleLock
    from bot.stopping import OnSigterm
    from bot.store.db import Database, is_postgres_url
    from bot.store.ledger import Ledger
    from bot.store.single import hold
    from bot.tables import TableService

    plan = config.shards  # type: ignore[attr-defined]
    secret = forward_secret(config)
    own = hold(config.database)  # type: ignore[attr-defined]  # a second bot on this SQLite file: InUse
    try:
        db = await Database.open(config.database)  # type: ignore[attr-defined]
    except BaseException:
        if own is not None:
            own.release()
        raise
    if source is not None:  # logged once the database is open: a refusal before is one line alone
        log.info("config %s", source)
    log.info("database %s (%s, schema version %d)", shown_database(config.database),  # type: ignore
             db.dialect, await db.schema_version())
    locks: ShardLocks | None = None
    sole: SoleLock | None = None
    lost = asyncio.Event()
    try:
        if plan is not None and is_postgres_url(config.database):  # type: ignore[attr-defined]
            locks = ShardLocks(config.database, plan,  # type: ignore[attr-defined]
                               on_lost=functools.partial(_locks_lost, db, lost))
            await locks.acquire()
        elif is_postgres_url(config.database):  # type: ignore[attr-defined]  # one bot per database
            sole = SoleLock(config.database)  # type: ignore[attr-defined]
            await sole.acquire()
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
                with OnSigterm(bot) as sigterm:
                    try:
                        await bot.start(config.token)  # type: ignore[attr-defined]
                    except Exception:
                        if not sigterm.requested:
                            raise
                        log.debug("the start, cut short by SIGTERM", exc_info=True)
                    finally:
                        watch.cancel()
        finally:
            await tables.close()
    finally:
        for held in (locks, sole):
            if held is not None:
                await held.release()
        await db.close()
        if own is not None:
            own.release()
    return 1 if lost.is_set() else 0


def config_source(path: str | None) -> str:
    """Which file the configuration came from, for the start log (a bot started in the wrong
    directory runs on the defaults: said so)."""
    import os

    from bot.config import DEFAULT_PATH

    if path is not None:
        return os.path.abspath(path)
    if os.path.exists(DEFAULT_PATH):
        return os.path.abspath(DEFAULT_PATH)
    return f"none: no {os.path.abspath(DEFAULT_PATH)}, every key at its default"


def shown_database(database: str) -> str:
    """The database as the logs name it: an SQLite file's absolute path, a URL without its password."""
    import os

    from bot.store.db import is_postgres_url

    if is_postgres_url(database):
        from bot.store.pg import _safe_url

        return _safe_url(database)
    return os.path.abspath(database)


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
        code = asyncio.run(run(config, source=config_source(args.config)))
    except KeyboardInterrupt:
        code = 0
    except Exception as exc:
        return refused(exc, config, args.config)
    log.info("stopped")
    return code


def refused(exc: Exception, config: object, path: str | None) -> int:
    """What stopped the bot at start, as one line on stderr and an exit code; re-raises anything
    else (a bug, with its traceback)."""
    import aiohttp
    import discord

    from bot.app import DevGuildRefused
    from bot.config import DEFAULT_PATH
    from bot.sharding import ShardConflict
    from bot.store.db import StoreError

    if isinstance(exc, (StoreError, ShardConflict)):
        print(f"tapis: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(exc, discord.LoginFailure):
        print(f"tapis: Discord refused the token ({exc}): copy the bot's token from the Bot page of "
              "https://discord.com/developers/applications (Reset Token) into DISCORD_TOKEN", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(exc, DevGuildRefused):
        print(f"tapis: dev_guild_id = {exc.guild_id} in {path or DEFAULT_PATH}: Discord refused the slash "
              f"commands' sync to that server ({exc.reason}): add the bot there with the link of "
              "python -m bot invite, or remove dev_guild_id", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        print(f"tapis: {intent_refusal(config, path)}", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(exc, discord.ConnectionClosed):
        print(f"tapis: {gateway_refusal(exc.code)}", file=sys.stderr)
        return EXIT_CONFIG
    if isinstance(exc, discord.DiscordServerError):
        print(f"tapis: Discord is failing ({exc.status} {exc.text[:100]}); try again later "
              "(https://discordstatus.com)", file=sys.stderr)
        return 1
    if isinstance(exc, aiohttp.ClientConnectionError):
        print(f"tapis: cannot reach Discord ({exc}); check this host's network and DNS", file=sys.stderr)
        return 1
    raise exc


#: What Discord's fatal gateway close codes mean to the operator, and what to do.
GATEWAY_CLOSES = {
    4004: "Discord rejected the token (gateway close 4004): was it reset? export the current DISCORD_TOKEN",
    4010: "Discord refused the shard (gateway close 4010): check --shards / --shard-count",
    4011: "Discord requires sharding for this many servers (gateway close 4011): run with --shard-count N "
          "(one process serves every shard, e.g. python -m bot --shard-count 2)",
    4013: "Discord refused the gateway intents (gateway close 4013)",
}


def gateway_refusal(code: int) -> str:
    """One line for a gateway close that discord.py does not retry."""
    return GATEWAY_CLOSES.get(code, f"Discord closed the gateway connection (close code {code})")


def intent_refusal(config: object, path: str | None) -> str:
    """Discord closed the gateway with 4014: the privileged intent Tapis asks for (Server Members,
    for ``member_events``) is not enabled on the bot's page. Which, where, and the other way out."""
    from bot.config import DEFAULT_PATH
    from bot.permissions import client_id_of

    app = client_id_of(config.token or "")  # type: ignore[attr-defined]
    page = (f"https://discord.com/developers/applications/{app}/bot" if app
            else "https://discord.com/developers/applications → your application → Bot")
    return (f"Discord refused the privileged Server Members intent (member_events = true in "
            f"{path or DEFAULT_PATH}): turn on \"Server Members Intent\" under Privileged Gateway "
            f"Intents at {page}, or set member_events = false")


if __name__ == "__main__":
    sys.exit(main())
