# The site as `scripts/serve` runs it (gunicorn behind nginx), for compose.yaml.
FROM python:3.12-slim-bookworm

RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx-light \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 mahjong \
    && mkdir /app && chown mahjong:mahjong /app

WORKDIR /app
USER mahjong
COPY --chown=mahjong:mahjong . .
# .venv and the project in it, as scripts/serve would make them at its first start.
RUN bash -c 'source scripts/_common.sh && ensure_venv && install_project'

ENV HOST=0.0.0.0 PORT=8000 STATE_DIR=/app/var PYTHONUNBUFFERED=1
EXPOSE 8000
# At each start: migrate, collect static files, then gunicorn and nginx in the foreground.
CMD ["scripts/serve"]
