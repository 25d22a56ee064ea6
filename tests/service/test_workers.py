"""A hint worker holds what a search needs: a real worker process imports the rules and the solvers, not the bot.

A worker is a fresh interpreter (``spawn``) that imports what it is handed, and also the main
script of the process that started it. So the check runs where a worker really starts: a child
Python whose main script is written as pip writes the ``gatebot`` command's (``from gatebot.cli
import main`` at the top, the rest under ``if __name__ == "__main__"``), whose process has
loaded the bot (discord.py, SQLAlchemy, Pillow, the web table) as ``gatebot run``'s has, and
which asks the real :class:`~gatebot.service.thinking.Thinker` for a hint and then for its
worker's ``sys.modules``.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

#: What the event loop's process needs and a worker must not load: each costs megabytes a worker.
NEVER_IN_A_WORKER = ("discord", "aiohttp", "sqlalchemy", "PIL", "alembic", "babel", "asyncio",
                     "gatebot.bot", "gatebot.web", "gatebot.store", "gatebot.render", "gatebot.service.games")

SCRIPT = textwrap.dedent('''
    import re
    import sys
    from gatebot.cli import main
    if __name__ == "__main__":
        import asyncio, json
        import gatebot.bot.run, gatebot.web  # the bot's process has all of this loaded
        from gatebot.rules import Game
        from gatebot.service.thinking import Thinker

        async def ask() -> None:
            thinker = Thinker(workers=1)
            try:
                hint = await thinker.hint(Game.new("gate", deal=1).to_text(hide_stock=True), asker="alice")
                # eval is a builtin, so handing it over makes the worker import nothing more.
                modules = await asyncio.wrap_future(thinker._pool().submit(eval, "sorted(__import__('sys').modules)"))
            finally:
                thinker.close()
            here = sorted(sys.modules)
            print(json.dumps({"move": str(hint.move), "worker": modules, "parent": here}))

        asyncio.run(ask())
''')


def test_a_worker_imports_the_solvers_and_not_the_bot(tmp_path: Path) -> None:
    script = tmp_path / "gatebot"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    worker, parent = set(found["worker"]), set(found["parent"])
    assert found["move"] != "None"  # the worker did search: the hint names a move
    assert {"gatebot.solver.gate.hint", "gatebot.rules.gate"} <= worker  # its sys.modules is a searcher's
    for name in NEVER_IN_A_WORKER:
        assert name in parent, f"the check means nothing: {name} is not loaded in the bot's process either"
        assert name not in worker, f"a hint worker imported {name}"
