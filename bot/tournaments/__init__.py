"""Club nights and Swiss tournaments (issue 33): many tables, one event, one standings.

``model`` (the event as plain data), ``pairing`` (who sits with whom each round) and
``standings`` (points, tie-breaks, prizes) are pure: no Discord, no store, no clock.
``runner`` runs events on the table service; ``bot.store.tournaments`` keeps them.
"""
