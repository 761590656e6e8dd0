import pytest

from bot.rules.base import BaseState, IllegalMove, OptionSpec, clone_method, match_action, validate_options

SPECS = (
    OptionSpec("ante", "int", 1, "stake", minimum=1, maximum=100),
    OptionSpec("buy_in", "int", lambda o: 100 * o["ante"], "buy-in", minimum=lambda o: 20 * o["ante"]),
    OptionSpec("fast", "bool", False, "fast"),
    OptionSpec("mode", "choice", "dead", "mode", choices=("dead", "dealer_option")),
)


def test_defaults_depend_on_earlier_options():
    assert validate_options(SPECS, {"ante": 3}) == {"ante": 3, "buy_in": 300, "fast": False, "mode": "dead"}


@pytest.mark.parametrize(
    "raw, words",
    [({"ante": 0}, "at least 1"), ({"ante": 101}, "at most 100"), ({"ante": "x"}, "whole number"),
     ({"ante": True}, "whole number"), ({"ante": 2, "buy_in": 39}, "at least 40"),
     ({"mode": "open"}, "one of"), ({"fast": 3}, "on or off"), ({"colour": 1}, "Unknown option")],
)
def test_bad_options_have_readable_messages(raw, words):
    with pytest.raises(ValueError, match=words):
        validate_options(SPECS, raw)


def test_match_action_is_strict():
    legal = [{"type": "bid", "amount": 2}, {"type": "pass"}]
    assert match_action({"type": "bid", "amount": 2}, legal) is legal[0]
    for bad in ({"type": "bid", "amount": 2.0}, {"type": "bid", "amount": True}, {"type": "bid"},
                {"type": "bid", "amount": 2, "x": 1}, {"type": "fold"}, {}, None, "pass", {"type": 3}):
        with pytest.raises(IllegalMove):
            match_action(bad, legal)


# --------------------------------------------------------------------------- BaseState


class Counter(BaseState):
    """A toy game: seats 0 and 1 alternately add 1 or 2 until the total reaches 5."""

    __slots__ = ("total", "log")
    _CLONE = {"shared": ("total", "actor", "_legal"), "lists": ("log",)}

    def __init__(self) -> None:
        self.total, self.log, self.actor, self._legal = 0, [], 0, None

    def _compute_legal(self) -> list[dict]:
        return [{"type": "add", "n": n} for n in (1, 2) if self.total + n <= 5]

    def _apply(self, seat: int, action: dict) -> list[dict]:
        self.total += action["n"]
        self.log.append(action["n"])
        self.actor = -1 if self.total == 5 else 1 - seat
        return [{"type": "added", "seat": seat, "n": action["n"]}]


def test_base_state_checks_the_seat_matches_and_refuses_without_change() -> None:
    s = Counter()
    assert s.to_act() == (0,) and s.legal_actions(1) == [] and s.legal_actions(True) == []
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        s.apply(1, {"type": "add", "n": 1})
    with pytest.raises(IllegalMove, match="not allowed"):
        s.apply(0, {"type": "add", "n": 3})
    assert (s.total, s.log, s.to_act()) == (0, [], (0,))
    assert s.apply(0, {"type": "add", "n": 2}) == [{"type": "added", "seat": 0, "n": 2}]
    assert s.to_act() == (1,) and s.legal_actions(1) == [{"type": "add", "n": 1}, {"type": "add", "n": 2}]


def test_base_state_caches_legal_and_hands_out_copies() -> None:
    s = Counter()
    first = s.legal_actions(0)
    first.clear()
    assert s.legal_actions(0) == [{"type": "add", "n": 1}, {"type": "add", "n": 2}]
    s.apply(0, {"type": "add", "n": 2})
    s.apply(1, {"type": "add", "n": 2})
    assert s.legal_actions(0) == [{"type": "add", "n": 1}]  # the cache was dropped by apply


def test_over_means_no_seat_not_even_minus_one() -> None:
    s = Counter()
    for seat, n in ((0, 2), (1, 2), (0, 1)):
        s.apply(seat, {"type": "add", "n": n})
    assert s.to_act() == () and s.legal_actions(-1) == []
    with pytest.raises(IllegalMove, match="session is over"):
        s.apply(-1, {"type": "add", "n": 1})


def test_generated_clone_copies_lists_and_shares_the_rest() -> None:
    s = Counter()
    s.apply(0, {"type": "add", "n": 1})
    c = s.clone()
    c.apply(1, {"type": "add", "n": 2})
    assert (s.total, s.log, s.to_act()) == (1, [1], (1,))
    assert (c.total, c.log, c.to_act()) == (3, [1, 2], (0,))


def test_clone_method_refuses_an_undeclared_slot() -> None:
    class Forgetful(BaseState):
        __slots__ = ("a", "b")

    with pytest.raises(ValueError, match=r"undeclared slots \['b'\]"):
        clone_method(Forgetful, shared=("a", "actor", "_legal"))
