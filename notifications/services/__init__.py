"""Writes of notifications: creating them, marking them read, preferences, emails."""
