"""``python -m gatebot.cli``: the same as the ``gatebot`` command."""

import sys

from gatebot.cli import main

sys.exit(main())
