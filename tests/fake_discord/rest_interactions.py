"""REST routes for interactions: the initial callback, and webhook follow-ups and edits.

The callback is checked the way Discord checks it: a known id and token, one answer only,
within the acknowledgement deadline (3 s on Discord: later answers get 404 Unknown interaction,
10062), and a callback type allowed for the interaction type. Follow-ups need an acknowledged
interaction; ``@original`` is the message the callback created (or, for a component interaction
answered with type 6 or 7, the message the component is on).
"""

from __future__ import annotations

from aiohttp import web

from tests.fake_discord.records import EPHEMERAL, LOADING, InteractionCallback, InteractionRecord, StoredMessage
from tests.fake_discord.rest_common import (
    API_PREFIX,
    JSON,
    body_of,
    check_message_body,
    error,
    form_error,
    json_response,
    no_content,
    not_found,
    record_of,
    state_of,
)
from tests.fake_discord.state import FakeState

routes = web.RouteTableDef()

#: Callback types each interaction type accepts (ping, command, component, autocomplete, modal submit).
ALLOWED_CALLBACKS = {1: {1}, 2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}
MESSAGE_TYPES = {2: 20, 3: 0, 5: 0}  # message type of a response: CHAT_INPUT_COMMAND for commands

WEBHOOK = API_PREFIX + "/webhooks/{app_id:\\d+}/{token}"
WEBHOOK_MESSAGE = WEBHOOK + "/messages/{message_id}"


def _interaction_extra(state: FakeState, record: InteractionRecord) -> JSON:
    """Fields Discord adds to messages an interaction creates (webhook_id, interaction_metadata, ...)."""
    payload = record.payload
    user = payload.get("member", {}).get("user") or payload.get("user")
    metadata: JSON = {
        "id": str(record.id),
        "type": record.type,
        "user": user,
        "authorizing_integration_owners": payload.get("authorizing_integration_owners", {}),
    }
    extra: JSON = {
        "webhook_id": str(state.world.application.id),
        "application_id": str(state.world.application.id),
        "type": MESSAGE_TYPES.get(record.type, 0),
        "interaction_metadata": metadata,
    }
    if record.type == 2:
        metadata["command_type"] = payload["data"].get("type", 1)
        extra["interaction"] = {"id": str(record.id), "type": 2, "name": payload["data"]["name"], "user": user}
    if record.component_message_id is not None:
        metadata["interacted_message_id"] = str(record.component_message_id)
    return extra


def _new_message(
    state: FakeState, record: InteractionRecord, data: JSON, request: web.Request, origin: str
) -> StoredMessage:
    channel = state.world.channel(record.channel_id)
    assert channel is not None, "interactions are only sent in channels the fake knows"
    return state.create_message(
        channel,
        data,
        record_of(request).files,
        author=state.world.bot,
        origin=origin,
        extra=_interaction_extra(state, record),
    )


@routes.post(API_PREFIX + "/interactions/{interaction_id:\\d+}/{token}/callback")
async def callback(request: web.Request) -> web.Response:
    """The bot's first answer to an interaction (``InteractionResponse.*``)."""
    state = state_of(request)
    recorded = record_of(request)
    record = state.interactions.get(int(request.match_info["interaction_id"]))
    if record is None or record.token != request.match_info["token"]:
        return error(404, 10062, "Unknown interaction")
    deadline = state.ack_deadline
    if record.callback is None and deadline and recorded.received_at - record.sent_at > deadline:
        record.rejected.append(recorded)
        return error(404, 10062, "Unknown interaction")
    if record.callback is not None:
        record.rejected.append(recorded)
        return error(400, 40060, "Interaction has already been acknowledged.")
    body = body_of(request)
    kind, data = body.get("type"), body.get("data") or {}
    if kind not in ALLOWED_CALLBACKS.get(record.type, set()):
        return form_error("type", "INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type")
    if kind in (4, 7):
        problem = check_message_body(data, recorded.files, prefix="data.", creating=kind == 4)
        if problem is not None:
            return problem
    if kind == 8 and len(data.get("choices") or []) > 25:
        return form_error("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")

    message: StoredMessage | None = None
    if kind == 4:
        message = _new_message(state, record, data, request, "interaction")
        await state.announce("MESSAGE_CREATE", message)
    elif kind == 5:
        loading = {"content": "", "flags": LOADING | (int(data.get("flags") or 0) & EPHEMERAL)}
        message = _new_message(state, record, loading, request, "interaction")
        await state.announce("MESSAGE_CREATE", message)
    elif kind in (6, 7) and record.component_message_id is not None:
        message = state.messages.get(record.component_message_id)
        if kind == 7 and message is not None:
            state.edit_message(message, data, recorded.files)
            await state.announce("MESSAGE_UPDATE", message)
    if message is not None:
        record.original_message_id = message.id
        message.interaction_id = message.interaction_id or record.id
    record.callback = InteractionCallback(
        type=kind,
        data=data,
        files=recorded.files,
        received_at=recorded.received_at,
        latency=recorded.received_at - record.sent_at,  # arrival time, before the fake's own work
        request=recorded,
    )
    state.changes.notify()
    if request.query.get("with_response", "").lower() not in ("1", "true"):
        return no_content(request)
    answer: JSON = {"interaction": {"id": str(record.id), "type": record.type}}
    if message is not None:
        answer["interaction"].update(
            response_message_id=str(message.id),
            response_message_loading=kind == 5,
            response_message_ephemeral=message.ephemeral,
        )
        if kind in (4, 7):  # Discord's description has a resource only for a message sent or updated
            answer["resource"] = {"type": kind, "message": message.payload}
    return json_response(answer)


def _webhook_interaction(request: web.Request) -> InteractionRecord | web.Response:
    """The interaction behind an interaction webhook, or 404 Unknown Webhook (10015)."""
    state = state_of(request)
    record = state.interaction_by_token(request.match_info["token"])
    if int(request.match_info["app_id"]) != state.world.application.id or record is None or record.callback is None:
        return not_found("Webhook", 10015)
    return record


def _webhook_message(request: web.Request, record: InteractionRecord) -> StoredMessage | web.Response:
    """``@original`` or a follow-up of ``record``, or 404 Unknown Message (10008)."""
    wanted = request.match_info["message_id"]
    message_id = record.original_message_id if wanted == "@original" else int(wanted) if wanted.isdigit() else None
    allowed = {record.original_message_id, *record.followup_ids}
    message = state_of(request).messages.get(message_id) if message_id in allowed else None  # type: ignore[arg-type]
    if message is None or message.deleted:
        return not_found("Message", 10008)
    return message


@routes.post(WEBHOOK)
async def followup(request: web.Request) -> web.Response:
    """A follow-up message (``Interaction.followup.send``); ``?wait=1`` returns it."""
    record = _webhook_interaction(request)
    if isinstance(record, web.Response):
        return record
    state = state_of(request)
    body, files = body_of(request), record_of(request).files
    problem = check_message_body(body, files)
    if problem is not None:
        return problem
    message = _new_message(state, record, body, request, "followup")
    record.followup_ids.append(message.id)
    message.interaction_id = record.id
    await state.announce("MESSAGE_CREATE", message)
    state.changes.notify()
    if request.query.get("wait", "").lower() in ("1", "true"):
        return json_response(message.payload)
    return no_content(request)


@routes.get(WEBHOOK_MESSAGE)
@routes.patch(WEBHOOK_MESSAGE)
@routes.delete(WEBHOOK_MESSAGE)
async def webhook_message(request: web.Request) -> web.Response:
    """Fetch, edit or delete ``@original`` or a follow-up (``edit_original_response``, ...)."""
    record = _webhook_interaction(request)
    if isinstance(record, web.Response):
        return record
    message = _webhook_message(request, record)
    if isinstance(message, web.Response):
        return message
    state = state_of(request)
    if request.method == "GET":
        return json_response(message.payload)
    if request.method == "DELETE":
        state.delete_message(message)
        await state.announce("MESSAGE_DELETE", message)
        state.changes.notify()
        return no_content(request)
    body, files = body_of(request), record_of(request).files
    problem = check_message_body(body, files, creating=False)
    if problem is not None:
        return problem
    state.edit_message(message, body, files)
    await state.announce("MESSAGE_UPDATE", message)
    state.changes.notify()
    return json_response(message.payload)
