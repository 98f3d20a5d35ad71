"""What a request body may be: JSON of bounded size and depth, holding only storable text.

One rule for the whole API (the DRF parser below) and the tablet's JSON posts
(``read_json_body``): a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is refused with 413,
JSON that does not parse or is nested deeper than :data:`MAX_DEPTH` with 400, and every
string (and object key) is checked by :func:`text_problem`, each offender named by its
path (``round.seats[0].player``). PostgreSQL cannot store NUL or a lone surrogate at all,
and control characters in a reason or a player id are never what the floor meant; tabs
and line breaks are text and stay.
"""

from __future__ import annotations

import json
import re

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, parsers, status

#: Deeper than any real body (a round is about 6 levels, a ruleset's pay tables 4).
MAX_DEPTH = 32

# C0 controls but tab, line feed and carriage return; DEL and the C1 controls; surrogates.
_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored as it is, or None when it can."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    char = found.group()
    if char == "\x00":
        return "must not contain NUL characters (U+0000)"
    if "\ud800" <= char <= "\udfff":
        return f"must not contain a lone surrogate (U+{ord(char):04X}); send UTF-8 text"
    return f"must not contain control characters (U+{ord(char):04X}); tabs and line breaks are allowed"


class BodyRefused(Exception):  # noqa: N818 - read as "raise BodyRefused(...)"
    """A body that is not accepted: ``status`` with a ``detail`` or field ``errors``."""

    def __init__(self, status_code: int, detail: str = "", errors: dict[str, list[str]] | None = None):
        self.status_code, self.detail, self.errors = status_code, detail, errors
        super().__init__(detail or str(errors))


def max_body_bytes() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def too_large() -> BodyRefused:
    return BodyRefused(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
                       f"The body is larger than {max_body_bytes():,} bytes.")


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def check_json(data: object) -> None:
    """Refuse a parsed body nested deeper than MAX_DEPTH or holding unstorable text."""
    errors: dict[str, list[str]] = {}
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                errors.setdefault(path or "non_field_errors", []).append(problem)
            continue
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise BodyRefused(status.HTTP_400_BAD_REQUEST, f"JSON nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                problem = text_problem(key)
                if problem:
                    errors.setdefault(path or "non_field_errors", []).append(f"keys {problem}")
                stack.append((item, _join(path, key), depth + 1))
        else:
            stack.extend((item, _join(path, index), depth + 1) for index, item in enumerate(value))
    if errors:
        raise BodyRefused(status.HTTP_400_BAD_REQUEST, errors=dict(sorted(errors.items())))


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def load_json(raw: bytes) -> object:
    """Parse and check a JSON body (see the module docstring); raises BodyRefused."""
    if len(raw) > max_body_bytes():
        raise too_large()
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except RecursionError:
        raise BodyRefused(status.HTTP_400_BAD_REQUEST, f"JSON nested deeper than {MAX_DEPTH} levels") from None
    except UnicodeDecodeError as exc:
        raise BodyRefused(status.HTTP_400_BAD_REQUEST, f"The body is not UTF-8: {exc.reason} at byte {exc.start}") from None
    except ValueError as exc:
        raise BodyRefused(status.HTTP_400_BAD_REQUEST, f"The body is not JSON: {exc}") from None
    check_json(data)
    return data


def read_json_body(request) -> object:
    """A Django view's JSON body under the same rules as the API's (raises BodyRefused)."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise too_large() from None
    return load_json(raw or b"{}")


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The body is too large."
    default_code = "too_large"


def as_api_exception(refused: BodyRefused) -> exceptions.APIException:
    if refused.status_code == status.HTTP_413_REQUEST_ENTITY_TOO_LARGE:
        return PayloadTooLarge(refused.detail)
    if refused.errors:
        return exceptions.ValidationError(refused.errors)
    return exceptions.ParseError(refused.detail)


class LimitedJSONParser(parsers.JSONParser):
    """The API's only parser: JSON under the limits of :func:`load_json`."""

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return {}
        raw = stream.read(max_body_bytes() + 1)  # never more than one byte past the limit
        try:
            return load_json(raw)
        except BodyRefused as refused:
            raise as_api_exception(refused) from None


_REPLACING: dict[type, type] = {}


def replacing(serializer_class: type) -> type:
    """``serializer_class`` for a PUT: a whole replacement, so every writable field is required.

    DRF leaves a field with a default (``required=False``) optional on PUT too, and the
    update then keeps the stored value: a PUT without a ruleset's ``config`` was accepted as
    if it had been a PATCH. The subclass has its own name, so the OpenAPI schema documents
    the PUT body (``...ReplaceRequest``) with its required fields apart from the POST's."""
    made = _REPLACING.get(serializer_class)
    if made is None:
        def get_fields(self):
            fields = super(made, self).get_fields()
            for field in fields.values():
                if not field.read_only:
                    field.required = True
            return fields

        name = serializer_class.__name__.removesuffix("Serializer") + "ReplaceSerializer"
        made = type(name, (serializer_class,), {"get_fields": get_fields, "__module__": serializer_class.__module__,
                                                "__doc__": serializer_class.__doc__})
        _REPLACING[serializer_class] = made
    return made


class PutReplacesMixin:
    """For a ViewSet with ``update``: PUT requires every writable field (:func:`replacing`);
    PATCH stays partial."""

    def get_serializer_class(self):
        base = super().get_serializer_class()
        return replacing(base) if getattr(self, "action", None) == "update" else base
