"""Lay out a seat's legal actions as Discord components: buttons for short lists, selects else.

Pure functions (no discord import): the result names each control and, for every choice, the
index of the action in ``legal_actions(seat)`` at that version.

When the moves do not fit in Discord's five rows of components (five selects of 25 options), they
are chosen in two steps (``groups``): first a group of moves that share their kind and their first
field (the Maître's Coffre: its mineure; a card played: the card), then a move of that group, with
a way back to the groups. A group of one move is that move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

MAX_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_SIZE = 25
MAX_BUTTONS = 10  # two rows of buttons at most; longer lists become selects
BUTTON_LABEL = 80  # Discord's longest button label
OPTION_LABEL = 100  # Discord's longest select option label
#: Where a group's shared words may end.
_BREAKS = " ,:;—-–"

Label = Callable[[dict[str, Any]], str]


@dataclass
class Controls:
    """Buttons ``(label, index)`` and selects ``(placeholder, [(label, index)])``.

    With ``groups`` (the first of two steps) each index is a group's number, and ``groups[n]`` the
    indices of its moves; ``back`` (the second step) asks for a way back to the groups.
    """

    buttons: list[tuple[str, int]] = field(default_factory=list)
    selects: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)
    groups: list[list[int]] = field(default_factory=list)
    back: bool = False

    def rows(self) -> int:
        return -(-len(self.buttons) // BUTTONS_PER_ROW) + len(self.selects) + int(self.back)

    def __len__(self) -> int:
        return len(self.buttons) + sum(len(opts) for _, opts in self.selects)


def layout(legal: Sequence[dict[str, Any]], label: Label, rows: int = MAX_ROWS,
           kind_name: Callable[[str], str] | None = None) -> Controls:
    """Group ``legal`` into at most ``rows`` component rows; every action is reachable, in one step if
    they fit, else in two (``groups``: the first step's controls name groups, ``group_layout`` the second).

    ``kind_name`` names a kind of move for a select's placeholder (the reader's language).
    """
    name = kind_name or (lambda kind: kind.replace("_", " ").capitalize())
    controls = _arrange(legal, [_clip(label(a), OPTION_LABEL) for a in legal], rows, name)
    if controls.rows() <= rows:
        return controls
    groups = move_groups(legal, rows)
    entries = [legal[members[0]] for members in groups]
    labels = [[label(legal[i]) for i in members] for members in groups]
    shared = [_group_label(group) for group in labels]
    # groups their shared words do not tell apart (runs of bids): by their first and last moves
    texts = [_span(group) if len(group) > 1 and shared.count(text) > 1 else text
             for group, text in zip(labels, shared, strict=True)]
    controls = _arrange(entries, texts, rows, name)
    controls.groups = groups
    return controls


def group_layout(legal: Sequence[dict[str, Any]], label: Label, group: int, rows: int = MAX_ROWS,
                 kind_name: Callable[[str], str] | None = None) -> Controls | None:
    """The second step: the moves of group ``group`` (indices into ``legal``) and a way back, or None
    when ``legal`` needs no groups or has no such group."""
    groups = move_groups(legal, rows) if not _fits(legal, rows) else []
    if not 0 <= group < len(groups):
        return None
    members = groups[group]
    name = kind_name or (lambda kind: kind.replace("_", " ").capitalize())
    sub = [legal[i] for i in members]
    controls = _arrange(sub, [_clip(label(a), OPTION_LABEL) for a in sub], rows - 1, name)
    controls.buttons = [(text, members[i]) for text, i in controls.buttons]
    controls.selects = [(p, [(text, members[i]) for text, i in opts]) for p, opts in controls.selects]
    controls.back = True
    return controls


def needs_groups(legal: Sequence[dict[str, Any]], rows: int = MAX_ROWS) -> bool:
    """Whether ``legal`` is chosen in two steps (it does not fit in ``rows`` rows)."""
    return not _fits(legal, rows)


def move_groups(legal: Sequence[dict[str, Any]], rows: int = MAX_ROWS) -> list[list[int]]:
    """The first step's groups (indices into ``legal``, in its order): moves sharing their kind and
    their first field, or more fields if that leaves a group too large for the second step (its
    rows but one, kept for the way back), by their kind alone if that is enough; else runs of moves
    of one kind; in the end, plain runs of moves."""
    size = (rows - 1) * SELECT_SIZE
    depth = max((len(a) for a in legal), default=1)
    for d in range(depth):
        keyed: dict[tuple[str, ...], list[int]] = {}
        for i, action in enumerate(legal):
            fields = [k for k in action if k != "type"][:d]
            key = (str(action.get("type")), *(f"{k}={action[k]!r}" for k in fields))
            keyed.setdefault(key, []).append(i)
        groups = list(keyed.values())
        if len(groups) <= rows * SELECT_SIZE and all(len(g) <= size for g in groups):
            return groups
    by_kind: dict[str, list[int]] = {}
    for i, action in enumerate(legal):
        by_kind.setdefault(str(action.get("type")), []).append(i)
    runs = [kind[s:s + size] for kind in by_kind.values() for s in range(0, len(kind), size)]
    if len(runs) <= rows * SELECT_SIZE:  # runs of moves of one kind (bids), a lone pass kept apart
        return runs
    return [list(range(s, min(s + size, len(legal)))) for s in range(0, len(legal), size)]


def _fits(legal: Sequence[dict[str, Any]], rows: int) -> bool:
    return _arrange(legal, ["" for _ in legal], rows, str).rows() <= rows


def _arrange(legal: Sequence[dict[str, Any]], texts: list[str], rows: int,
             name: Callable[[str], str]) -> Controls:
    """Buttons, then selects by kind of move, then one flat list of selects (which may not fit); a
    label is cut at its control's limit (``texts`` come cut at a select option's)."""
    controls = _arrange_cut(legal, texts, rows, name)
    controls.buttons = [(_clip(text, BUTTON_LABEL), i) for text, i in controls.buttons]
    return controls


def _arrange_cut(legal: Sequence[dict[str, Any]], texts: list[str], rows: int,
                 name: Callable[[str], str]) -> Controls:
    labelled = [(text, i) for i, text in enumerate(texts)]
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
    return controls


def _group_label(labels: list[str]) -> str:
    """A group's option: its move's label if alone, else what its labels share, up to a word, and "…"
    ("Coffre: mineure 2♠, majeure…"); else its first and last labels."""
    if len(labels) == 1:
        return _clip(labels[0], 80)
    first, last = min(labels), max(labels)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    shared = first[:n]
    if not all(n == len(x) or x[n] in _BREAKS for x in (first, last)):  # a word was cut
        shared = shared[: shared.rfind(" ") + 1]
    shared = shared.rstrip(_BREAKS)
    if len(shared) >= 3:
        return _clip(shared + "…", 80)
    return _span(labels)


def _span(labels: list[str]) -> str:
    """A group's option by its first and last moves ("Bid 1 … Bid 100")."""
    return _clip(f"{_clip(labels[0], 38)} … {_clip(labels[-1], 38)}", 80)


def _placeholder(name: str, chunk: list[tuple[str, int]], start: int, total: int) -> str:
    if total <= SELECT_SIZE:
        return _clip(f"{name}…", 150)
    return _clip(f"{name}: {chunk[0][0]} … {chunk[-1][0]}", 150)


def _clip(text: str, size: int) -> str:
    text = text or "?"
    return text if len(text) <= size else text[: size - 1] + "…"
