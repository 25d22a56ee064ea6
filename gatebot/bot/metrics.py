"""Counters a host can read: what the bot served, what failed, how long hints take, how far the gateway is.

Counting is always on (an increment costs well under a microsecond); they are served in the
Prometheus text format only when ``METRICS_PORT`` is set (``gatebot run`` starts
``prometheus_client``'s HTTP server on it, in a thread of its own), at ``/metrics``. Every
process serves its own: with one process per group of shards, each gets its own port and a
scraper adds them up. Nothing here names a player, a server or a game, and no label takes a
value from what a user typed, so a series can't reveal anyone and their number stays small.

The series (``docs/running.md`` shows how to read them):

* ``gatebot_commands_total{kind}``: requests answered, by kind: a slash command (``/gate new``),
  ``press`` (a board's button or menu), ``typed moves``, ``typed hint``;
* ``gatebot_errors_total{cause}``: answers that failed: ``bug`` (logged with its traceback, the
  player got an apology) or ``discord`` (Discord refused or couldn't be reached);
* ``gatebot_hint_seconds``: a histogram of how long a hint took, waiting for a worker included;
* ``gatebot_gateway_latency_seconds``: the time between a heartbeat and Discord's acknowledgement
  (this process's shards averaged; NaN before the first one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from threading import Thread
from wsgiref.simple_server import WSGIServer

import discord
from prometheus_client import Counter, Gauge, Histogram, start_http_server

COMMANDS = Counter("gatebot_commands", "Requests answered, by kind: a slash command, a press, typed moves", ["kind"])
ERRORS = Counter("gatebot_errors", "Answers that failed: a bug (logged, apologised for) or Discord", ["cause"])
#: Buckets around the hint engine's own limit of about a second, and the queue behind it.
HINT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
HINT_SECONDS = Histogram("gatebot_hint_seconds", "Seconds a hint took, waiting for a worker included",
                         buckets=HINT_BUCKETS)
GATEWAY_LATENCY = Gauge("gatebot_gateway_latency_seconds",
                        "Seconds between a gateway heartbeat and its acknowledgement (shards averaged)")
#: Where the server listens unless told: every interface, as a scraper in another container needs.
ADDRESS = "0.0.0.0"
#: The kind of a press on a board (buttons and menus carry game ids, which must not become labels).
PRESS = "press"


class MetricsError(Exception):
    """The metrics server can't start; the message says why and what to do, in one sentence."""


@dataclass(frozen=True, slots=True)
class MetricsServer:
    """The running HTTP server of ``/metrics`` and its thread."""

    server: WSGIServer
    thread: Thread

    @property
    def port(self) -> int:
        """The port it listens on (the one asked for, or the one the system chose for 0)."""
        return int(self.server.server_address[1])

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def serve(port: int, address: str = ADDRESS) -> MetricsServer:
    """Serve every counter at ``http://address:port/metrics`` from a thread; one sentence if the port can't be had."""
    try:
        server, thread = start_http_server(port, addr=address)
    except OSError as error:
        raise MetricsError(f"Can't serve metrics on port {port} ({(error.strerror or str(error)).lower()}): "
                           "set METRICS_PORT to a free port, or unset it") from None
    return MetricsServer(server, thread)


def watch_gateway(client: discord.Client) -> None:
    """Read ``client.latency`` whenever the gauge is scraped (NaN until the first heartbeat is acknowledged)."""

    def latency() -> float:
        value = client.latency
        return value if math.isfinite(value) else math.nan

    GATEWAY_LATENCY.set_function(latency)


def command_kind(interaction: discord.Interaction) -> str:
    """The ``kind`` label of an interaction: ``/`` and its slash command's full name, or :data:`PRESS`."""
    if interaction.type is discord.InteractionType.application_command and interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    return PRESS


def served(kind: str) -> None:
    """Count one request answered."""
    COMMANDS.labels(kind=kind).inc()


def failed(*, bug: bool) -> None:
    """Count one answer that failed, by a bug of gatebot's or by Discord."""
    ERRORS.labels(cause="bug" if bug else "discord").inc()
