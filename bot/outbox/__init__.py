"""Everything Tapis sends or edits on Discord.

- ``presenter``: the table service's listener: the channel's table message (debounced edits) and
  the players' DMs, and the answers to a click that show a table or a hand (the mover's own
  update, **My hand**, the host's Start);
- ``record``: the ``TableRecord`` the presenter keeps per table shown; ``files``: the images it
  attaches;
- ``hand``: the one hand message (embed and moves), wherever a hand is shown;
- ``source``: ``TableSource``, all the outbox may ask of the table service;
- ``budget`` and ``tokens``: the REST budget shared by those requests, and the interaction tokens
  that edit a table message outside it;
- ``forward``: DM clicks for a table another shard process owns;
- ``respond``: answering an interaction once, within 3 s (the one module the handlers import).

A click reads top-down: handler → service → event → outbox (``tests/test_outbox_layering.py``).
"""
