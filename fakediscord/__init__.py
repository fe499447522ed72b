"""A local fake of Discord (gateway websocket + REST v10 on loopback) for end-to-end tests.

Used only by tests: the real bot runs against it through discord.py's own HTTP, multipart and
gateway code, while the fake enforces Discord's documented limits and plays simulated users.
"""

from fakediscord.driver import FakeInteraction, FakeUsageError
from fakediscord.model import FakeAttachment, FakeChannel, FakeMessage, FakeUser
from fakediscord.server import ErrorReply, FakeDiscord, Violation

__all__ = [
    "ErrorReply", "FakeAttachment", "FakeChannel", "FakeDiscord", "FakeInteraction", "FakeMessage",
    "FakeUsageError", "FakeUser", "Violation",
]
