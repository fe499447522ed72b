"""The Discord layer: thin cogs that parse input, call the match service and build messages.

Everything discord-free and testable without a gateway lives in ``cogs.utils``.
"""
