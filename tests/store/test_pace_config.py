"""The paces' configuration (issue 28.2): keys, bounds, the default pace."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.tables.pace import table_pace

HOUR = 3600.0


def test_paces_are_configured_with_bounds(tmp_path):
    from bot.config import ConfigError, load_config

    p = tmp_path / "c.toml"
    p.write_text('pace_fast = 20\npace_slow = 900\npace_correspondence_hours = 72\n'
                 'correspondence_reminder_hours = 2\ncorrespondence_away_after = 4\ndefault_pace = "fast"\n')
    cfg = load_config(str(p), env={})
    assert [table_pace(cfg, {"pace": n}).seconds for n in ("fast", "normal", "slow", "correspondence")] \
        == [20, 120, 900, 72 * HOUR]
    c = table_pace(cfg, {"pace": "correspondence"})
    assert (c.away_after, c.remind_before) == (4, 2 * HOUR)
    assert table_pace(cfg, {}).name == "fast" and cfg.options_for("mus") == {"pace": "fast"}
    for line, key in [("pace_fast = 1", "pace_fast"),
                      ("pace_correspondence_hours = 0", "pace_correspondence_hours"),
                      ('default_pace = "blitz"', "default_pace"),
                      ("correspondence_away_after = 0", "correspondence_away_after")]:
        p.write_text(line + "\n")
        with pytest.raises(ConfigError, match=key):
            load_config(str(p), env={})
    # the reminder is never later than half the turn
    assert table_pace(Config(pace_correspondence_hours=4, correspondence_reminder_hours=6),
                      {"pace": "correspondence"}).remind_before == 2 * HOUR
