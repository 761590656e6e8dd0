"""/replay's machinery beside the cog: which frames a replay draws (``frames``), drawing and
encoding it within Discord's upload limit (``render``), the small worker pool with its bounded
queue and per-member limits (``jobs``) and the cache of finished replays (``cache``)."""
