"""A local Discord stand-in for tests: the real discord.py client talks to it over 127.0.0.1."""

from tests.discord_stub.model import EPHEMERAL, Call, Channel, Guild, Interaction, Message, User
from tests.discord_stub.stub import DiscordStub

__all__ = ["EPHEMERAL", "Call", "Channel", "DiscordStub", "Guild", "Interaction", "Message", "User"]
