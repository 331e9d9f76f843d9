"""Games: tables, racks and the move log (models arrive with the game issue)."""
