"""Shared pieces of the fake REST API: request reading, Discord-style errors, message-body checks.

Discord's error bodies are ``{"message": ..., "code": ...}`` (plus ``errors`` for 50035 Invalid
Form Body); discord.py turns them into ``NotFound``/``Forbidden``/``HTTPException`` with
``code`` and ``text``, so the fake answers the same way for the same mistakes.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import BodyPartReader, hdrs, web

from tests.fake_discord.records import RecordedFile, RecordedRequest
from tests.fake_discord.state import FakeState

JSON = dict[str, Any]

STATE = web.AppKey("fake_discord_state", FakeState)
#: Where the recording middleware leaves the request's record (a plain str key on aiohttp < 3.12).
RECORD: Any = web.RequestKey("fake_discord_record", RecordedRequest) if hasattr(web, "RequestKey") else "record"
API_PREFIX = "/api/v10"

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_COMPONENT_ROWS = 5


def state_of(request: web.Request) -> FakeState:
    """The fake's state, from the aiohttp application."""
    return request.app[STATE]


def record_of(request: web.Request) -> RecordedRequest:
    """The record the recording middleware made for this request (its parsed body is there)."""
    return request[RECORD]


def body_of(request: web.Request) -> JSON:
    """The request's JSON body (or multipart ``payload_json``), {} if none."""
    body = record_of(request).json
    return body if isinstance(body, dict) else {}


async def read_body(request: web.Request) -> tuple[Any, list[RecordedFile]]:
    """Parse a JSON or multipart body: (JSON or ``payload_json``, uploaded files).

    discord.py sends files as ``multipart/form-data`` with a ``payload_json`` part and
    ``files[n]`` parts; other plain form fields are folded into the JSON object.
    """
    if request.content_type == "multipart/form-data":
        payload: JSON = {}
        fields: JSON = {}
        files: list[RecordedFile] = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            data = bytes(await part.read(decode=False))
            if part.name == "payload_json":
                payload = json.loads(data)
            elif part.filename is not None:
                files.append(RecordedFile(part.name or "", part.filename, part.headers.get(hdrs.CONTENT_TYPE), data))
            elif part.name:
                fields[part.name] = data.decode()
        return {**fields, **payload}, files
    if not request.can_read_body:
        return None, []
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON answer with ``Content-Type: application/json`` exactly, as Discord sends it.

    discord.py parses a body as JSON only if the header is exactly that (no ``charset``), so
    aiohttp's ``web.json_response`` (which appends ``; charset=utf-8``) would reach it as a string.
    """
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def error(status: int, code: int, message: str, errors: JSON | None = None) -> web.Response:
    """A Discord error response."""
    body: JSON = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return json_response(body, status=status)


def form_error(field_path: str, code: str, message: str) -> web.Response:
    """400 Invalid Form Body (50035) for one field, e.g. ``content`` or ``data.choices``."""
    errors: JSON = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(field_path.split(".")):
        errors = {part: errors}
    return error(400, 50035, "Invalid Form Body", errors)


def not_found(what: str, code: int) -> web.Response:
    """404 for a missing object: ``Unknown Channel`` (10003), ``Unknown Message`` (10008), ..."""
    return error(404, code, f"Unknown {what}")


def missing_permissions() -> web.Response:
    """403 Missing Permissions (50013)."""
    return error(403, 50013, "Missing Permissions")


def no_content(request: web.Request) -> web.Response:
    """204 with no body, as Discord answers deletes, reactions and typing."""
    return web.Response(status=204)


def check_message_body(
    body: JSON, files: list[RecordedFile], *, prefix: str = "", creating: bool = True
) -> web.Response | None:
    """The error Discord gives for an invalid message body, or None if it is fine.

    Checks the limits bots actually hit: 2000 characters of content, 10 embeds (a 4096-character
    description, a 256-character title, 6000 characters in all), 5 component rows of at most 5
    buttons or one select (25 options; labels of 80 characters on buttons and 100 on options;
    custom ids of 100), and no empty message on create.
    """
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        return form_error(prefix + "content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    if len(body.get("embeds") or []) > MAX_EMBEDS:
        return form_error(prefix + "embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    components_v2 = int(body.get("flags") or 0) & (1 << 15)
    if not components_v2 and len(body.get("components") or []) > MAX_COMPONENT_ROWS:
        return form_error(
            prefix + "components", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENT_ROWS} or fewer in length."
        )
    problem = _check_embeds(body.get("embeds") or [], prefix) or _check_components(body.get("components") or [], prefix)
    if problem is not None:
        return problem
    has_any = content or body.get("embeds") or files or body.get("components") or body.get("sticker_ids")
    if creating and not has_any and not body.get("poll"):
        return error(400, 50006, "Cannot send an empty message")
    return None


MAX_DESCRIPTION = 4096
MAX_TITLE = 256
MAX_EMBED_TOTAL = 6000
MAX_ROW_ITEMS = 5
MAX_SELECT_OPTIONS = 25
MAX_BUTTON_LABEL = 80
MAX_OPTION_LABEL = 100
MAX_CUSTOM_ID = 100


def _too_long(path: str, limit: int) -> web.Response:
    return form_error(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_embeds(embeds: list[JSON], prefix: str) -> web.Response | None:
    for index, embed in enumerate(embeds):
        path = f"{prefix}embeds.{index}"
        description, title = embed.get("description") or "", embed.get("title") or ""
        if len(description) > MAX_DESCRIPTION:
            return _too_long(path + ".description", MAX_DESCRIPTION)
        if len(title) > MAX_TITLE:
            return _too_long(path + ".title", MAX_TITLE)
        fields = embed.get("fields") or []
        total = len(description) + len(title) + sum(len(f.get("name", "")) + len(f.get("value", "")) for f in fields)
        if total > MAX_EMBED_TOTAL:
            return form_error(path, "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    return None


def _check_components(rows: list[JSON], prefix: str) -> web.Response | None:
    for r, row in enumerate(rows):
        items = row.get("components") or []
        path = f"{prefix}components.{r}.components"
        if len(items) > MAX_ROW_ITEMS:
            return _too_long(path, MAX_ROW_ITEMS)
        for i, item in enumerate(items):
            where = f"{path}.{i}"
            if len(item.get("custom_id") or "") > MAX_CUSTOM_ID:
                return _too_long(where + ".custom_id", MAX_CUSTOM_ID)
            if item.get("type") == 2 and len(item.get("label") or "") > MAX_BUTTON_LABEL:
                return _too_long(where + ".label", MAX_BUTTON_LABEL)
            options = item.get("options")
            if item.get("type") == 3 and options is not None:
                if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                    return _too_long(where + ".options", MAX_SELECT_OPTIONS)
                for o, option in enumerate(options):
                    for key in ("label", "value", "description"):
                        if len(option.get(key) or "") > MAX_OPTION_LABEL:
                            return _too_long(f"{where}.options.{o}.{key}", MAX_OPTION_LABEL)
    return None
