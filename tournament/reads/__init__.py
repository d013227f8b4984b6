"""Reads of the database, a fixed number of queries each: who may see what, deals and their
positions, the round clock, standings (kept per change), stages, teams, statistics, the board,
EMA rows and readiness, what the prize-giving hides."""
