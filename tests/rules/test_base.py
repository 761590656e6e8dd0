import pytest

from bot.rules.base import IllegalMove, OptionSpec, match_action, validate_options

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
