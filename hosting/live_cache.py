"""The public pages nginx keeps for visitors: the standings, a round, a table, a player's page and
their live updates, answered by nginx for `LIVE_STALE_SECONDS` without a request to the
application, for requests that carry no session, no Authorization and no waiting message. The
addresses it keeps, the cookies it reads (Django's names, which a test checks against the
settings) and the nginx lines that do it, which `hosting/nginx.py` puts in its configuration.
"""

from __future__ import annotations

# The public pages whose live updates every viewer shares (tournament.web.live.conditional_live:
# the standings, a round, a table), not the projector's clock, which must not lag.
LIVE_PAGES = r"/t/[^/]+/(standings|rounds/[0-9]+|rounds/[0-9]+/tables/[0-9]+)/"
# The public pages a visitor reads whole, and those every phone opens at once when a round is
# seated (the tournament's page, a player's): kept like the live updates, for visitors only.
VISITOR_PAGES = (
    r"/t/[^/]+/(standings/|rounds/[0-9]+/|rounds/[0-9]+/tables/[0-9]+/|players/[A-Za-z0-9._-]+/)?"
)

# Django's default cookie names (config/settings.py keeps them; a test checks).
SESSION_COOKIE = "sessionid"
LANGUAGE_COOKIE = "django_language"
MESSAGES_COOKIE = "messages"


def live_cache(state: str, seconds: int, passed: str) -> tuple[str, str]:
    """The http-level lines and the location that keep the public pages (VISITOR_PAGES, whole
    and their htmx updates) `seconds` in nginx, as the application keeps the live updates for
    LIVE_STALE_SECONDS (tournament.web.live): every visitor of a page in that time is answered
    by nginx, 304 when their copy is the one kept, without a request to the application,
    whatever the request carries: a first poll, a poll from a client that sends no copy back,
    a whole page opened by every phone at once (a reload storm when a round is seated).

    Kept only for visitors: a request with no session cookie, no Authorization and no
    message waiting for them (Django's messages cookie), answered 200 without a cookie set
    (nginx keeps no answer that sets one; the public pages hold no CSRF token, see
    config/urls.py). The key is what the answer depends on besides the data: the address,
    whole page or update and the part asked for, the language (its cookie and the browser's
    Accept-Language) and whether the client takes gzip (Django's GZipMiddleware compresses for
    those that do), so the answer's "Vary: Cookie" is not needed to tell visitors apart. A page
    drawn whole may be up to `seconds` old, as its updates may: a visitor never sees a page
    newer than the updates that follow it.

    An answer is kept as long as its X-Accel-Expires says (tournament.web.live.answer_live:
    what is left of the seconds an update may lag, longer while the machine is busy), else
    `seconds`. When it runs out, one request goes to the application, marked X-Live-Refill
    (it may send the last update it drew, see tournament.web.live.Kept.answer); the others are
    sent the answer kept until then while it is answered, so a visitor may see an update later
    by as long as the application takes to answer that request."""
    http = f"""\
    # The public pages and their live updates, kept as long as the application says
    # (X-Accel-Expires), else {seconds} s (LIVE_STALE_SECONDS).
    proxy_cache_path {state}/live levels=1:2 keys_zone=live:8m max_size=256m inactive=5m
                     use_temp_path=off;
    map "$cookie_{SESSION_COOKIE}:$http_authorization:$cookie_{MESSAGES_COOKIE}" $live_not_kept {{
        "::" 0;
        default 1;
    }}
    map $http_accept_encoding $live_gzip {{
        "~*gzip" gzip;
        default "";
    }}
    # A request that reaches the application while it could have been answered from what is
    # kept fills that again for every visitor: the application may send the last update it
    # drew (tournament.web.live.Kept.answer). An empty value sends no header, the client's
    # neither.
    map $live_not_kept $live_refill {{
        0 1;
        default "";
    }}
"""
    key = (
        "$request_uri|$http_hx_request|$http_hx_target|"
        f"$cookie_{LANGUAGE_COOKIE}|$http_accept_language|$live_gzip"
    )
    location = f"""\

        location ~ ^{VISITOR_PAGES}$ {{
{passed}
            proxy_cache live;
            proxy_cache_key "{key}";
            proxy_cache_valid 200 {seconds}s;
            proxy_ignore_headers Cache-Control Expires Vary;
            proxy_no_cache $live_not_kept;
            proxy_cache_bypass $live_not_kept;
            proxy_set_header X-Live-Refill $live_refill;
            # One request to the application when the kept answer runs out, not one a visitor:
            # for a new one the others wait for it; for one run out, they are sent the one kept
            # until then while the application answers (UPDATING).
            proxy_cache_lock on;
            proxy_cache_lock_timeout 10s;
            proxy_cache_use_stale updating;
            # HIT: answered from what nginx keeps; MISS, EXPIRED, BYPASS: by the application.
            add_header X-Live-Cache $upstream_cache_status;
            # No headers of nginx's own here: a kept answer carries the application's.
        }}
"""
    return http, location
