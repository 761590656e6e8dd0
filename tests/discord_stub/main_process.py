"""``python -m tests.discord_stub.main_process PORT [ARGS…]``: ``python -m bot ARGS…`` as an operator
runs it (``bot.__main__.main``: config, store, logging, signals, exit codes), pointed at the stand-in
on 127.0.0.1:PORT instead of discord.com."""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    import discord
    import yarl

    from bot.__main__ import main as bot_main

    port = argv[0]
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")
    return bot_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
