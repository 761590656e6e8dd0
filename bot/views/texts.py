"""Reply texts shown both by a slash command (``bot/cogs``) and a component handler (``bot/views``).

One place for the sentences a player reads from either path, so both say the same thing (and
issue 14 can translate them here). Functions take the few values a sentence names.
"""

from __future__ import annotations

#: Discord's limit for a message's content.
MAX_CONTENT = 2000
#: How much of what a user typed a refusal may quote back.
ECHO_CHARS = 40

GENERIC_ERROR = "Something went wrong. Please try again (check `/table status` first if you were playing)."
NO_LONGER_IN_USE = "This button is no longer in use."
LEFT_LOBBY = "You left the table; your buy-in is back in your wallet."
LEFT_PLAYING = "You left: the AI plays your seat to the end and your final stack comes back to you."


def joined(table_id: int, buy_in: int) -> str:
    return f"You joined table #{table_id}" + (f" (buy-in {buy_in} jetons)." if buy_in else ".")


def starts(table_id: int) -> str:
    return f"Table #{table_id} starts: hands come by DM (or use **My hand**)."


def not_seated(table_id: int) -> str:
    return f"You are not seated at table #{table_id}."


def not_here(table_id: int) -> str:
    """A table of another channel (or server), named without saying where it is."""
    return f"There is no table #{table_id} in this channel."


def echo(text: str, size: int = ECHO_CHARS) -> str:
    """``text`` quoted back to its author, at most ``size`` characters (``…`` marks a cut)."""
    text = " ".join(str(text).split())
    text = text if len(text) <= size else text[: size - 1] + "…"
    return "`" + text.replace("`", "ˋ") + "`"


def fit(text: str, size: int = MAX_CONTENT) -> str:
    """``text`` cut to ``size`` characters, so Discord never refuses a reply for its length."""
    return text if len(text) <= size else text[: size - 1] + "…"
