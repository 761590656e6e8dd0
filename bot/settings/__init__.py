"""Per-server settings (issue 29): the model and its checks (``model``), no Discord types."""
