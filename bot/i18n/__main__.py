"""``python -m bot.i18n extract|update|check``: see ``bot.i18n.tools``."""

from __future__ import annotations

import sys

from bot.i18n import tools


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else ""
    if cmd == "extract":
        cat = tools.extract()
        print(f"{len(cat)} messages -> {tools.pot_path()}")
        return 0
    if cmd == "update":
        tools.update()
        print("updated " + ", ".join(str(tools.po_path(lang)) for lang in tools.LANGUAGES))
        return 0
    if cmd == "check":
        found = tools.check()
        print("\n".join(found) or "catalogues complete and consistent")
        return 1 if found else 0
    print("usage: python -m bot.i18n extract|update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
