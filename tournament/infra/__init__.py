"""What the rest stands on besides the models: API tokens and their throttle, the live cache
backend, text made safe for spreadsheets."""
