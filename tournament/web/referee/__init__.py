"""The referee's pages: my tables, the table screen where a game's hands are entered, and the
game sheets a second referee confirms.

Every write goes through `tournament.services`; a refused entry is shown on its form with the
values kept (the service's message), a recorded one redirects back to the table with a message
(post/redirect/get). Modules: `tables` (my tables), `screen` (the table screen and its state),
`hands` and `penalties` (the entries), `game` (submitting the sheet), `answers` (how an entry is
answered), `sheets` (the live part and confirmations), `forms`.
"""
