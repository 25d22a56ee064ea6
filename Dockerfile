# gatebot on Discord: `docker build -t gatebot .` then
# `docker run -e DISCORD_TOKEN=... -v gatebot-data:/data gatebot`
FROM python:3.12-slim AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY gatebot ./gatebot
COPY migrations ./migrations
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/gatebot.db
RUN useradd --create-home --uid 10001 gatebot \
    && mkdir /data \
    && chown gatebot:gatebot /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER gatebot
WORKDIR /home/gatebot
# Saved games live here; migrations run at start-up (`gatebot run` upgrades the database).
VOLUME ["/data"]
# gatebot closes the gateway, then the database, on SIGTERM: `docker stop` is a clean shutdown.
STOPSIGNAL SIGTERM
ENTRYPOINT ["gatebot"]
CMD ["run"]
