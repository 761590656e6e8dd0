"""Work through a queue of journaled arena runs, one per worker: issue 32's measurement plan.

Usage (from the project root; one worker per core):
    nice -n 5 python bench/run_queue.py bench/runs/issue32/queue.txt &
    nice -n 5 python bench/run_queue.py bench/runs/issue32/queue.txt &

The runs are played by the interpreter that runs the queue. Debian's ``/usr/bin/python3`` (3.11,
built with profile-guided optimisation; the pyenv 3.11 is not) searches ≈ 10% faster with the
same decisions (``bench/search_identity.py`` fingerprints identical for all five games, journals'
sessions replayed identically by ``bench/arena.py --check``), so the workers are best started from
a venv of it: ``/usr/bin/python3 -m venv /tmp/dvenv && /tmp/dvenv/bin/pip install -e .``, then
``nice -n 5 /tmp/dvenv/bin/python bench/run_queue.py …``.

Each line of the queue is a ``bench/arena.py`` or ``research/ceiling.py`` command with ``--out
FILE`` (blank lines and ``#`` comments are skipped). A worker takes the first line nobody holds
(a lock file ``FILE.lock``, created exclusively and removed at the end; a stale one, whose process
is gone, is taken over): if FILE is a finished journal the line is skipped, if it is an
unfinished one the run is resumed (``--resume FILE``, the same plan), else the command is run.
The printed output of each run goes to ``FILE`` with ``.txt`` for ``.json``/``.jsonl``. Nothing is
ever appended to a finished run; a worker stopped at any point loses at most its session in play.
A worker reads the queue once, at its start: after editing the queue, stop the workers and start
them again. While workers run, never ``git stash`` or check out their journals: a session appended
to a file git is rewriting is lost, and the next append leaves a gap the journal refuses.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import journal  # noqa: E402  (bench/journal.py)


def out_of(command: list[str]) -> str:
    """The ``--out`` file of a queued command (``ValueError`` without one)."""
    if "--out" not in command or command.index("--out") + 1 >= len(command):
        raise ValueError(f"a queued run needs --out FILE: {shlex.join(command)}")
    return command[command.index("--out") + 1]


def state(path: str) -> str:
    """``new`` (no journal yet), ``done`` or ``unfinished``."""
    if not os.path.exists(path):
        return "new"
    try:
        return "done" if journal.load(path).done else "unfinished"
    except ValueError:  # cut off before its plan line was written: it holds nothing
        os.remove(path)
        return "new"


def claim(path: str) -> bool:
    """Hold ``path``'s run for this process (False if a live process holds it)."""
    lock = path + ".lock"
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        try:
            with open(lock, encoding="utf-8") as f:
                pid = int(f.read().strip() or 0)
            os.kill(pid, 0)
            return False  # its holder is alive
        except (ProcessLookupError, ValueError):
            os.remove(lock)  # stale: its holder is gone
            return claim(path)
        except PermissionError:
            return False
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(str(os.getpid()))
    return True


def to_run(command: list[str], path: str, status: str) -> list[str]:
    """The command that plays what the line still lacks."""
    if status == "new":
        return command
    script = command[1] if command[0].startswith("python") else command[0]
    return [command[0], script, "--resume", path]


def work(queue: str, python: str = sys.executable) -> int:
    """Run (or resume) every line of ``queue`` nobody else holds, in order; how many were run."""
    with open(queue, encoding="utf-8") as f:
        lines = [shlex.split(line) for line in f if line.strip() and not line.lstrip().startswith("#")]
    ran = 0
    for command in lines:
        path = out_of(command)
        if state(path) == "done" or not claim(path):
            continue
        try:
            status = state(path)
            if status == "done":
                continue
            argv = to_run(command, path, status)
            argv[0] = python if argv[0].startswith("python") else argv[0]
            log = os.path.splitext(path)[0] + ".txt"
            with open(log, "a", encoding="utf-8") as out:
                subprocess.run(argv, stdout=out, stderr=subprocess.STDOUT, check=False)
            ran += 1
        finally:
            os.remove(path + ".lock")
    return ran


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: bench/run_queue.py QUEUE")
    print(f"{work(args[0])} run(s) played or resumed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
