"""Moves too many for Discord's components are chosen in two steps, through the DM and My hand.

The Maître's Coffre at three seats (seed 850) has 242 choices; the layout of five selects of 25 used
to offer the first 125 only, so the Maître could never seal most Coffres. Here the Maître picks the
last one (dropped then): its mineure's group first, then the Coffre, and it is applied once; the way
back, another player's click and a stale one are checked on the way.
"""

from __future__ import annotations

import pytest

from bot.i18n import english
from bot.rules import GAMES
from bot.store import tables as store
from tests.bot.test_hostile import refused
from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, Message, User
from tests.discord_stub.play import latest_dm_with_moves
from tests.discord_stub.tapis import TapisRun

SEED = 850


def options(message: Message, verb: str) -> list[tuple[dict, dict]]:
    """(select, option) of every select of ``message`` whose id has ``verb``."""
    return [(s, o) for s in message.selects() if s["custom_id"].split(":")[3] == verb for o in s["options"]]


@pytest.mark.parametrize("via", ["dm", "hand"])
async def test_the_maitre_seals_a_coffre_past_the_125th(stub: DiscordStub, tapis: TapisRun,
                                                         players: list[User], monkeypatch: pytest.MonkeyPatch,
                                                         via: str) -> None:
    import bot.tables.lobby as lobby

    monkeypatch.setattr(lobby.secrets, "randbits", lambda n: SEED)
    a, b, c, _ = players
    table_id, _ = await open_table(stub, a, [b, c], ai=0, game="maitre")
    await tapis.settle()
    table = await tapis.tables.get(table_id)
    seat, version = table.state.to_act()[0], table.version
    user = {u.id: u for u in (a, b, c)}[table.seats[seat].user_id]
    other = next(u for u in (a, b, c) if u is not user)
    legal = table.state.legal_actions(seat)
    assert table.state.view(None)["phase"] == "coffre" and len(legal) == 242
    target = legal[-1]  # the old layout offered legal[:125] only
    label = GAMES["maitre"].label(target, english())

    if via == "dm":
        message = latest_dm_with_moves(stub, user, table_id, version)
    else:
        message = (await stub.click(stub.message(table.message_id), user, "My hand")).last
        assert message.ephemeral
    assert message is not None
    offered = {int(o["value"]) for _, o in options(message, "sel")}
    assert len(legal) - 1 not in offered
    groups = options(message, "grp")
    found = [(s, o) for s, o in groups if label.startswith(o["label"].rstrip("…"))]
    assert found, f"no way to {label!r}: {len(offered)} of {len(legal)} Coffres offered, no group of them"
    [(select, group)] = found
    assert not offered and not options(message, "mv") and len(groups) < 25
    assert group["label"].startswith("Coffre: mineure ") and group["label"].endswith("…")

    refused(await stub.choose(message, other, [group["value"]], custom_id=select["custom_id"]),
            "another player")
    for forged in (["99"], ["-1"], [group["value"], "0"]):
        refused(await stub.choose(message, user, forged, custom_id=select["custom_id"]), "not one of your")
    opened = await stub.choose(message, user, [group["value"]], custom_id=select["custom_id"])
    assert opened.callback_type == 7, opened.text
    step = opened.last
    assert step.id == message.id  # the same message, in place
    back = step.button("Back to all moves")
    assert [o["label"] for _, o in options(step, "grp")] == []
    assert label in [o["label"] for _, o in options(step, "sel")]
    back_again = await stub.click(step, user, custom_id=back["custom_id"])
    assert back_again.callback_type == 7 and options(back_again.last, "grp") == groups

    opened = await stub.choose(back_again.last, user, [group["value"]], custom_id=select["custom_id"])
    step = opened.last
    [(moves, move)] = [(s, o) for s, o in options(step, "sel") if o["label"] == label]
    chosen = await stub.choose(step, user, [move["value"]], custom_id=moves["custom_id"])
    assert chosen.callback_type == 7, chosen.text
    await tapis.settle()
    actions = await tapis.db.run(store.load_actions, table_id)
    assert len(actions) == version + 1
    assert actions[version].action == target and actions[version].seat == seat

    # the old steps are stale now: nothing is applied twice
    refused(await stub.choose(step, user, [move["value"]], custom_id=moves["custom_id"]), "out of date")
    refused(await stub.choose(message, user, [group["value"]], custom_id=select["custom_id"]),
            "out of date")
    refused(await stub.click(step, user, custom_id=back["custom_id"]), "out of date")
    assert len(await tapis.db.run(store.load_actions, table_id)) == version + 1
