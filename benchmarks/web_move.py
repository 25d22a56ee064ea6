"""A move on the web table in a real browser against the same move in chat: round trip, server CPU, first load.

Both arms play the same commands on Gate deal 5, each on a fresh SQLite file: draw, then take it
back, over and over (every command a committed change), at the same pace (7.5 a second, under the
table's per-player rate limit of 8; the pause between moves is not timed).

* ``chat``: the real bot (``python -m gatebot run``, its own process) against the fake Discord of
  the end-to-end tests (``tests/fake_discord``, in this process): ``/gate new deal:5``, then the
  board message's Draw and Undo buttons pressed in turn. A round trip is from the fake sending
  INTERACTION_CREATE until the bot's answer has arrived (its callback, and the edit when it
  deferred).
* ``web``: ``gatebot web --port 0`` (its own process) and Debian's headless Chromium (driven by
  Selenium as in ``tests/web/browser``) on its page, whose live stream stays open as in real use.
  Each move is an input on the page: a click on the stock (the board's own handler plays ``d``),
  then a click on Undo. A round trip is timed inside the page with ``performance.now()``, from
  just before the click until a MutationObserver sees the board's ``data-version`` change (the
  board redrawn from the answer, or from the live event, whichever comes first).

Each server's CPU (user + system, all threads) is read from ``/proc/<pid>/stat`` before the first
move and after the last; per move it is that difference over the moves. The arms alternate in
rounds, so both see the same machine. The web arm also weighs the first load of a new visitor's
page in the same browser (Chrome's own byte counts from the DevTools protocol: headers and
bodies as sent, uncompressed): the page, its CSS and two modules, ``GET /api/game``, the first
deal (``POST /api/new``) and the live stream's first event.

    .venv/bin/python benchmarks/web_move.py --moves 200 --rounds 3

``--profile-web DIR`` runs the web process under ``python -m cProfile`` (slower: compare its
figures only with each other) and prints its hottest functions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pstats
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the fake Discord lives in tests/

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager never downloads anything
os.environ.setdefault("SE_AVOID_STATS", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from tests.fake_discord import FakeDiscord, StoredMessage, World  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
TICKS = os.sysconf("SC_CLK_TCK")
DEAL = 5
#: Seconds between moves: a player may send 8 requests a second after a burst of 30.
PACE = 1 / 7.5
#: The goals: a browser move's p50, and the web process's CPU per move against the bot's.
GOAL_P50_MS = 30.0
GOAL_CPU_RATIO = 1.5
GOAL_FIRST_LOAD = 100 * 1024

#: Runs in the page: click the element ``selector`` names and time until the board's version changes.
TIMED_INPUT = """
const [selector, done] = arguments;
const board = document.getElementById("board");
const before = board.dataset.version;
const target = document.querySelector(selector);
let start = 0;
const observer = new MutationObserver(() => {
  if (board.dataset.version === before) return;
  observer.disconnect();
  done({ms: performance.now() - start, version: board.dataset.version});
});
observer.observe(board, {attributes: true, attributeFilter: ["data-version"]});
setTimeout(() => { observer.disconnect(); done({ms: null, version: board.dataset.version}); }, 10000);
start = performance.now();
target.click();
"""
#: Runs in the page: a change the page itself could send, with its session and CSRF token.
POST = """
const [path, body, done] = arguments;
const token = document.querySelector('meta[name="csrf-token"]').content;
fetch(path, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": token},
             body: JSON.stringify(body), credentials: "same-origin"})
  .then(async (r) => done({status: r.status, body: await r.json()}));
"""


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of process ``pid`` so far, all its threads (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Arm:
    """One arm's round: each move's round trip (seconds) and the server's CPU per move (seconds)."""

    times: list[float]
    cpu: float


# -- chat: the bot and the fake Discord ------------------------------------------------------------


def board_of(fake: FakeDiscord) -> StoredMessage:
    """The newest message with board buttons in #general."""
    return next(m for m in reversed(fake.messages(fake.channel)) if any(c.startswith("gate:") for c in m.custom_ids()))


def button(message: StoredMessage, action: str) -> str:
    return next(cid for cid in message.custom_ids() if cid.startswith(f"gate:{action}:"))


async def chat_arm(directory: Path, moves: int) -> Arm:
    async with FakeDiscord(World.default()) as fake:
        env = {**os.environ, **fake.env(), "DATABASE_URL": f"sqlite+aiosqlite:///{directory}/chat.db",
               "GATEBOT_DEV_GUILD_ID": str(fake.guild.id), "PYTHONPATH": str(REPO), "LOG_LEVEL": "WARNING"}
        env.pop("WEB_PORT", None)
        log_path = directory / "bot.log"
        with log_path.open("wb") as log:
            bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "gatebot", "run", env=env, cwd=directory,
                                                       stdin=asyncio.subprocess.DEVNULL,
                                                       stdout=asyncio.subprocess.DEVNULL, stderr=log)
        try:
            await fake.wait_until_connected(timeout=60)
            await fake.wait_for_commands(fake.guild, timeout=30)
            await (await fake.send_command("gate new", {"deal": DEAL})).settled()
            board = board_of(fake)
            times: list[float] = []
            cpu = cpu_seconds(bot.pid)
            for i in range(moves):
                board = fake.message(board.id)
                handle = await fake.click(board, button(board, "draw" if i % 2 == 0 else "undo"))
                callback = await handle.settled(timeout=30)
                elapsed = time.perf_counter() - handle.sent_at
                if callback.type not in (6, 7):
                    raise RuntimeError(f"the bot didn't update its board: {callback}")
                times.append(elapsed)
                await asyncio.sleep(max(0.0, PACE - elapsed))
            return Arm(times, (cpu_seconds(bot.pid) - cpu) / moves)
        finally:
            bot.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(bot.wait(), 30)
            except TimeoutError:
                bot.kill()
                await bot.wait()


# -- web: gatebot web and Chromium -------------------------------------------------------------------


def launch() -> tuple[WebDriver, str]:
    """A headless Chromium with a fresh profile, recording its network events (for the first load's weight)."""
    profile = tempfile.mkdtemp(prefix="gatebot-bench-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--disable-quic", "--lang=en-US", f"--user-data-dir={profile}", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(30)
    return driver, profile


def network_log(driver: WebDriver, seconds: float = 30) -> list[dict[str, Any]]:
    """Chrome's network events until the live stream's first event has arrived."""
    entries: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while not any("Network.eventSourceMessageReceived" in entry["message"] for entry in entries):
        if time.monotonic() > deadline:
            raise RuntimeError("the page's live stream sent nothing")
        time.sleep(0.05)
        entries.extend(driver.get_log("performance"))
    return entries


def first_load(entries: list[dict[str, Any]], address: str) -> dict[str, int]:
    """Bytes Chrome received for each request to ``address`` in ``entries`` (headers and body as sent), by path.

    A finished request counts its ``loadingFinished`` total; the live stream, which never
    finishes, counts its response headers and each chunk received.
    """
    paths: dict[str, str] = {}
    received: defaultdict[str, int] = defaultdict(int)
    finished: dict[str, int] = {}
    for entry in entries:
        message = json.loads(entry["message"])["message"]
        method, params = message["method"], message.get("params", {})
        if method == "Network.requestWillBeSent" and params["request"]["url"].startswith(address):
            paths[params["requestId"]] = "/" + params["request"]["url"].removeprefix(address)
        elif method == "Network.responseReceived":
            received[params["requestId"]] += int(params["response"].get("encodedDataLength", 0))
        elif method == "Network.dataReceived":
            # An event stream's chunks may be counted only in dataLength (decoded: the same, uncompressed).
            received[params["requestId"]] += int(params.get("encodedDataLength") or params.get("dataLength", 0))
        elif method == "Network.loadingFinished":
            finished[params["requestId"]] = int(params["encodedDataLength"])
    weights: defaultdict[str, int] = defaultdict(int)
    for request, path in paths.items():
        weights[path] += finished.get(request, received.get(request, 0))
    return dict(weights)


def shown_version(driver: WebDriver) -> str | None:
    return driver.execute_script("return document.getElementById('board').dataset.version || null")  # type: ignore[no-any-return]


def web_arm(directory: Path, moves: int, profile: Path | None) -> tuple[Arm, dict[str, int]]:
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{directory}/web.db",
           "XDG_DATA_HOME": str(directory), "PYTHONPATH": str(REPO)}
    command = [sys.executable]
    if profile is not None:
        command += ["-m", "cProfile", "-o", str(profile)]
    server = subprocess.Popen([*command, "-m", "gatebot", "web", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True)
    driver: WebDriver | None = None
    chromium_profile = None
    try:
        assert server.stdout is not None
        address = None
        while address is None:
            line = server.stdout.readline()
            if not line:
                raise RuntimeError("gatebot web stopped before it printed its address")
            found = re.search(r"http://\S+/", line)
            address = found.group(0) if found else None
        driver, chromium_profile = launch()
        wait = WebDriverWait(driver, 30, poll_frequency=0.02)
        driver.get(address)  # a new visitor: the page deals them a game
        wait.until(lambda d: shown_version(d) is not None)
        weights = first_load(network_log(driver), address)
        answer = driver.execute_async_script(POST, "/api/new", {"deal": DEAL, "confirm": True})
        assert answer["status"] == 200, answer
        version = str(answer["body"]["view"]["version"])
        wait.until(lambda d: shown_version(d) == version)  # the live stream drew the new deal
        times: list[float] = []
        pid = server.pid
        cpu = cpu_seconds(pid)
        for i in range(moves):
            selector = '[data-pile="s"][data-place]' if i % 2 == 0 else "#undo"
            started = time.perf_counter()
            result = driver.execute_async_script(TIMED_INPUT, selector)
            if result["ms"] is None:
                raise RuntimeError(f"the board didn't change after clicking {selector}")
            times.append(result["ms"] / 1000)
            time.sleep(max(0.0, PACE - (time.perf_counter() - started)))
        return Arm(times, (cpu_seconds(pid) - cpu) / moves), weights
    finally:
        if driver is not None:
            driver.quit()
        if chromium_profile is not None:
            shutil.rmtree(chromium_profile, ignore_errors=True)
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


# -- the run -----------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def percentile(times: list[float], q: int) -> float:
    return statistics.quantiles(times, n=100, method="inclusive")[q - 1]


def print_profile(path: Path, top: int = 25) -> None:
    print(f"\nweb process, hottest functions (cumulative; {path}):")
    pstats.Stats(str(path)).sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves per arm and round (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the arms alternating (default 3)")
    parser.add_argument("--profile-web", type=Path, default=None, help="run the web process under cProfile here")
    args = parser.parse_args()
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if missing:
        print(f"{' and '.join(missing)} missing: apt-get install chromium chromium-driver", file=sys.stderr)
        return 2
    results: dict[str, list[Arm]] = {"chat": [], "web": []}
    loads: list[dict[str, int]] = []
    profile = None
    for round_ in range(args.rounds):
        with tempfile.TemporaryDirectory() as directory:
            results["chat"].append(asyncio.run(chat_arm(Path(directory), args.moves)))
            if args.profile_web is not None:
                args.profile_web.mkdir(parents=True, exist_ok=True)
                profile = args.profile_web / f"web-{round_}.prof"
            web, weights = web_arm(Path(directory), args.moves, profile)
            results["web"].append(web)
            loads.append(weights)
    print(f"{args.rounds} rounds of {args.moves} moves per arm (draw and undo in turn, Gate deal {DEAL}); "
          f"load average {os.getloadavg()[0]:.2f}")
    cpu: dict[str, float] = {}
    p50: dict[str, float] = {}
    for arm, runs in results.items():
        times = [t for run in runs for t in run.times]
        cpu[arm] = statistics.median(run.cpu for run in runs)
        p50[arm] = statistics.median(times)
        print(f"{arm:5} round trip p50 {ms(p50[arm])}, p95 {ms(percentile(times, 95))}; "
              f"server CPU per move {ms(cpu[arm])} (median of rounds: "
              f"{', '.join(ms(run.cpu) for run in runs)})")
    ratio = cpu["web"] / cpu["chat"]
    print(f"web / chat server CPU per move: {ratio:.2f}x (goal at most {GOAL_CPU_RATIO}x)")
    print(f"browser round trip p50 {ms(p50['web'])} (goal at most {GOAL_P50_MS:.0f} ms)")
    weights = loads[-1]
    total = sum(weight for path, weight in weights.items() if path != "/favicon.ico")
    print("first load: " + ", ".join(f"{path} {weight / 1024:.1f} KB" for path, weight in sorted(weights.items())))
    print(f"first load in all (without /favicon.ico): {total / 1024:.1f} KB (goal at most "
          f"{GOAL_FIRST_LOAD // 1024} KB)")
    if profile is not None:
        print_profile(profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
