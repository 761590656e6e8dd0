"""The one error a player may see from a table, and the wording of its refusals."""

STALE = "Those buttons are out of date: the table has moved on. Use the latest message or /hand."


class TableError(Exception):
    """A refused table operation; ``str(exc)`` is a sentence for the player (shown ephemerally)."""


def sentence(text: str) -> str:
    """A rules or options message as a player-facing sentence (capital first, final stop)."""
    text = text.strip()
    if not text:
        return "That move is not allowed."
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
