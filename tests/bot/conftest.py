"""Fixtures for the bot tests: the Discord stand-in and a running Tapis bot on a SQLite file."""

from tests.discord_stub.fixtures import clock, errors, pg, players, run, sharded, stub, tapis  # noqa: F401
