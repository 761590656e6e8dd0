"""Fixtures for the tournament tests: the Discord stand-in and a running Tapis bot."""

from tests.discord_stub.fixtures import clock, errors, pg, players, run, sharded, stub, tapis  # noqa: F401
