"""Per-game table layouts and hand orders.

Each module defines ``SPANISH`` (which deck its codes belong to), ``draw(t: TableCtx)`` (the
table's centre, the seats' plates and the sidebar) and ``hand_key(view)`` (a sort key for the
seat's hand, in that game's order).
"""

from __future__ import annotations

from types import ModuleType

from bot.render.games import maitre, marias, michigan, motz, mus

LAYOUTS: dict[str, ModuleType] = {
    "motz": motz, "michigan": michigan, "mus": mus, "marias": marias, "maitre": maitre,
}
