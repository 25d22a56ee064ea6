"""Gateway transport compression, as discord.py asks for it in the ``compress`` query parameter.

discord.py 2.5+ picks ``zstd-stream`` when the ``zstandard`` package (or Python 3.14's
``compression.zstd``) is importable, else ``zlib-stream``; both are one compression stream per
connection, flushed after every payload, each payload one binary websocket message:

* zlib-stream: ``compress()`` then ``flush(Z_SYNC_FLUSH)``, so every message ends in
  ``00 00 ff ff`` (discord.py buffers until it sees that suffix);
* zstd-stream: a single zstd frame that is never ended, flushed per message (FLUSH_BLOCK), so the
  client's one streaming decompressor yields each payload in full.

No ``compress`` parameter means plain JSON text messages.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Protocol


class Compressor(Protocol):
    """Turns one gateway payload's JSON text into the bytes of one websocket message."""

    def compress(self, text: str) -> bytes:
        """Compress and flush one payload."""
        ...


class ZlibStream:
    """``zlib-stream``: one zlib stream per connection, Z_SYNC_FLUSH after each payload."""

    def __init__(self) -> None:
        self._stream = zlib.compressobj()

    def compress(self, text: str) -> bytes:
        """One payload, ending in the 00 00 ff ff sync-flush marker."""
        return self._stream.compress(text.encode()) + self._stream.flush(zlib.Z_SYNC_FLUSH)


class ZstdStream:
    """``zstd-stream``: one never-ended zstd frame per connection, block-flushed after each payload."""

    def __init__(self) -> None:
        self._compress: Callable[[bytes], bytes]
        try:
            import zstandard  # type: ignore[import-not-found]
        except ImportError:
            from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

            compressor = ZstdCompressor()
            self._compress = lambda data: compressor.compress(data, mode=ZstdCompressor.FLUSH_BLOCK)
        else:
            stream = zstandard.ZstdCompressor().compressobj()
            self._compress = lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)

    def compress(self, text: str) -> bytes:
        """One payload as a flushed zstd block."""
        return self._compress(text.encode())


def make_compressor(kind: str | None) -> Compressor | None:
    """The compressor for a ``compress`` query value; None for plain text.

    Raises ValueError for an unknown kind, or for zstd-stream when no zstd module is importable
    (then the client could not have asked for it either).
    """
    if not kind:
        return None
    if kind == "zlib-stream":
        return ZlibStream()
    if kind == "zstd-stream":
        try:
            return ZstdStream()
        except ImportError as error:
            raise ValueError(
                "zstd-stream asked for, but neither zstandard nor compression.zstd is installed"
            ) from error
    raise ValueError(f"unknown gateway compression {kind!r}")
