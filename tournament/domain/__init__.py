"""The tournament's rules that need no database: seat winds and the prevailing wind, names and
numbers of players, text rules, table points as numbers, the settings a preset lets a
tournament change, sample hands, the players' CSV format and the seating generator. Django's
translation and `ValidationError` at most; nothing here reads or writes a model."""
