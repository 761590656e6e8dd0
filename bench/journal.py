"""The journal of an arena run: its plan, then one line per session as soon as it is played.

A long run (issue 32's measurement plan: hours of CPU per row) cannot count on one sitting, so
``bench/arena.py --out FILE`` writes a journal and ``--resume FILE`` finishes it; ``--part I/N``
plays one fixed slice of the plan's groups (so two cores can share a run); ``--report FILE…``
reads the statistics once every group of the plan is in. None of this can grow a run: the plan
(groups, seatings, table seeds, levels, limits) is written before the first session, a resume
replays the same command, and a report refuses parts whose plans differ, overlap or leave a gap.

Format (JSON Lines): the first line ``{"plan": …, "argv": […], "part": [I, N], "groups": [g0, g1]}``
(groups ``g0 … g1 − 1`` of the plan); then per session ``{"i": …, "seed": …, "seating": "ABA",
"a": …, "b": …, "deals": …, "actions": …, "iterations": [[A's], [B's]]}`` with ``i`` the
session's index in the whole plan. A line cut off by a killed process is dropped on resume. A
file of the former format (one JSON object ``{"plan": …, "sessions": [...]}`` written at the end
of a whole run) reads as a finished part 1/1.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Journal:
    """One journal file: a plan, the slice of groups it plays, and the sessions played so far."""

    path: str
    plan: dict[str, Any]
    argv: list[str]
    part: tuple[int, int]
    groups: tuple[int, int]
    sessions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Sessions per duplicate group."""
        return len(self.plan["seatings"])

    @property
    def first(self) -> int:
        """The plan index of the part's first session."""
        return self.groups[0] * self.size

    @property
    def expected(self) -> int:
        """How many sessions the part plays."""
        return (self.groups[1] - self.groups[0]) * self.size

    @property
    def done(self) -> bool:
        """Every session of the part is in."""
        return len(self.sessions) == self.expected


def part_groups(groups: int, part: int, parts: int) -> tuple[int, int]:
    """Groups ``g0 … g1 − 1`` of a plan of ``groups`` that part ``part`` (1-based) of ``parts`` plays."""
    if not 1 <= part <= parts or parts > groups:
        raise ValueError(f"part {part}/{parts} of {groups} groups")
    return (part - 1) * groups // parts, part * groups // parts


def parse_part(text: str) -> tuple[int, int]:
    """``"2/3"`` → ``(2, 3)`` (``ValueError`` on anything else)."""
    i, _, n = text.partition("/")
    part, parts = int(i), int(n)
    if not 1 <= part <= parts:
        raise ValueError(f"--part {text}: I/N with 1 ≤ I ≤ N")
    return part, parts


def create(path: str, plan: dict[str, Any], argv: list[str], part: tuple[int, int],
           groups: tuple[int, int]) -> Journal:
    """A new journal at ``path`` holding only its header (``FileExistsError`` if it exists)."""
    header = {"plan": plan, "argv": argv, "part": list(part), "groups": list(groups)}
    with open(path, "x", encoding="utf-8") as f:
        f.write(json.dumps(header) + "\n")
    return Journal(path, plan, argv, part, groups)


def append(journal: Journal, session: dict[str, Any]) -> None:
    """Write one played session to the journal, on disk before the next session starts."""
    if session["i"] != journal.first + len(journal.sessions):
        raise ValueError(f"session {session['i']} out of order in {journal.path}")
    with open(journal.path, "a", encoding="utf-8") as f:
        f.write(json.dumps(session) + "\n")
        f.flush()
        os.fsync(f.fileno())
    journal.sessions.append(session)


def load(path: str, repair: bool = False) -> Journal:
    """Read a journal (or a former whole-run file); a last line without its newline is not read
    (a session being written, or cut off by a kill), and ``repair`` cuts it from the file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        former = json.loads(text)
    except json.JSONDecodeError:
        former = None  # several lines: a journal
    if isinstance(former, dict) and "argv" not in former:  # the former format: part 1/1, written
        sessions = [dict(s, i=i) for i, s in enumerate(former.get("sessions", []))]  # at its end
        return Journal(path, former["plan"], [], (1, 1), (0, former["plan"]["groups"]), sessions)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:  # the last line has no newline: being written, or cut off by a kill
        lines.pop()
        if repair:
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(line + "\n" for line in lines))
    if not lines:
        raise ValueError(f"{path}: no plan line (cut off as it was created)")
    header = json.loads(lines[0])
    journal = Journal(path, header["plan"], header["argv"], tuple(header["part"]), tuple(header["groups"]))
    for line in lines[1:]:
        journal.sessions.append(json.loads(line))
    for k, s in enumerate(journal.sessions):
        if s["i"] != journal.first + k:
            raise ValueError(f"{path}: session {s['i']} where {journal.first + k} was expected")
    return journal


def whole(journals: list[Journal]) -> list[dict[str, Any]]:
    """The sessions of a plan from its parts, in plan order; ``ValueError`` unless the parts share
    one plan, are each finished, and cover every group exactly once."""
    if not journals:
        raise ValueError("no journal given")
    plan = journals[0].plan
    for j in journals[1:]:
        if j.plan != plan:
            raise ValueError(f"{j.path} is another plan than {journals[0].path}")
    unfinished = [f"{j.path} ({len(j.sessions)}/{j.expected} sessions)" for j in journals if not j.done]
    if unfinished:
        raise ValueError("unfinished: " + ", ".join(unfinished) + " — resume before reading the run")
    ordered = sorted(journals, key=lambda j: j.groups)
    at = 0
    for j in ordered:
        g0, g1 = j.groups
        if g0 != at:
            what = "overlaps" if g0 < at else "leaves a gap before"
            raise ValueError(f"{j.path} (groups {g0}–{g1 - 1}) {what} group {at}")
        at = g1
    if at != plan["groups"]:
        raise ValueError(f"the parts end at group {at} of {plan['groups']}")
    return [s for j in ordered for s in j.sessions]


def read_run(paths: list[str]) -> tuple[Journal, list[dict[str, Any]]]:
    """The first journal (its plan and command) and the sessions of a finished run, from its
    journal files (``whole``'s checks; ``ValueError`` without a file)."""
    journals = [load(p) for p in paths]
    sessions = whole(journals)  # (refuses an empty list first)
    return journals[0], sessions
