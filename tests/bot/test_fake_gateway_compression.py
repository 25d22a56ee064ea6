"""The fake's gateway compression frames decode the way discord.py decodes them."""

from __future__ import annotations

import json
import zlib

import pytest

from tests.fake_discord.compression import ZlibStream, ZstdStream, make_compressor

PAYLOADS = [{"op": 10, "d": {"heartbeat_interval": 41250}}, {"op": 0, "t": "READY", "s": 1, "d": {"v": 10}}]


def test_zlib_stream_frames_end_in_sync_flush_and_share_one_stream() -> None:
    stream = ZlibStream()
    inflater = zlib.decompressobj()  # discord.py keeps one per connection
    for payload in PAYLOADS:
        frame = stream.compress(json.dumps(payload))
        assert frame.endswith(b"\x00\x00\xff\xff")
        assert json.loads(inflater.decompress(frame)) == payload


def test_zstd_stream_frames_decode_with_one_streaming_decompressor() -> None:
    zstandard = pytest.importorskip("zstandard")
    stream = ZstdStream()
    decompressor = zstandard.ZstdDecompressor().decompressobj()  # as discord.py's _ZstdDecompressionContext
    for payload in PAYLOADS:
        assert json.loads(decompressor.decompress(stream.compress(json.dumps(payload)))) == payload


def test_compression_choice() -> None:
    assert make_compressor(None) is None
    assert isinstance(make_compressor("zlib-stream"), ZlibStream)
    with pytest.raises(ValueError, match="unknown"):
        make_compressor("lz4")
