"""Post-session review (issue 31): each decision of a seat graded from what it saw, and its
result split into skill and luck. Pure analysis: no Discord types, no I/O.

Modules: ``points`` (the seat's decisions and the deals' results, from the action log),
``estimate`` (one decision's moves valued by the expert's search; runs in an AI worker),
``grades`` (thresholds per game, accuracy), ``analysis`` (the review, skill and luck),
``levels`` (the AI levels' accuracy, a data file written by bench/review_levels.py).
"""

from __future__ import annotations

from bot.review.analysis import DealSplit, Decision, Review, assemble, rng_for, run
from bot.review.estimate import Estimate, estimate
from bot.review.points import Plan, Point, decision_points, view_at

__all__ = ["DealSplit", "Decision", "Estimate", "Plan", "Point", "Review", "assemble", "decision_points",
           "estimate", "rng_for", "run", "view_at"]
