"""Fixtures for the review's tests: the Discord stand-in and a running bot (as tests/bot)."""

from tests.discord_stub.fixtures import errors, pg, players, sharded, stub, tapis  # noqa: F401
