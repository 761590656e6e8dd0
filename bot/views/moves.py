"""Lay out a seat's legal actions as Discord components: buttons for short lists, selects else.

Pure functions (no discord import): the result names each control and, for every choice, the
index of the action in ``legal_actions(seat)`` at that version.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_SIZE = 25
MAX_BUTTONS = 10  # two rows of buttons at most; longer lists become selects


@dataclass
class Controls:
    """Buttons ``(label, index)`` and selects ``(placeholder, [(label, index)])``."""

    buttons: list[tuple[str, int]] = field(default_factory=list)
    selects: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)

    def rows(self) -> int:
        return -(-len(self.buttons) // BUTTONS_PER_ROW) + len(self.selects)

    def __len__(self) -> int:
        return len(self.buttons) + sum(len(opts) for _, opts in self.selects)


def layout(legal: Sequence[dict[str, Any]], label: Callable[[dict[str, Any]], str],
           rows: int = MAX_ROWS, kind_name: Callable[[str], str] | None = None) -> Controls:
    """Group ``legal`` into at most ``rows`` component rows (every action reachable if it fits).

    ``kind_name`` names a kind of move for a select's placeholder (the reader's language).
    """
    name = kind_name or (lambda kind: kind.replace("_", " ").capitalize())
    labelled = [(_clip(label(a), 80), i) for i, a in enumerate(legal)]
    if len(labelled) <= min(MAX_BUTTONS, rows * BUTTONS_PER_ROW):
        return Controls(buttons=labelled)
    by_type: dict[str, list[tuple[str, int]]] = {}
    for (text, i), action in zip(labelled, legal, strict=True):
        by_type.setdefault(str(action.get("type")), []).append((text, i))
    controls = Controls()
    small = [kind for kind, items in by_type.items() if len(items) <= 2]
    for kind in small:
        controls.buttons += by_type.pop(kind)
    if len(controls.buttons) > BUTTONS_PER_ROW:  # too many odd buttons: fold them into the selects
        by_type = {"more": controls.buttons, **by_type}
        controls.buttons = []
    for kind, items in by_type.items():
        for start in range(0, len(items), SELECT_SIZE):
            chunk = items[start:start + SELECT_SIZE]
            controls.selects.append((_placeholder(name(kind), chunk, start, len(items)), chunk))
    if controls.rows() > rows:  # still too many: one flat list of selects
        flat = [x for _, items in [("b", controls.buttons), *controls.selects] for x in items]
        flat.sort(key=lambda x: x[1])
        controls = Controls(selects=[(_placeholder(name("move"), flat[s:s + SELECT_SIZE], s, len(flat)),
                                      flat[s:s + SELECT_SIZE]) for s in range(0, len(flat), SELECT_SIZE)])
        controls.selects = controls.selects[:rows]
    return controls


def _placeholder(name: str, chunk: list[tuple[str, int]], start: int, total: int) -> str:
    if total <= SELECT_SIZE:
        return _clip(f"{name}…", 150)
    return _clip(f"{name}: {chunk[0][0]} … {chunk[-1][0]}", 150)


def _clip(text: str, size: int) -> str:
    text = text or "?"
    return text if len(text) <= size else text[: size - 1] + "…"
