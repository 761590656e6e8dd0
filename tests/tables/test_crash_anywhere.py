"""Crash anywhere: never losing a game or a jeton, never applying anything twice.

For each game, a reference run plays a short real session (the game's shortest options, two human
seats played by a deterministic chooser, one of whom leaves early on, easy AI seats, a fixed seed)
from its lobby to its end, recording the store's transactions and the statements of each. Each
crash run plays the same session on a fresh store and kills the service at sampled points: right
after a transaction's COMMIT, or inside one after its first k statements (the action row written but
not the table row, the payout and the end's rows but not the status…: the store rolls it back, and
nothing of it may remain).
Killed is what a ``kill -9`` leaves: the store is fenced at once (nothing commits after it, not even
work under way), the timers and AI drivers are dropped, nothing is written on the way out (no
``TableService.close``). A new service then opens the same store, resumes, and the session is played
on with the same chooser (one run is killed a second time, at its restart's first commit). Its end
must be the reference's: the final stacks, every account's balance and the ledger's rows, the
history, stats and rating rows, the ended status, the action log (each version once), the accounts
summing to 0, no escrow left. A lobby killed before its start may instead be refunded in full.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.rules import GAME_MODULES, GAMES
from bot.store import tables as store
from bot.store.base import Store
from bot.tables import lobby
from bot.tables.model import SeatInfo, Table
from bot.tables.replay import SessionLog, apply_logged
from tests.backends import BACKENDS, database_target
from tests.tables.conftest import BOB, CH, HOST, Clock, G, Harness

#: The session's seed (``lobby.start`` draws it at random: fixed so every run deals the same cards).
SEED = 20_261_207
#: Human seats (played by ``choose``); the rest of the game's least seats are easy AI seats.
HUMANS = ((HOST, "Ann"), (BOB, "Bob"))
#: Bob leaves once this many actions are logged (the AI plays his seat on: ``TableSession.save_seats``).
LEAVE_AT = 3
#: Random crash points per game and backend, beside the chosen ones (``crash_points``).
RANDOM_POINTS = {"sqlite": 2, "postgresql": 0}
#: Tables whose rows a session's end writes (compared without their generated ids).
END_TABLES = ("sessions", "session_seats", "stats", "ratings", "rating_changes", "seasons")
#: Generated ids: a rolled-back insert may use up a PostgreSQL sequence's value.
GENERATED = frozenset({"id", "session_id"})
#: Events that end a deal (a Mus hand, a game of it…): after one is a crash point.
DEAL_ENDS = frozenset({"deal_end", "hand_end", "game_end", "manche_end"})


class Crash(BaseException):
    """The process dies here: no handler of the service may run on (``except Exception`` does not)."""


class _Cut(Exception):
    """Raised inside a transaction body at the crash point: the store rolls the whole body back."""


#: ``Point.inside`` for a kill after every statement of the body, just before its COMMIT.
ALL = 10**9


@dataclass(frozen=True)
class Point:
    """Where a crash run dies: at transaction ``tx`` (0-based), right after its COMMIT (``inside``
    None) or inside it, after ``inside`` statements of its body (nothing of it commits)."""

    tx: int
    inside: int | None
    why: str

    def __str__(self) -> str:
        where = ("after COMMIT" if self.inside is None else "before COMMIT" if self.inside >= ALL
                 else f"inside, after {self.inside} statement(s)")
        return f"{self.why} (transaction {self.tx}, {where})"


def _name(fn: Callable[..., Any]) -> str:
    """A transaction body's name; ``action`` for the commit of a logged action."""
    inner = fn.func if isinstance(fn, functools.partial) else fn
    code = getattr(inner, "__code__", None)
    if code is not None and "append_action" in code.co_names:
        return "action"
    return str(getattr(inner, "__qualname__", type(inner).__name__))


class Statements:
    """The connection a transaction body sees: counts its statements, and fails the one after the
    first ``left`` (``_Cut``: the store rolls the body back, as a crash there would)."""

    def __init__(self, conn: Any, left: int | None = None):
        self.conn, self.left, self.count = conn, left, 0

    def _step(self) -> None:
        if self.left is not None and self.count >= self.left:
            raise _Cut(f"killed after {self.count} statement(s)")
        self.count += 1

    def execute(self, *args: Any) -> Any:
        """One statement of the body."""
        self._step()
        return self.conn.execute(*args)

    def executemany(self, *args: Any) -> Any:
        """One statement for many rows."""
        self._step()
        return self.conn.executemany(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.conn, name)


class Recorder:
    """Wraps a store's ``transaction``: names every transaction and counts its statements, and
    crashes at ``point`` if given."""

    def __init__(self, db: Store, point: Point | None = None):
        self.db, self.point, self.real = db, point, db.transaction
        self.names: list[str] = []
        self.sizes: list[int] = []
        self.hit = False
        db.transaction = self.transaction  # type: ignore[method-assign]

    async def transaction(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """The store's transaction, or the crash at ``point``."""
        if self.hit:
            raise Crash("the process is dead")
        point, n = self.point, len(self.names)
        self.names.append(_name(fn))
        self.sizes.append(0)
        here = point is not None and point.tx == n
        left = point.inside if point is not None and here else None  # None: the body runs whole

        def counted(conn: Any, *a: Any, **kw: Any) -> Any:
            statements = Statements(conn, left)
            try:
                result = fn(statements, *a, **kw)
            finally:
                self.sizes[n] = statements.count
            if left is not None:
                raise _Cut("killed before COMMIT")
            return result

        if not here:
            return await self.real(counted, *args, **kwargs)
        with contextlib.suppress(_Cut):
            await self.real(counted, *args, **kwargs)
        self.hit = True
        self.db.fence("killed")  # nothing commits after the kill, not even work under way
        raise Crash(str(point))


def choose(game: str, version: int, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A human seat's move: a function of the table's version and the seat only (so a run resumed
    after a crash chooses what the reference chose)."""
    return random.Random(f"{game}:{version}:{seat}").choice(legal)


async def open_harness(database: str, clock: Clock, config: Config, point: Point | None = None
                       ) -> tuple[Harness, Recorder]:
    """A service on ``database``, started as the bot starts (``resume_all``), with its store's
    recorder (crashing at ``point``: the start itself may be killed)."""
    h = await Harness(database, clock, config, dict(GAMES)).open()
    rec = Recorder(h.db, point)
    try:
        await h.svc.resume_all()
    except Crash:
        return h, rec
    except BaseException:
        await h.close()
        raise
    return h, rec


async def kill(h: Harness) -> None:
    """Drop the service as a ``kill -9`` does: tasks gone, nothing written on the way out."""
    svc = h.svc
    svc.rt.closed = True
    await svc.timers.close()
    for task in svc.drivers():
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
    svc.ai.close()
    with contextlib.suppress(BaseException):
        await h.db.close()


async def idle(h: Harness, rec: Recorder | None) -> None:
    """Wait for the AI drivers; ``Crash`` if one of them died in the crash."""
    await h.idle()
    if rec is not None and rec.hit:
        raise Crash("in the AI driver")


async def find_table(h: Harness, game: str) -> tuple[int, str, Table | None] | None:
    """The session's table: its id, stored status and live table (None once ended); None before it
    was created."""
    row = await h.db.fetchone("SELECT id, status FROM tables WHERE game = ? ORDER BY id LIMIT 1", (game,))
    if row is None:
        return None
    return row[0], row[1], await h.svc.get(row[0])


async def play(h: Harness, game: str, seats: int, rec: Recorder | None) -> int:
    """Open, fill, start and play the session to its end, from wherever the store left it; its id.

    ``Crash`` if the recorder's crash point is reached on the way.
    """
    options = GAMES[game].shortest_options()
    for _ in range(5000):
        await idle(h, rec)
        found = await find_table(h, game)
        if found is None:
            await h.svc.create(G, CH, HOST, "Ann", game, options)
            continue
        table_id, status, t = found
        if status not in ("lobby", "playing"):
            await idle(h, rec)
            return table_id
        assert t is not None and t.status == status, f"{game}: table {table_id} is {status} but not live"
        if t.status == "lobby":
            seated = {info.user_id for info in t.seats}
            missing = [(uid, name) for uid, name in HUMANS if uid not in seated]
            if missing:
                await h.svc.join(t.id, *missing[0])
            elif len(t.seats) < seats:
                await h.svc.add_ai(t.id, HOST, level="easy")
            else:
                await h.svc.start(t.id, HOST)
        elif t.version >= LEAVE_AT and not bob(t).away:
            await h.svc.leave(t.id, BOB)  # the AI plays the seat on; its final stack is still Bob's
        else:
            users = t.to_act_users()
            assert users, f"nobody to act at version {t.version} of {game}"
            seat = t.seat_of(users[0])
            assert seat is not None and t.state is not None
            action = choose(game, t.version, seat, t.state.legal_actions(seat))
            await h.svc.act(t.id, users[0], t.version, action)
    raise AssertionError(f"{game}: the session did not end")


def bob(t: Table) -> SeatInfo:
    """Bob's seat (the human who leaves mid-session)."""
    return next(info for info in t.seats if info.user_id == BOB)


@dataclass
class Outcome:
    """What a session leaves in the store, as compared between runs."""

    status: str
    log: list[tuple[int, int | None, str, str]]
    stacks: list[int]
    balances: dict[str, int]
    ledger: list[tuple[Any, ...]]
    ends: dict[str, list[tuple[Any, ...]]]
    total: int
    escrow: int
    stranded: list[tuple[int, int, str | None]]
    #: Versions whose action ended a deal (or a Mus hand): crash points of the reference run.
    deal_ends: list[int] = dataclasses.field(compare=False)


async def outcome(h: Harness, table_id: int) -> Outcome:
    """Read what the session left in the store (the final stacks by replaying its log)."""
    row = await h.db.run(store.load_table, table_id)
    actions = await h.db.run(store.load_actions, table_id)
    assert row is not None
    session = SessionLog.of(GAMES[row.game], row, actions)
    state, deal_ends = session.new_state(), []
    for a in actions:
        if any(e.get("type") in DEAL_ENDS for e in apply_logged(state, a.seat, a.action)):
            deal_ends.append(a.version)
    log = [(a.version, a.seat, store.dumps(a.action), a.actor) for a in actions]
    balances = {r[0]: int(r[1]) for r in await h.db.fetchall("SELECT id, balance FROM accounts ORDER BY id")}
    ledger = [tuple(r) for r in await h.db.fetchall(
        "SELECT src, dst, amount, reason, table_id FROM ledger ORDER BY id")]
    ends = {name: await rows_of(h, name) for name in END_TABLES}
    return Outcome(row.status, log, list(state.stacks), balances, ledger, ends, await h.total(),
                   await h.escrow(table_id), await h.ledger.stranded_escrow(), deal_ends)


async def rows_of(h: Harness, name: str) -> list[tuple[Any, ...]]:
    """A table's rows without their generated ids, sorted (as a multiset)."""
    rows = await h.db.fetchall(f"SELECT * FROM {name}")  # noqa: S608 - a constant of this module
    out = [tuple(sorted((k, v) for k, v in dict(r).items() if k not in GENERATED)) for r in rows]
    return sorted(out, key=repr)


async def reference(database: str, clock: Clock, config: Config, game: str, seats: int
                    ) -> tuple[Recorder, Outcome]:
    """The session without a crash: its transactions (as recorded) and its outcome."""
    h, rec = await open_harness(database, clock, config)
    try:
        table_id = await play(h, game, seats, rec)
        return rec, await outcome(h, table_id)
    finally:
        await h.close()


def crash_points(game: str, rec: Recorder, ref: Outcome, randoms: int) -> list[tuple[Point, ...]]:
    """The crash runs of a session, each its crash points in turn (one per life of the service): the
    chosen points (lobby, deal, end), ``randoms`` drawn from a seed, and one crash then another."""
    names = rec.names
    actions = [i for i, name in enumerate(names) if name == "action"]  # actions[v]: version v's commit
    start = actions[0] - 1
    assert names[start] == "update_table", names[: start + 1]  # the start: seed, options, status
    first_end, last = ref.deal_ends[0], actions[-1]
    mid = Point(actions[first_end // 2], 1, "mid-deal: the action row written, not the table row")
    points = [
        Point(start - 1, None, "after the lobby's last buy-in"),
        Point(start, ALL, "inside the start"),
        mid,
        Point(actions[first_end], None, "right after a deal's end"),
        Point(last, rec.sizes[last] - 1, "the payout and the end's rows written, not the status"),
        Point(last, None, "right after the last action"),
    ]
    leave = next(i for i, name in enumerate(names) if "save_seats" in name)
    points += [Point(leave, ALL, "inside a player's leaving"),
               Point(leave, None, "right after a player left")]
    turn = GAME_MODULES.index(game)  # the lobby is the same code for every game: shared out among them
    points += [Point(tx, None, "after a lobby commit")
               for tx in range(start) if tx % len(GAME_MODULES) == turn]
    rng = random.Random(f"crash:{game}")
    for tx in sorted(rng.sample(range(len(names)), randoms)):
        points.append(Point(tx, rng.choice([None, rng.randrange(rec.sizes[tx] + 1)]), "at random"))
    unique: dict[tuple[int, int | None], Point] = {}
    for p in points:
        unique.setdefault((p.tx, p.inside), p)
    again = Point(0, None, "and again at the restart's first commit")  # (its resume, or its AI's move)
    return [(p,) for p in unique.values()] + [(mid, again)]


def seats_of(game: str) -> int:
    """Seats of the session: the game's least."""
    return GAMES[game].min_seats


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every start deals with ``SEED``."""
    monkeypatch.setattr(lobby, "secrets", types.SimpleNamespace(randbits=lambda bits: SEED))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("game", GAME_MODULES)
async def test_a_crash_anywhere_loses_nothing_and_applies_nothing_twice(
        game: str, backend: str, database: str, tmp_path: Path, clock: Clock, fixed_seed: None) -> None:
    config = Config(starting_grant=100_000, ai_delay=0, turn_timeout=120)
    seats = seats_of(game)
    rec, ref = await reference(database, clock, config, game, seats)
    assert ref.status == "finished" and ref.ends["stats"], f"{game}: the reference session did not count"
    assert ref.total == 0 and ref.escrow == 0 and not ref.stranded
    assert [v for v, *_ in ref.log] == list(range(len(ref.log)))
    failures = []
    for i, points in enumerate(crash_points(game, rec, ref, RANDOM_POINTS[backend])):
        where = " then ".join(map(str, points))
        async with database_target(backend, tmp_path, f"crash{i}.db") as target:
            try:
                got, why = await crash_run(target, clock, config, game, seats, points)
            except Exception as exc:  # a table that cannot resume or finish: reported with the others
                got, why = None, f"{type(exc).__name__}: {exc}"
        if why:
            failures.append(f"{where}: {why}")
        elif got is not None and got != ref:  # (None: a lobby refunded in full at the restart)
            failures.append(f"{where}: {differences(ref, got)}")
    assert not failures, f"{game}:\n" + "\n".join(failures)


async def crash_run(target: str, clock: Clock, config: Config, game: str, seats: int,
                    points: tuple[Point, ...]) -> tuple[Outcome | None, str]:
    """Play until the first point, kill the service there, play on with a new one (killed at the next
    point, counted from its start, if any…): (outcome, "") or (None, what went wrong; "" for a lobby
    refunded in full)."""
    for point in points:
        h, rec = await open_harness(target, clock, config, point)
        try:
            if not rec.hit:
                await play(h, game, seats, rec)
        except Crash:
            pass
        finally:
            await kill(h)
        if not rec.hit:
            return None, f"{point}: never reached"
    h, _ = await open_harness(target, clock, config)
    try:
        found = await find_table(h, game)
        if found is not None and found[1] == "cancelled":  # a lobby not resumed: refunded in full?
            return None, await unrefunded(h, found[0])
        table_id = await play(h, game, seats, None)
        return await outcome(h, table_id), ""
    finally:
        await h.close()


async def unrefunded(h: Harness, table_id: int) -> str:
    """What a cancelled table failed to give back ("" if every account got back all it paid in)."""
    escrow = h.ledger.escrow(table_id).key
    nets: dict[str, int] = {}
    for src, dst, amount in await h.db.fetchall(
            "SELECT src, dst, amount FROM ledger WHERE src = ? OR dst = ?", (escrow, escrow)):
        key, sign = (src, 1) if dst == escrow else (dst, -1)
        nets[key] = nets.get(key, 0) + sign * amount
    kept = {key: net for key, net in nets.items() if net}
    total, held = await h.total(), await h.escrow(table_id)
    if not kept and not held and not total:
        return ""
    return f"not refunded: {kept}, escrow {held}, total {total}"


def differences(ref: Outcome, got: Outcome) -> str:
    """Which fields of two outcomes differ, briefly (a list from its first difference)."""
    out = []
    for field in dataclasses.fields(Outcome):
        a, b = getattr(ref, field.name), getattr(got, field.name)
        if not field.compare or a == b:
            continue
        if isinstance(a, list) and isinstance(b, list):
            i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
            a, b = f"{len(a)} items, [{i}:] {a[i:i + 2]}", f"{len(b)} items, [{i}:] {b[i:i + 2]}"
        out.append(f"{field.name}: reference {str(a)[:300]} != {str(b)[:300]}")
    return "; ".join(out)
