"""Serving the app at a venue, for scripts/serve (python -m hosting.commands): the nginx
configuration (nginx, live_cache), the addresses to print, the database and the secret key."""
