"""A move through the web table against the same move through the service alone: latency and server CPU.

Both arms play the same commands on a fresh SQLite file: deal Gate deal 5, then draw and take it
back, over and over (every command a committed change). The service arm calls ``GameService.play``
and ``act("undo")`` in this process and times each call (``time.perf_counter``) and the process's
CPU (``time.process_time``): the service's part of a chat move, without drawing the board or
Discord. The web arm starts ``gatebot web --port 0`` as a subprocess and sends the same commands as
``POST /api/play`` and ``/api/undo`` from this process over loopback (keep-alive); a round trip is
the request until its JSON is read (no browser drawing), and the server's CPU is read from
``/proc/<pid>/stat`` before and after. The web arm keeps under the per-player rate limit (7.5
requests a second; the time between requests is not counted). The arms alternate in rounds, so both
see the same machine.

    .venv/bin/python benchmarks/web_move.py --moves 200 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from gatebot.service import Actor, GameService
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema

REPO = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
#: Seconds between the web arm's requests: a player may send 8 a second after a burst of 30.
PACE = 1 / 7.5


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def service_arm(directory: Path, moves: int) -> tuple[list[float], float]:
    db = Database(f"sqlite+aiosqlite:///{directory}/service.db")
    await ensure_schema(db)
    service = GameService(db)
    actor = Actor("bench", "player", "Player")
    try:
        reply = await service.new_game(actor, "gate", deal=5, confirm=True)
        times: list[float] = []
        cpu = time.process_time()
        for i in range(moves):
            start = time.perf_counter()
            if i % 2 == 0:
                reply = await service.play(actor, "d", expected_version=reply.version)
            else:
                reply = await service.act(actor, "undo", expected_version=reply.version)
            times.append(time.perf_counter() - start)
            assert reply.saved, reply.message
        return times, (time.process_time() - cpu) / moves
    finally:
        service.close()
        await db.dispose()


async def web_arm(directory: Path, moves: int) -> tuple[list[float], float]:
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{directory}/web.db",
           "XDG_DATA_HOME": str(directory), "PYTHONPATH": str(REPO)}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "gatebot", "web", "--port", "0", env=env,
                                                   stdout=asyncio.subprocess.PIPE)
    try:
        assert process.stdout is not None
        address = None
        while address is None:
            found = re.search(r"http://\S+/", (await process.stdout.readline()).decode())
            address = found.group(0) if found else None
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            async with browser.get(address) as page:
                token = re.search(r'csrf-token" content="([^"]+)"', await page.text()).group(1)  # type: ignore[union-attr]
            headers = {"X-CSRF-Token": token}
            async with browser.post(address + "api/new", json={"deal": 5, "confirm": True}, headers=headers) as r:
                version = (await r.json())["view"]["version"]
            times: list[float] = []
            cpu = cpu_seconds(process.pid)
            for i in range(moves):
                start = time.perf_counter()
                path, body = ("api/play", {"move": "d", "version": version}) if i % 2 == 0 else \
                    ("api/undo", {"version": version})
                async with browser.post(address + path, json=body, headers=headers) as response:
                    data = await response.json()
                elapsed = time.perf_counter() - start
                times.append(elapsed)
                assert response.status == 200, data
                version = data["view"]["version"]
                await asyncio.sleep(max(0.0, PACE - elapsed))  # under the table's rate limit (8 a second)
            return times, (cpu_seconds(process.pid) - cpu) / moves
    finally:
        process.send_signal(signal.SIGINT)
        await process.wait()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[tuple[list[float], float]]] = {"service": [], "web": []}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as directory:
            results["service"].append(await service_arm(Path(directory), args.moves))
            results["web"].append(await web_arm(Path(directory), args.moves))
    summary = {}
    for arm, runs in results.items():
        times = [t for run, _ in runs for t in run]
        cpu = statistics.median(c for _, c in runs)
        summary[arm] = cpu
        print(f"{arm:8} round trip p50 {ms(statistics.median(times))}, p95 "
              f"{ms(statistics.quantiles(times, n=20)[-1])}; server CPU per move (median of rounds) {ms(cpu)}")
    print(f"web / service CPU per move: {summary['web'] / summary['service']:.2f}x")


if __name__ == "__main__":
    asyncio.run(main())
