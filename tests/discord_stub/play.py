"""Playing a table the way people do: click the moves in the latest DM, or in My hand."""

from __future__ import annotations

import random
from typing import Any

from tests.discord_stub.model import Interaction, Message, User
from tests.discord_stub.stub import ANSWER_TIMEOUT, DiscordStub
from tests.discord_stub.tapis import TapisRun


def move_controls(message: Message, table_id: int, version: int) -> list[dict[str, Any]]:
    """The move buttons and selects of ``message`` that carry this table's current version (with the
    groups of moves too many to show at once, ``grp``, but not the way back from a group)."""
    prefix = f"tapis:{table_id}:{version}:"
    return [c for c in message.items() if c.get("custom_id", "").startswith(prefix)
            and c["custom_id"].split(":")[3] in ("mv", "sel", "grp") and "." in c["custom_id"].split(":")[4]]


def latest_dm_with_moves(stub: DiscordStub, user: User, table_id: int, version: int) -> Message | None:
    for message in reversed(stub.dms(user)):
        if move_controls(message, table_id, version):
            return message
    return None


async def click_control(stub: DiscordStub, message: Message, user: User, control: dict[str, Any],
                        rng: random.Random) -> Interaction:
    if control["type"] == 3:
        value = rng.choice(control["options"])["value"]
        return await stub.choose(message, user, [value], custom_id=control["custom_id"])
    return await stub.click(message, user, custom_id=control["custom_id"])


async def click_move(stub: DiscordStub, message: Message, user: User, control: dict[str, Any],
                     rng: random.Random) -> Interaction:
    """Click a move control of ``message``, which must be taken: answered in place (type 7) or, when
    the move is slow (a loaded machine), deferred (type 6) and then answered: ``message`` edited, a
    follow-up, or, if that edit is refused (a channel out of reach), the new hand by DM."""
    edits, dms = message.edits, len(stub.dms(user))
    inter = await click_control(stub, message, user, control, rng)
    if inter.callback_type == 6:
        await stub.wait_for(lambda: message.edits > edits or inter.followups or len(stub.dms(user)) > dms,
                            timeout=ANSWER_TIMEOUT, what=f"the answer to {user.name}'s deferred move")
    else:
        assert inter.callback_type == 7, f"move refused: {inter.text}"
    return inter


async def play_once(stub: DiscordStub, run: TapisRun, table_id: int, user: User, rng: random.Random,
                    via: str = "dm") -> Interaction:
    """One random legal move for ``user`` through Discord (``via`` "dm", or "hand" for My hand)."""
    table = await run.tables.get(table_id)
    assert table is not None
    message = latest_dm_with_moves(stub, user, table_id, table.version) if via == "dm" else None
    if message is None:
        table_message = stub.message(table.message_id)
        hand = await stub.click(table_message, user, "My hand")
        message = hand.last
        assert message.ephemeral
    version = table.version
    while True:
        controls = move_controls(message, table_id, version)
        assert controls, f"no move for {user.name} at version {version}: {message.text}"
        control = rng.choice(controls)
        inter = await click_move(stub, message, user, control, rng)
        table = await run.tables.get(table_id)
        assert table is not None
        if control["custom_id"].split(":")[3] != "grp" or table.version != version:
            return inter
        message = inter.last  # a group of moves opened in place: choose one of them


async def play_session(stub: DiscordStub, run: TapisRun, table_id: int, users: dict[int, User],
                       rng: random.Random, max_moves: int = 2000, via: str = "dm") -> int:
    """Play every human move until the session is over; return the number of human moves."""
    moves = 0
    while True:
        await run.settle()
        table = await run.tables.get(table_id)
        assert table is not None
        if table.status != "playing":
            return moves
        waiting = table.to_act_users()
        assert waiting, f"table {table_id} waits for nobody at version {table.version}"
        await play_once(stub, run, table_id, users[waiting[0]], rng, via)
        moves += 1
        assert moves < max_moves, "the session does not end"
