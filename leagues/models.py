"""Leagues: clubs, seasons and standings (models arrive with the league issue)."""
