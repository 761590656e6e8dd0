"""The one error a player may see from a table."""


class TableError(Exception):
    """A refused table operation; ``str(exc)`` is a sentence for the player (shown ephemerally)."""
