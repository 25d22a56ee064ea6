"""Many commands for one player at once never lose or repeat a move (one process and two)."""

import asyncio
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

from sqlalchemy import select

from gatebot.service import Actor, GameService, Reply, ReplyKind, replay
from gatebot.store import Database, GameRecord

ALICE = Actor("discord", "1180000000000000001", "Alice")
COMMANDS = ["d"] * 50 + ["undo"] * 20 + ["3f", "45", "76", "37", "w1", "lf", "rf", "1f"] * 4  # 102


def applied(command: str, reply: Reply) -> list[str]:
    """The log tokens a reply says were written."""
    if reply.kind is not ReplyKind.BOARD:
        return []
    return ["u"] if command == "undo" else list(reply.played)


async def fire(service: GameService, commands: list[str]) -> list[str]:
    async def one(command: str) -> list[str]:
        if command == "undo":
            return applied(command, await service.undo(ALICE))
        return applied(command, await service.play(ALICE, command))

    results = await asyncio.gather(*(one(command) for command in commands))
    return [token for tokens in results for token in tokens]


async def the_game(db: Database) -> GameRecord:
    async with db.sessions() as session:
        return (await session.scalars(select(GameRecord))).one()


def assert_consistent(record: GameRecord, tokens: list[str]) -> None:
    """The log holds exactly the acknowledged tokens, and it replays, move by move, to the position."""
    assert Counter(record.log.split()) == Counter(tokens)
    assert replay(record).to_text() == record.position
    # Every acknowledged undo took back a move: what is kept is what was played less twice the undos.
    assert record.undo_count == tokens.count("u")
    assert record.move_count == len(tokens) - 2 * record.undo_count


async def test_a_hundred_commands_at_once_through_one_service(db: Database) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1)
    commands = COMMANDS[:]
    random.Random(1).shuffle(commands)
    tokens = await fire(service, commands)
    assert tokens.count("d") >= 34 - 20  # draws were really applied, not all refused
    assert_consistent(await the_game(db), tokens)


async def test_two_services_sharing_a_database_rely_on_the_version_column(db: Database) -> None:
    first, second = GameService(db), GameService(db)
    await first.new_game(ALICE, deal=1)
    commands = COMMANDS[:]
    random.Random(2).shuffle(commands)
    halves = await asyncio.gather(fire(first, commands[::2]), fire(second, commands[1::2]))
    assert_consistent(await the_game(db), halves[0] + halves[1])


HAMMER = """
import asyncio, json, sys
from sqlalchemy import select

from gatebot.service import Actor, GameService, ReplyKind
from gatebot.store import Database

async def main(url, commands):
    db = Database(url)
    service = GameService(db)
    actor = Actor("discord", "1180000000000000001", "Alice")
    async def one(command):
        if command == "undo":
            reply = await service.undo(actor)
            return ["u"] if reply.kind is ReplyKind.BOARD else []
        reply = await service.play(actor, command)
        return list(reply.played) if reply.kind is ReplyKind.BOARD else []
    results = await asyncio.gather(*(one(c) for c in commands))
    await db.dispose()
    print(json.dumps([t for r in results for t in r]))

asyncio.run(main(sys.argv[1], sys.argv[2].split(",")))
"""


async def test_two_processes_sharing_a_database_never_lose_a_move(db: Database, tmp_path: Path) -> None:
    await GameService(db).new_game(ALICE, deal=1)
    url = db.url.render_as_string(hide_password=False)
    commands = COMMANDS[:]
    random.Random(3).shuffle(commands)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    processes = [
        subprocess.Popen([sys.executable, "-c", HAMMER, url, ",".join(half)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        for half in (commands[::2], commands[1::2])
    ]
    tokens: list[str] = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        tokens += json.loads(out)
    assert_consistent(await the_game(db), tokens)


ONE_MOVE = """
import asyncio, sys

from gatebot.service import Actor, GameService
from gatebot.store import Database

async def main(url, line):
    db = Database(url)
    reply = await GameService(db).play(Actor("discord", "1180000000000000001", "Alice"), line)
    await db.dispose()
    print(reply.version)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


async def test_a_game_another_process_changed_is_never_served_from_this_ones_memory(
    db: Database, tmp_path: Path
) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, deal=1)  # this process now holds the game, at its first version
    url = db.url.render_as_string(hide_password=False)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    other = subprocess.run([sys.executable, "-c", ONE_MOVE, url, "45 d"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=120, check=True)
    assert int(other.stdout) == dealt.version + 1  # a line of moves is one write
    assert service.memory.current(("discord", ALICE.user_id), None, None, service.now()).version == dealt.version
    drawn = await service.act(ALICE, "draw")  # from memory, whose version is gone: read again, then written
    assert drawn.ok and drawn.version == dealt.version + 2 and drawn.played == ("d",)
    pressed = await service.act(ALICE, "draw", game_id=dealt.game_id, expected_version=dealt.version)
    assert pressed.kind is ReplyKind.STALE and pressed.version == drawn.version
    record = await the_game(db)
    assert record.log == "45 d d" and record.version == drawn.version
    assert replay(record).to_text() == drawn.game.to_text() == record.position
