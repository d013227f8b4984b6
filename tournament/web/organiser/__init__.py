"""The organiser's pages: set up a tournament, its players and rounds, and correct results."""
