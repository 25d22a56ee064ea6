"""Sign-in links: how a Discord player takes their own saved game to the web table.

``/gate table`` answers its asker privately with a link to ``<WEB_PUBLIC_URL>/link/<token>``;
following it makes the browser's session that Discord player's. The token is sealed with
cryptography's Fernet (AES in CBC mode and an HMAC-SHA256, with the time it was made), under a
key derived by HKDF from the web table's own secret key, so a token can't be read, forged or
mistaken for a session cookie sealed by the same secret. It names the Discord user, their
player row's id and their display name, and is good for :data:`LINK_SECONDS`.

The row id is what ends a sign-in at a forget-me: rows' ids are never reused, so once the player
is deleted neither a link made before nor a session it started matches their row again, even
after they play anew (a new row, a new id); the web table checks it on every request.

cryptography is imported when the first :class:`Links` is made, not with this module: the bot
imports it for ``/gate table``, and a bot with no web table never makes a link (its Rust core
alone holds about 7 MB).
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

#: How long a link works after it is made: about ten minutes.
LINK_SECONDS = 600
#: How far in the future a link's time may be (clocks of two processes differ a little).
CLOCK_SKEW = 60
#: The longest token read; a real one is about 200 characters.
MAX_TOKEN = 1024
_PURPOSE = b"gatebot web table sign-in link v1"


class LinkError(Exception):
    """A link that can't be followed: forged, damaged, or not a link at all."""


class LinkExpired(LinkError):
    """A genuine link, made more than :data:`LINK_SECONDS` ago."""


@dataclass(frozen=True, slots=True)
class Link:
    """Whom a link signs in: a Discord user, their player row's id then, and their display name."""

    user_id: str
    player_id: int
    name: str


class Links:
    """Seals and opens sign-in links under one web table's secret key (32 bytes)."""

    def __init__(self, key: bytes, *, clock: Callable[[], float] = time.time, seconds: int = LINK_SECONDS) -> None:
        from cryptography.fernet import Fernet
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_PURPOSE).derive(key)
        self._fernet: Fernet = Fernet(base64.urlsafe_b64encode(derived))
        self._clock = clock
        self.seconds = seconds

    def seal(self, link: Link) -> str:
        """The token for ``link``, good for :attr:`seconds` from now (URL-safe characters only)."""
        data = json.dumps({"u": link.user_id, "p": link.player_id, "n": link.name}, separators=(",", ":"))
        return self._fernet.encrypt_at_time(data.encode(), int(self._clock())).decode("ascii")

    def open(self, token: str) -> Link:
        """The link ``token`` seals; :class:`LinkExpired` when it is too old, :class:`LinkError` when it is no link."""
        if not token or len(token) > MAX_TOKEN or not token.isascii():
            raise LinkError("not a link")
        from cryptography.fernet import InvalidToken  # imported already: this Links made a Fernet

        raw = token.encode("ascii")
        try:
            made = self._fernet.extract_timestamp(raw)  # checks the seal first
            now = int(self._clock())
            if made > now + CLOCK_SKEW:
                raise LinkError("made in the future")
            if now - made > self.seconds:
                raise LinkExpired("expired")
            data = json.loads(self._fernet.decrypt_at_time(raw, self.seconds, now))
        except InvalidToken:
            raise LinkError("forged or damaged") from None
        except ValueError:
            raise LinkError("not a link's contents") from None
        if not isinstance(data, dict):
            raise LinkError("not a link's contents")
        user_id, player_id, name = data.get("u"), data.get("p"), data.get("n")
        if not isinstance(user_id, str) or not isinstance(player_id, int) or not isinstance(name, str):
            raise LinkError("not a link's contents")
        return Link(user_id, player_id, name)
