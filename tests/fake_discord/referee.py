"""Discord's own OpenAPI description as the referee of every REST call the bot makes to the fake.

``openapi/openapi.json`` is Discord's published description of its v10 HTTP API (vendored
unchanged, see ``openapi/README.md``). For each API request the fake receives, :class:`Referee`
finds the operation (method plus path template from the description's ``paths``; a literal
segment such as ``@me`` or ``search`` wins over a placeholder), then checks the path parameters,
the query (no unknown or missing parameter, each value read as its schema's type) and the body:
JSON, or for ``multipart/form-data`` the ``payload_json`` part merged with the other fields and
one string per file part, validated against the operation's schema with ``jsonschema`` (Draft
2020-12, as OpenAPI 3.1 says; ``$ref``s resolve into the description through ``referencing``).
It also checks each JSON answer the fake sends against the operation's response for that
status (``200``, ``4XX``...), so the fake answers only in shapes Discord documents; an answer whose
shape (keys, numbers, list lengths: everything but its texts) was already found valid is not
validated again, since the fake makes every text of a kind the same way.

A problem becomes a :class:`Violation` with the operation id, the JSON path and the validator's
message. The fake records it (``fake.violations``), answers a rejected request as Discord would
(404 for an unknown route, 400 Invalid Form Body otherwise) and ``tests/bot/conftest.py`` fails
the test at teardown if any is left; a test that sends malformed traffic on purpose takes them
with ``fake.take_violations()`` and asserts on them.

The description is loaded once per process and each validator built once and cached. Two
shortcuts keep a check to a few milliseconds without changing a verdict: a union of members told
apart by a ``type`` constant (components, callbacks, options) validates only the member named,
and an object already found valid against a ``$ref`` (a row of buttons, an author) is not
validated again. Counts of what was checked are kept
per process (:data:`TALLY`); with ``GATEBOT_REFEREE_REPORT=path`` the bot tests' fixture appends
them to ``path`` after every test, and ``python -m tests.fake_discord.referee_report path`` sums them.

Where the description is stricter than Discord for something discord.py sends unchanged, the
exception is listed in :data:`EXCEPTIONS`, one line each with its reason.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DESCRIPTION = Path(__file__).parent / "openapi" / "openapi.json"
#: The URI the description is registered under, so ``#/components/...`` refs resolve inside it.
BASE_URI = "urn:discord:openapi"
REPORT_VARIABLE = "GATEBOT_REFEREE_REPORT"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: Longest excerpt of a rejected value quoted in a violation's message.
MAX_MESSAGE = 300

#: Narrow exceptions where the description is stricter than Discord in practice (for what discord.py
#: sends unchanged, or what Discord answers): a JSON path pattern, the kind of value allowed there, why.
EXCEPTIONS: tuple[tuple[re.Pattern[str], type, str], ...] = (
    (re.compile(r"\.message_reference\.(channel_id|message_id|guild_id)$"), int,
     "discord.py's MessageReference.to_dict() sends snowflakes as JSON integers, which Discord reads"),
    (re.compile(r"(^\$|\.data)\.attachments\[\d+\]\.id$"), int,
     "discord.py numbers a message's new attachments 0, 1, ... as JSON integers, which Discord reads"),
    (re.compile(r"^\$\.recipient_id$"), int,
     "discord.py's create_dm sends the user's id as a JSON integer, which Discord reads"),
    (re.compile(r"\['_errors'\]\[\d+\]\.code$"), str,
     "in a 400 Invalid Form Body Discord gives a field's error codes as text (BASE_TYPE_MAX_LENGTH), not integers"),
)
#: Discord documents no 5xx answers, but sends them; the fake's injected server errors are not checked.
SERVER_ERRORS = 500


@dataclass(frozen=True, slots=True)
class Violation:
    """One thing Discord's description does not allow: in a request the bot made, or in the fake's answer."""

    method: str
    path: str
    operation: str | None
    where: str
    message: str
    #: True when the fake's own answer is at fault rather than the bot's request.
    in_response: bool = False

    def __str__(self) -> str:
        operation = self.operation or "no operation"
        side = "the fake answered" if self.in_response else "the bot sent"
        return f"{operation} ({self.method} {self.path}): {side} {self.where}: {self.message}"


@dataclass
class Tally:
    """How many requests (and answers) the referee checked, and which operations they called."""

    requests: int = 0
    responses: int = 0
    operations: set[str] = field(default_factory=set)

    def as_json(self) -> dict[str, Any]:
        return {"requests": self.requests, "responses": self.responses, "operations": sorted(self.operations)}


#: Everything checked in this process (every fake adds to it).
TALLY = Tally()


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the description: its id, template, and where its parts are."""

    id: str
    method: str
    template: str
    pointer: str  # JSON pointer of the operation object in the description
    parameters: tuple[Mapping[str, Any], ...]
    body: Mapping[str, Any] | None
    responses: Mapping[str, Any]


class Description:
    """Discord's OpenAPI description, indexed by method and path shape, with cached validators."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        _dispatch_unions(document, document)
        resource: Resource[Any] = DRAFT202012.create_resource(document)
        self.registry: Registry[Any] = Registry().with_resource(BASE_URI, resource)
        self._by_shape: dict[tuple[str, int], list[tuple[tuple[str | None, ...], Operation]]] = {}
        for template, item in document["paths"].items():
            shared = tuple(item.get("parameters", ()))
            segments = tuple(None if part.startswith("{") else part for part in template.strip("/").split("/"))
            for method in METHODS:
                if method not in item:
                    continue
                spec = item[method]
                operation = Operation(
                    id=spec["operationId"],
                    method=method.upper(),
                    template=template,
                    pointer=f"/paths/{_escape(template)}/{method}",
                    parameters=shared + tuple(spec.get("parameters", ())),
                    body=spec.get("requestBody"),
                    responses=spec.get("responses", {}),
                )
                self._by_shape.setdefault((method.upper(), len(segments)), []).append((segments, operation))
        for candidates in self._by_shape.values():
            # A literal segment wins over a placeholder at the same place (``/users/@me`` before ``/users/{user_id}``).
            candidates.sort(key=lambda entry: tuple(part is None for part in entry[0]))

    def find(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a request calls and its path parameters, or None if the description has none."""
        parts = path.strip("/").split("/")
        for segments, operation in self._by_shape.get((method.upper(), len(parts)), ()):
            if all(segment is None or segment == part for segment, part in zip(segments, parts, strict=True)):
                names = [name.strip("{}") for name in operation.template.strip("/").split("/")]
                values = {
                    name: part for name, part, segment in zip(names, parts, segments, strict=True) if segment is None
                }
                if all(values.values()):
                    return operation, values
        return None

    def resolve(self, node: Mapping[str, Any]) -> Mapping[str, Any]:
        """``node`` with a top-level ``$ref`` into the description followed."""
        while "$ref" in node:
            node = self.registry.resolver(BASE_URI).lookup(node["$ref"]).contents
        return node

    @functools.cache  # noqa: B019 - one Description per process, kept for its lifetime
    def validator(self, pointer: str) -> Draft202012Validator:
        """A validator for the schema at ``pointer`` in the description, built once."""
        return RememberingValidator({"$ref": f"{BASE_URI}#{quote(pointer, safe='/~')}"}, registry=self.registry)


_PLAIN_REF = Draft202012Validator.VALIDATORS["$ref"]
#: (reference, JSON text) of objects and arrays already found valid against what the reference names.
_VALID: set[tuple[str, str]] = set()
MAX_REMEMBERED = 200_000


def _remembered_ref(validator: Any, ref: str, instance: Any, schema: Any) -> Iterable[ValidationError]:
    """``$ref``, skipping an object or array already found valid against the same reference.

    Every reference in the description points into the one document, so the same reference and
    the same JSON text always get the same verdict; a board's rows of buttons, an author, an
    embed are the same from one edit to the next, and validating them again is most of the cost.
    """
    if not isinstance(instance, dict | list):
        yield from _PLAIN_REF(validator, ref, instance, schema)
        return
    key = (ref, json.dumps(instance, sort_keys=True))
    if key in _VALID:
        return
    errors = list(_PLAIN_REF(validator, ref, instance, schema))
    if not errors:
        if len(_VALID) >= MAX_REMEMBERED:
            _VALID.clear()
        _VALID.add(key)
    yield from errors


#: (operation, status, skeleton) of the fake's answers already found valid.
_ANSWER_SHAPES: set[tuple[str, int, str]] = set()


def _skeleton(value: Any) -> Any:
    """An answer with its texts blanked: the fake builds every text of a kind the same way, so an
    answer of a shape already found valid (same keys, numbers, lengths of lists) is valid too."""
    if isinstance(value, dict):
        return {key: _skeleton(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_skeleton(item) for item in value]
    return "" if isinstance(value, str) else value


RememberingValidator = validators.extend(Draft202012Validator, {"$ref": _remembered_ref})


def _dispatch_unions(node: Any, document: Mapping[str, Any]) -> None:
    """Rewrite, in memory, each union told apart by a required ``type`` constant to validate only its member.

    A ``oneOf`` of message components (or callbacks, or command options) otherwise validates the
    instance against every member, which makes a board message cost tens of milliseconds. When
    every member is an object that requires ``type`` with one distinct constant value, the union
    means exactly "``type`` is one of these, and the member with that ``type`` holds", which is
    what the rewritten ``allOf`` of ``if``/``then`` says, so what passes and fails is unchanged.
    """
    if isinstance(node, list):
        for item in node:
            _dispatch_unions(item, document)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_unions(value, document)
    for keyword in ("oneOf", "anyOf"):
        members = node.get(keyword)
        kinds = [_kind_of(member, document) for member in members] if isinstance(members, list) else []
        if len(kinds) < 2 or None in kinds or len(set(kinds)) != len(kinds):
            continue
        del node[keyword]
        node.setdefault("allOf", []).extend([
            {"properties": {"type": {"enum": kinds}}},
            *(
                {"if": {"properties": {"type": {"const": kind}}}, "then": member}
                for kind, member in zip(kinds, members, strict=True)
            ),
        ])


def _kind_of(member: Any, document: Mapping[str, Any]) -> Any:
    """The constant ``type`` an object member of a union requires, or None if it has none."""
    while isinstance(member, dict) and isinstance(member.get("$ref"), str) and member["$ref"].startswith("#/"):
        target: Any = document
        for token in member["$ref"][2:].split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        member = target
    if not isinstance(member, dict) or member.get("type") != "object" or "type" not in member.get("required", ()):
        return None
    kind = member.get("properties", {}).get("type", {})
    values = kind.get("enum", [kind["const"]] if "const" in kind else [])
    return values[0] if len(values) == 1 and isinstance(values[0], int | str) else None


@functools.cache
def description() -> Description:
    """The vendored description, read once per process."""
    return Description(json.loads(DESCRIPTION.read_text(encoding="utf-8")))


class Referee:
    """Checks one fake's traffic against the description and keeps what it found."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.tally = Tally()

    def check_request(
        self, method: str, path: str, query: Mapping[str, str], content_type: str, body: Any, files: Iterable[str]
    ) -> tuple[Operation | None, list[Violation]]:
        """The operation a request calls (None if unknown) and what is wrong with the request."""
        found = description().find(method, path)
        if found is None:
            problem = Violation(method, path, None, "$", "no operation of Discord's API has this method and path")
            return None, self._keep([problem])
        operation, path_values = found
        self.tally.requests += 1
        self.tally.operations.add(operation.id)
        TALLY.requests += 1
        TALLY.operations.add(operation.id)
        problems = [
            *self._check_parameters(operation, method, path, path_values, query),
            *self._check_body(operation, method, path, content_type, body, files),
        ]
        return operation, self._keep(problems)

    def check_response(self, operation: Operation, method: str, path: str, status: int, body: Any) -> list[Violation]:
        """What is wrong with the fake's answer ``status``/``body`` to a request of ``operation``."""
        if status >= SERVER_ERRORS:
            return []
        self.tally.responses += 1
        TALLY.responses += 1
        key = next((k for k in (str(status), f"{status // 100}XX", "default") if k in operation.responses), None)
        if key is None:
            return self._keep([_response_problem(operation, method, path, "$", f"status {status} is not documented")])
        answer = description().resolve(operation.responses[key])
        media = answer.get("content", {}).get("application/json")
        if media is None:
            if body is not None:
                return self._keep([_response_problem(operation, method, path, "$", f"status {status} takes no body")])
            return []
        shape = (operation.id, status, json.dumps(_skeleton(body)))
        if shape in _ANSWER_SHAPES:
            return []
        pointer = _pointer_of(operation.responses[key], f"{operation.pointer}/responses/{_escape(key)}")
        problem = self._first_error(f"{pointer}/content/{_escape('application/json')}/schema", body)
        if problem is None:
            _ANSWER_SHAPES.add(shape)
            return []
        return self._keep([_response_problem(operation, method, path, problem.json_path, _message(problem))])

    def take(self) -> list[Violation]:
        """The violations found so far, forgetting them (for a test that sent bad traffic on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    # -- the parts of a request --------------------------------------------------------------

    def _check_parameters(
        self, operation: Operation, method: str, path: str, path_values: Mapping[str, str], query: Mapping[str, str]
    ) -> list[Violation]:
        problems: list[Violation] = []
        known: set[str] = set()
        for index, reference in enumerate(operation.parameters):
            parameter = description().resolve(reference)
            name, place = parameter["name"], parameter["in"]
            values = path_values if place == "path" else query if place == "query" else None
            if values is None:
                continue
            if place == "query":
                known.add(name)
            if name not in values:
                if parameter.get("required"):
                    problems.append(Violation(method, path, operation.id, f"{place} {name}", "is required"))
                continue
            schema_pointer = self._parameter_pointer(operation, reference, index) + "/schema"
            schema = description().resolve(parameter.get("schema", {}))
            value = _coerce(values[name], schema)
            error = self._first_error(schema_pointer, value)
            if error is not None:
                problems.append(Violation(method, path, operation.id, f"{place} {name}", _message(error)))
        for name in query:
            if name not in known:
                unknown = Violation(method, path, operation.id, f"query {name}", "is not a parameter of this operation")
                problems.append(unknown)
        return problems

    def _parameter_pointer(self, operation: Operation, reference: Mapping[str, Any], index: int) -> str:
        """Where parameter ``index`` of ``operation`` is in the description (path-level ones come first)."""
        if "$ref" in reference:
            return str(reference["$ref"]).removeprefix("#")
        item = operation.pointer.rsplit("/", 1)[0]
        shared = description().document["paths"][operation.template].get("parameters", [])
        if index < len(shared):
            return f"{item}/parameters/{index}"
        return f"{operation.pointer}/parameters/{index - len(shared)}"

    def _check_body(
        self, operation: Operation, method: str, path: str, content_type: str, body: Any, files: Iterable[str]
    ) -> list[Violation]:
        names = list(files)
        if operation.body is None:
            if body is not None or names:
                return [Violation(method, path, operation.id, "$", "this operation takes no body")]
            return []
        request_body = description().resolve(operation.body)
        if body is None and not names:
            if request_body.get("required"):
                return [Violation(method, path, operation.id, "$", "a body is required")]
            return []
        media = "multipart/form-data" if content_type == "multipart/form-data" else "application/json"
        if media not in request_body.get("content", {}):
            return [Violation(method, path, operation.id, "$", f"{content_type or 'no content type'} is not accepted")]
        instance = {**body, **dict.fromkeys(names, "")} if isinstance(body, dict) and names else body
        pointer = _pointer_of(operation.body, f"{operation.pointer}/requestBody")
        error = self._first_error(f"{pointer}/content/{_escape(media)}/schema", instance)
        if error is None:
            return []
        return [Violation(method, path, operation.id, error.json_path, _message(error))]

    def _first_error(self, pointer: str, instance: Any) -> ValidationError | None:
        errors = (_explain(error) for error in description().validator(pointer).iter_errors(instance))
        return best_match(error for error in errors if error is not None)

    def _keep(self, problems: list[Violation]) -> list[Violation]:
        self.violations.extend(problems)
        return problems


def _explain(error: ValidationError) -> ValidationError | None:
    """The error that names the real problem (None if :data:`EXCEPTIONS` allows it).

    Discord's unions (components, callbacks, options, ``null`` or an object) tell their members
    apart by ``type``: the member whose ``type`` (or JSON type) fits the instance is the one
    meant, so its own errors are the readable ones, not "is not valid under any of the given schemas".
    """
    if _excepted(error):
        return None
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return error
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [errors for errors in branches.values() if not any(_misses_discriminator(sub) for sub in errors)]
    explained = [[found for found in map(_explain, errors) if found is not None] for errors in fitting]
    if any(not errors for errors in explained):
        return None  # a member fits but for what EXCEPTIONS allows
    return best_match(explained[0]) if len(explained) == 1 else error


def _excepted(error: ValidationError) -> bool:
    """Whether one of :data:`EXCEPTIONS` allows this value where it is."""
    return any(
        type(error.instance) is kind and pattern.search(error.json_path) for pattern, kind, _reason in EXCEPTIONS
    )


def _misses_discriminator(error: ValidationError) -> bool:
    """Whether ``error`` says the instance is another member of the union altogether."""
    at_top = not error.relative_path
    about_kind = list(error.relative_path) == ["type"] and error.validator in ("const", "enum", "type")
    return (at_top and error.validator in ("type", "const", "enum")) or about_kind


def _response_problem(operation: Operation, method: str, path: str, where: str, message: str) -> Violation:
    return Violation(method, path, operation.id, where, message, in_response=True)


def _escape(token: str) -> str:
    """A JSON pointer token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def _pointer_of(node: Mapping[str, Any], here: str) -> str:
    """The pointer of what ``node`` (found at ``here``) stands for: its ``$ref`` target if it has one."""
    return str(node["$ref"]).removeprefix("#") if "$ref" in node else here


def _coerce(text: str, schema: Mapping[str, Any]) -> Any:
    """A query or path value read as its schema's type (left as text when it isn't one, so it fails)."""
    types = schema.get("type", "string")
    types = [types] if isinstance(types, str) else list(types)
    if "integer" in types and text.lstrip("-").isdigit():
        return int(text)
    if "number" in types:
        try:
            return float(text)
        except ValueError:
            pass
    if "boolean" in types and text in ("true", "True", "1", "false", "False", "0"):
        return text in ("true", "True", "1")  # Discord's documented spellings of a boolean in a query
    return text


def _message(error: ValidationError) -> str:
    message = error.message
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def append_report(path: Path, tally: Tally) -> None:
    """Add one line of counts to a report file (each test worker appends its own)."""
    with path.open("a", encoding="utf-8") as report:
        report.write(json.dumps(tally.as_json()) + "\n")


def summarise(path: Path) -> str:
    """The totals of a report file: requests and answers checked, distinct operations, and which."""
    requests = responses = 0
    operations: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            counts = json.loads(line)
            requests += counts["requests"]
            responses += counts["responses"]
            operations.update(counts["operations"])
    return (
        f"{requests} requests and {responses} answers checked against Discord's API description, "
        f"{len(operations)} distinct operations:\n" + "\n".join(f"  {name}" for name in sorted(operations))
    )

