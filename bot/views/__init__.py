"""Discord components and messages: ids, buttons/selects, embeds, the click handlers (what is sent
and edited, and when, is the outbox's: ``bot.outbox``)."""
