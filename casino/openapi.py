"""OpenAPI post-processing: every operation documents the errors it can answer with."""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "description": "Field-level errors (`{\"field\": [\"message\"]}`, nested paths such as "
                   "`round.seats[0].hands[0].cards[1]`) or `{\"detail\": \"message\"}`. A refused "
                   "round adds `messages`: each error as the table counts (`Seat 4, hand 1, card 2: ...`).",
    "additionalProperties": True,
}
ERRORS = {
    "400": "Bad input: each wrong field (or query parameter, or header) named with why; nothing was stored.",
    "401": "Not logged in (session) or no valid token.",
    "403": "Your role does not allow this.",
    "404": "No such record.",
    "503": "The database is unavailable for a moment (restarting or unreachable): retry after the "
           "Retry-After header's seconds. Nothing else answers 503.",
}
WRITE_ERRORS = {
    "409": "Conflict: e.g. a correction of a revision that is no longer current.",
    "413": "The body is larger than the limit (1 MiB); nothing was read further.",
    "415": "The body's media type is not accepted, or the body does not parse as it (send application/json).",
    "422": "An Idempotency-Key reused with a different body.",
}


def add_error_responses(result, generator, request, public):
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, path_item in result.get("paths", {}).items():
        for method, operation in path_item.items():
            responses = operation.setdefault("responses", {})
            codes = dict(ERRORS)
            if method in ("post", "put", "patch", "delete"):
                codes.update(WRITE_ERRORS)
            if "{" not in path and method == "get":
                codes.pop("404")  # a list is never "not found"
            for code, description in codes.items():
                responses.setdefault(code, {"description": description,
                                            "content": {"application/json": {"schema": ref}}})
    return result
