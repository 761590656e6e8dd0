"""Fixtures for the tournament tests: the Discord stand-in and a running Tapis bot."""

from tests.discord_stub.fixtures import errors, pg, players, sharded, stub, tapis  # noqa: F401
