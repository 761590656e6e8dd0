"""Everything Tapis sends or edits on Discord: the table message, the DMs, their REST budget, the
interaction tokens that edit them, the forwarding of DM clicks between shard processes, and the
helpers that answer an interaction."""
