"""Level "easy": one rule-based policy per game, seeing only the seat's view."""
