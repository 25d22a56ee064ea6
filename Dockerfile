# gatebot on Discord: `docker build -t gatebot .` then
# `docker run -d --restart unless-stopped -e DISCORD_TOKEN=... -v gatebot-data:/data gatebot`
# (docs/running.md: the volume, the user, the health check, the logs).

# Python 3.11, the version CI tests, by tag and by digest: the multi-platform index of
# python:3.11.16-slim-bookworm as docker-library/repo-info records it, so a rebuild starts from the
# same bytes. To move on, `docker buildx imagetools inspect python:3.11.N-slim-bookworm` prints the
# new tag's digest (its "Digest:" line); or pass --build-arg PYTHON_IMAGE=... for one build.
ARG PYTHON_IMAGE=python:3.11.16-slim-bookworm@sha256:c425d915a89a6dcd3183b1797ad9bd8878caff5a417f6371c8df93c8ea8b727f

# The build stage: the same base with a C compiler, which builds the Archway, Canfield and Gate
# solvers' compiled search cores (gatebot/solver/<family>/_core.c). Its venv is all the final image
# takes from it, so the image that runs has no compiler.
FROM ${PYTHON_IMAGE} AS builder

ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

# The dependencies from the lock, every file checked against its hash, in a layer of their own:
# it is rebuilt only when requirements.lock changes, not for every change to gatebot's code.
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv /opt/gatebot \
    && /opt/gatebot/bin/pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock

# Then gatebot itself, without dependencies and built by the setuptools the lock pinned (no unhashed
# download at build time): the lock has them all. The cores are optional to pip (a machine without a
# compiler still installs gatebot), not to the image: the build stops if any didn't build.
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY migrations ./migrations
COPY gatebot ./gatebot
RUN /opt/gatebot/bin/pip install --no-cache-dir --no-deps --no-build-isolation . \
    && cd / && rm -rf /src/build /src/*.egg-info \
    && /opt/gatebot/bin/python -c "import gatebot.solver.archway._core, gatebot.solver.canfield._core, gatebot.solver.gate._core"

# The image that runs: the same base, the built venv at the same path.
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/gatebot/bin:$PATH \
    DATABASE_URL=sqlite+aiosqlite:////data/gatebot.db \
    HEALTH_FILE=/data/gatebot.health

# gatebot runs as UID and GID 10001, which owns /data (a named volume starts with its owner and
# mode; a host folder mounted there must be writable by 10001).
RUN groupadd --system --gid 10001 gatebot \
    && useradd --system --uid 10001 --gid gatebot --home-dir /home/gatebot --create-home gatebot \
    && mkdir /data \
    && chown gatebot:gatebot /data

COPY --from=builder /opt/gatebot /opt/gatebot

USER 10001:10001
WORKDIR /home/gatebot
# Saved games and the heartbeat file live here; migrations run at start-up (`gatebot run` upgrades the database).
VOLUME ["/data"]
# Healthy while the bot's gateway heartbeat, which it writes to HEALTH_FILE, is under 90 s old and
# the database answers SELECT 1; `gatebot health` says in one line which check failed.
HEALTHCHECK --interval=30s --timeout=20s --start-period=60s --retries=3 CMD ["gatebot", "health"]
# gatebot closes the gateway, then the database, on SIGTERM: `docker stop` is a clean shutdown.
STOPSIGNAL SIGTERM
ENTRYPOINT ["gatebot"]
CMD ["run"]
