"""Marking a determinization as a search's copy (``deal_only``: Motz, Marias, the Jeu du Maître).

A search stops at the end of the deal it searches; a copy so marked ends there instead of
shuffling and dealing the next deal, with exactly the values the search reads (each engine's
``deal_only`` says how; ``tests/ai/test_search_copies.py``). A real table never sets it.
"""

from __future__ import annotations

from typing import Protocol, TypeVar


class _EndsWithItsDeal(Protocol):
    deal_only: bool


Copy = TypeVar("Copy", bound=_EndsWithItsDeal)


def for_search(copy: Copy) -> Copy:
    """``copy`` (a redeal, never the real state) marked to end with its deal."""
    copy.deal_only = True
    return copy
