# hexhive in a container: the bot on Discord, its database on a volume.
#   docker build -t hexhive .
#   docker run -d --name hexhive --restart on-failure:10 -v hexhive-data:/data \
#       -e HEXHIVE_DISCORD_TOKEN=... hexhive
# A refused token exits with status 2, which Docker retries too, hence the limit of 10 tries
# (see docs/discord-setup.md, "Running it as a service").
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HEXHIVE_DATABASE=/data/hexhive.db

WORKDIR /app
# Only what running needs: the packages, their data and migrations (no tests, no developer tools).
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engine ./engine
COPY render ./render
COPY data ./data
RUN pip install --no-compile -e . \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin hexhive \
    && mkdir -p /data \
    && chown hexhive:hexhive /data

USER hexhive
VOLUME ["/data"]

# Healthy while the bot writes its heartbeat (every minute from its first connection to Discord on,
# also while it reconnects: it says the bot runs, not that Discord reaches it).
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["hexhive", "health"]

STOPSIGNAL SIGTERM
CMD ["hexhive", "discord"]
