"""Slash commands, one feature per extension: table, wallet, rules, admin."""
