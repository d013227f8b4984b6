"""Serving the app at a venue: the nginx configuration, the addresses to print, the database and
the secret key, for scripts/serve (python -m hosting)."""
