# The site as `scripts/serve` runs it (gunicorn behind nginx), for compose.yaml.
# BASE may name another Debian image with Python 3.11 or newer as python3 (an offline mirror's).
ARG BASE=python:3.12-slim-bookworm
FROM ${BASE}

RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 mahjong \
    && mkdir /app && chown mahjong:mahjong /app

WORKDIR /app
USER mahjong
COPY --chown=mahjong:mahjong . .
# .venv and the project in it, as scripts/serve would make them at its first start.
RUN bash -c 'source scripts/_common.sh && ensure_venv && install_project' \
    && mkdir -p var
# var/ exists in the image, owned by mahjong, so the volume mounted there starts writable.

ENV HOST=0.0.0.0 PORT=8000 STATE_DIR=/app/var PYTHONUNBUFFERED=1
EXPOSE 8000
# At each start: migrate, collect static files, then gunicorn and nginx in the foreground.
CMD ["scripts/serve"]
