"""drf-spectacular post-processing: the schema states every constraint the API enforces.

- A request body takes only its documented fields (``additionalProperties: false``): the strict
  serializers of ``config.api`` refuse any other with 400.
- Integer path ids are 1 to 2^63 - 1.
- Every operation may answer 429 (too many requests, with ``Retry-After``); one with an id in its
  path 404; one with a body or query parameters 400 and, for a body, 415 (not JSON) and 422 (a value
  that does not fit the rest of the data); every write 403. The error body is ``config.api.ErrorSerializer``'s.

A leaf: it imports no app.
"""

from __future__ import annotations

from config.api import MAX_ID

ERROR_REF = {"$ref": "#/components/schemas/Error"}
METHODS = ("get", "put", "post", "patch", "delete")


def _error(description: str, headers: dict | None = None) -> dict:
    response = {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}
    if headers:
        response["headers"] = headers
    return response


def strict_requests(result, generator, request, public):
    components = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in components.items():
        if name.endswith("Request") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    has_error = "Error" in components

    def has_required(ref: dict) -> bool:
        schema = components.get(ref.get("$ref", "").rsplit("/", 1)[-1], ref)
        if "oneOf" in schema:
            return all(has_required(variant) for variant in schema["oneOf"])
        return bool(schema.get("required"))

    for path in result.get("paths", {}).values():
        for method in METHODS:
            operation = path.get(method)
            if operation is None:
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "path" and schema.get("type") == "integer":
                    schema.setdefault("minimum", 1)
                    schema.setdefault("maximum", MAX_ID)
            if not has_error:
                continue
            body = operation.get("requestBody")
            if body is not None:
                # A body with required fields must be sent (an empty POST is 400, as it says).
                schemas = [c.get("schema", {}) for c in body.get("content", {}).values()]
                if schemas and all(has_required(schema) for schema in schemas):
                    body["required"] = True
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            if any(p.get("in") == "path" for p in parameters):
                responses.setdefault("404", _error("No such object (or an address that is not an id)."))
            if "requestBody" in operation or any(p.get("in") == "query" for p in parameters):
                responses.setdefault("400", _error("Malformed request: the message names the field."))
            if method != "get":
                responses.setdefault("403", _error("Not allowed (writes need tournament staff)."))
            if "requestBody" in operation:
                responses.setdefault(
                    "422", _error("Against a rule: a value that does not fit the rest of the data (errors).")
                )
            responses.setdefault(
                "429",
                _error(
                    "Too many requests: wait the seconds in Retry-After (docs/api-errors.md).",
                    {"Retry-After": {"schema": {"type": "integer", "minimum": 1}, "required": True}},
                ),
            )
            if "requestBody" in operation:
                responses.setdefault("415", _error("The body must be JSON (application/json)."))
                responses.setdefault("413", _error("The body is too large (config.limits)."))
    return result
