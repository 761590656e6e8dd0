"""The expert level's own spec (``GameSpec.expert_overrides``) and a spec's model policy."""

from __future__ import annotations

import dataclasses

from bot.ai.registry import game_ai, spec_for
from bot.ai.strong.policy import StrongPolicy


class _Model:
    def choose(self, view, legal, rng):
        return legal[0]


def test_expert_overrides_apply_to_the_expert_only(monkeypatch):
    spec = dataclasses.replace(
        spec_for("motz"), expert_overrides=(("prior_z", None), ("prior_z_of", None)),
    )
    monkeypatch.setattr(game_ai("motz"), "spec", spec)
    strong = StrongPolicy("motz")
    expert = StrongPolicy("motz", expert=True)
    assert strong.spec.prior_z == 1.0 and strong.spec.prior_z_of is not None
    assert expert.spec.prior_z is None and expert.spec.prior_z_of is None
    assert expert.spec.endgame is strong.spec.endgame  # untouched fields stay strong's


def test_model_policy_plays_rollouts_and_opponents(monkeypatch):
    model = _Model()
    spec = dataclasses.replace(spec_for("marias"), model_policy=lambda: model)
    monkeypatch.setattr(game_ai("marias"), "spec", spec)
    policy = StrongPolicy("marias")
    assert policy.rollout is model and policy.opponents is model
    plain = dataclasses.replace(spec, model_policy=None, expert_overrides=(("model_policy", lambda: model),))
    monkeypatch.setattr(game_ai("marias"), "spec", plain)
    assert StrongPolicy("marias").rollout is not model
    assert StrongPolicy("marias", expert=True).opponents is model
