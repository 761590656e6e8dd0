"""Discord components and messages: persistent buttons/selects, embeds, the table presenter."""
