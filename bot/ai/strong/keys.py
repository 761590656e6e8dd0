"""Hashable keys of action dicts, shared by the tree search and the exact endgame."""

from __future__ import annotations

from collections.abc import Iterable

from bot.ai.policy import Action

#: Keys of an engine's shared action dicts (module-level, read-only, never freed), by ``id``.
_SHARED: dict[int, tuple] = {}


def action_key(action: Action) -> tuple:
    """A hashable canonical form of an action dict.

    Equivalent to ``json.dumps(action, sort_keys=True)`` as a key (sorted keys, lists as
    tuples), and several times cheaper, which matters: keys are taken at every tree step. The
    keys of dicts registered by ``share_keys`` are looked up instead of computed.
    """
    key = _SHARED.get(id(action))
    if key is not None:
        return key
    return tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in action.items()))


def share_keys(actions: Iterable[Action]) -> None:
    """Compute once the keys of action dicts that live as long as the program and never change
    (an engine's shared action tables, such as the Maître's): their ``id`` is never reused."""
    for a in actions:
        _SHARED[id(a)] = tuple(sorted((k, tuple(v) if type(v) is list else v) for k, v in a.items()))
