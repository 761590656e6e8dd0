"""The repository stands on its own: its docs/ copies of the shared design and rules specs are
identical to the workspace's ``../shared`` originals, and the README links only to files in the
repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
COPIES = {"docs/DESIGN.md": "DESIGN.md", **{f"docs/rules/{g}.md": f"rules/{g}.md"
                                            for g in ("motz", "mus", "marias", "michigan", "maitre")},
          **{f"tests/discord_stub/discord_api/{name}": f"discord-api/{name}"
             for name in ("openapi.json", "LICENSE", "README.md")}}


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_docs_copy_matches_the_shared_original(copy: str) -> None:
    mine = (ROOT / copy).read_text(encoding="utf-8")
    original = SHARED / COPIES[copy]
    if not original.exists():
        pytest.skip("no ../shared workspace next to this clone (nothing to compare with)")
    assert mine == original.read_text(encoding="utf-8"), f"{copy} differs from ../shared/{COPIES[copy]}"


def test_readme_links_stay_inside_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)\)", readme)
    assert targets
    for target in targets:
        if target.startswith("http"):
            continue
        assert not target.startswith(".."), target
        assert (ROOT / target).exists(), f"README links to a missing {target}"
