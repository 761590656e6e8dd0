"""Names shown to others keep their direction to themselves (``without_direction``)."""

from __future__ import annotations

import re

#: Unicode's explicit direction controls (embeddings, overrides, isolates: U+202A–U+202E, U+2066–U+2069).
#: In a name, one reorders the rest of the line it is shown on (a right-to-left override after a name
#: shows "… wins 120 jetons" as "snotej 021 sniw …"), in the table message others read; a name never
#: needs them (right-to-left scripts are laid out without them).
_DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")


def without_direction(text: str) -> str:
    """``text`` without explicit direction controls (``_DIRECTION``), for a name shown to others."""
    return _DIRECTION.sub("", text)
