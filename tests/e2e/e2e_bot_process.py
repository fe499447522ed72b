"""The real bot in a process of its own, pointed at a fake Discord (the e2e cluster test).

    python e2e_bot_process.py API_BASE GATEWAY_URL     (settings from the environment)

Only the REST base and the default gateway are redirected, as ``FakeDiscord.patch_discord`` does
in-process; everything else is ``bot.run_bot`` as in production.
"""

from __future__ import annotations

import asyncio
import os
import sys

import discord.gateway
import discord.http
import yarl

import app_settings
import bot as botmod


def main() -> None:
    discord.http.Route.BASE = sys.argv[1]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])
    asyncio.run(botmod.run_bot(app_settings.from_mapping(os.environ)))


if __name__ == "__main__":
    main()
