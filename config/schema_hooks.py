"""drf-spectacular post-processing: the schema states every constraint the API enforces.

- A request body takes only its documented fields (``additionalProperties: false``): the strict
  serializers of ``config.api`` refuse any other with 400.
- Integer path ids are 1 to 2^63 - 1.
- Every operation may answer 429 (too many requests, with ``Retry-After``) and, when it takes a
  body, 415 (not JSON); the error body is the one of ``config.api.ErrorSerializer``.

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
            responses = operation.setdefault("responses", {})
            responses.setdefault(
                "429",
                _error(
                    "Too many requests: wait the seconds in Retry-After (docs/api-errors.md).",
                    {"Retry-After": {"schema": {"type": "integer", "minimum": 1}, "required": True}},
                ),
            )
            if "requestBody" in operation:
                responses.setdefault("415", _error("The body must be JSON (application/json)."))
    return result
