"""The tournament JSON API under /api/: tournaments, players, rounds, tables, hands, standings.

`http` holds the plumbing (JSON answers, errors, method dispatch, request bodies), `auth` who
is calling and what they may reach, `serialisers` the JSON shapes, and `tournaments`, `rounds`
and `tables` the endpoints. The OpenAPI description is in `tournament.openapi`.
"""
