"""The rule of a session's full length, per game (issue 26, item 4: ratings that reward playing).

For every game, from seeded random sessions played straight through the engine:

- a session nobody closed counts;
- closed in its first deal (once a move was made) it does not;
- closed during its last deal (the one its own rules end it after) it does: the close asked
  nothing the rules would not have done;
- closed ``now`` in its last deal (the deal voided) it does not.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.rules import GAMES
from bot.tables.length import DEAL_CAP, first_close, reached_length, session_end
from bot.tables.replay import close_action

SEATS = {"motz": 4, "mus": 4, "marias": 3, "michigan": 4, "maitre": 4}
#: Short sessions (still more than one deal) keep the playouts quick.
OPTIONS: dict[str, dict[str, Any]] = {"motz": {"rotations": 1}, "michigan": {"rotations": 1},
                                      "marias": {"rounds": 1}, "maitre": {"tours": 1}, "mus": {}}


def play(game: str, seed: int, close_after: int | None = None, now: bool = False
         ) -> tuple[list[int], dict[str, Any] | None, dict[str, Any], int]:
    """A random session; ``close_after`` actions in, the host closes. Returns
    ``(action index after which each deal ended, session_end event, final view, actions)``."""
    rules = GAMES[game]
    options = rules.validate_options(OPTIONS[game])
    state = rules.new_table(SEATS[game], options, seed)
    rng = random.Random(seed)
    ends: list[int] = []
    end = None
    i = 0
    while not state.is_over():
        if i == close_after:
            end = session_end(state.request_close(now)) or end
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        # Mus: no bets (an órdago or a few envites end a game at once), so a game lasts several deals
        calm = [a for a in legal if a.get("type") not in ("ordago", "envido", "quiero")]
        events = state.apply(seat, rng.choice(calm or legal))
        i += 1
        if any("deltas" in e for e in events):
            ends.append(i)
        end = session_end(events) or end
    return ends, end, state.view(None), i


def counts(game: str, close: str | None, end: dict[str, Any] | None, view: dict[str, Any]) -> bool:
    options = GAMES[game].validate_options(OPTIONS[game])
    return reached_length(GAMES[game], options, SEATS[game], close, end, view)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_length_rule_per_game(game: str, seed: int) -> None:
    ends, end, view, total = play(game, seed)
    assert end is not None and len(ends) > 1, "a session of one deal tells nothing"
    assert counts(game, None, end, view)  # nobody closed it

    _, early, early_view, _ = play(game, seed, close_after=1)  # the first deal, one move in
    assert early is not None
    assert not counts(game, "host", early, early_view), "closed at its first deal, it still counted"
    assert not counts(game, "unattended", early, early_view)

    last_start = ends[-2]  # the action index where the last deal began
    if total - last_start >= 2:  # a move into the last deal, and the deal not over yet
        _, late, late_view, _ = play(game, seed, close_after=last_start + 1)
        assert late is not None and late["results"] == end["results"]
        assert counts(game, "host", late, late_view), "closed in its last deal, it did not count"
        _, void, void_view, _ = play(game, seed, close_after=last_start + 1, now=True)
        assert void is not None
        assert not counts(game, "admin", void, void_view), "its last deal voided, it still counted"


def test_the_deal_cap_is_an_open_ended_sessions_length() -> None:
    michigan = GAMES["michigan"]
    assert reached_length(michigan, {"rotations": 0, "ante_unit": 1}, 4, DEAL_CAP, None)
    assert not reached_length(michigan, {"rotations": 0, "ante_unit": 1}, 4, "unattended",
                              {"reason": "closed", "stacks": [100] * 4, "returned": [[0] * 4] * 4},
                              {"deals_played": 40, "dealer": 0})


def test_a_game_without_a_rule_counts_only_unclosed() -> None:
    from tests.tables.fakegame import GAME as HIGH

    assert reached_length(HIGH, {}, 3, None, {"type": "session_end"})
    assert not reached_length(HIGH, {}, 3, "host", {"type": "session_end", "reason": "rounds"})


def test_the_first_close_of_the_log_names_who_closed() -> None:
    rows = [(0, "player", {"type": "stay"}), (None, "system", {**close_action(False), "reason": "deal_cap"}),
            (None, "admin", close_action(True))]
    assert first_close(rows) == DEAL_CAP
    assert first_close(rows[:1]) is None
    assert first_close([(None, "host", close_action(False))]) == "host"
    assert first_close([(None, "system", close_action(False))]) == "system"  # logged before issue 26


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_motz_closed_in_its_last_nominal_deal_counts_only_if_the_bete_was_won(seed: int) -> None:
    """Closed in deal ``rotations × n``, a Motz session with a bête still on the table would have gone
    on with clearing deals: it stopped early. With the pot empty it ended where the rules end it."""
    ends, _, _, _ = play("motz", seed)
    nominal = OPTIONS["motz"]["rotations"] * SEATS["motz"]
    assert len(ends) > nominal
    _, end, view, _ = play("motz", seed, close_after=ends[nominal - 2] + 1)
    assert end is not None and end["deals_played"] == nominal
    assert counts("motz", "host", end, view) == (not any(end["split"]))
