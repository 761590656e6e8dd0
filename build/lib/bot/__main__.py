"""``python -m bot [--config PATH]``: load the config, open the store, run the bot until stopped.

A missing ``DISCORD_TOKEN`` or a bad config prints one line on stderr and exits with code 2.
``python -m bot play GAME [--seats N] …`` plays a session in the terminal against AI seats
instead (no Discord, no token; see ``bot/play.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

EXIT_CONFIG = 2
log = logging.getLogger("bot")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Tapis Discord bot.")
    parser.add_argument("--config", metavar="PATH", default=None,
                        help="TOML config file (default: ./config.toml if present)")
    return parser.parse_args(argv)


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
                        datefmt="%Y-%m-%d %H:%M:%S")
    logging.getLogger("discord.http").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(config: object) -> None:
    """Open the store, build the services and the bot, and run until the bot stops."""
    from bot.app import TapisBot
    from bot.store.db import Database
    from bot.store.ledger import Ledger
    from bot.tables import TableService

    db = await Database.open(config.database)  # type: ignore[attr-defined]
    try:
        ledger = Ledger(db, config)  # type: ignore[arg-type]
        tables = TableService(db, ledger, config)
        try:
            async with TapisBot(config, db, ledger, tables) as bot:  # type: ignore[arg-type]
                await bot.start(config.token)  # type: ignore[attr-defined]
        finally:
            await tables.close()
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:
        from bot.play import main as play_main

        return play_main(argv[1:])
    from bot.config import ConfigError, load_config

    args = parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"tapis: bad configuration: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if not config.token:
        print("tapis: DISCORD_TOKEN is not set: export the bot token in the environment", file=sys.stderr)
        return EXIT_CONFIG
    setup_logging(config.log_level)
    try:
        asyncio.run(run(config))
    except KeyboardInterrupt:
        log.info("stopped")
    except Exception as exc:
        import discord

        if isinstance(exc, discord.LoginFailure):
            print(f"tapis: Discord refused the token: {exc}", file=sys.stderr)
            return EXIT_CONFIG
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
