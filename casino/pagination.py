"""Every API list is a page: ``?limit=`` (1 to MAX_LIMIT, default the
REST_FRAMEWORK ``PAGE_SIZE``) and ``?offset=``.

A page size or offset that is not a whole number in range is a field error, never quietly
replaced: a client asking for a million rows learns the cap instead of believing it has
them all (``next`` links to the rest).
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 500
#: The largest offset SQL takes (a bigint); any offset past the end gives an empty page.
MAX_OFFSET = 2**63 - 1


def _whole(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 19 and low <= int(raw) <= high):
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        raise ValidationError({name: [f'"{shown}" is not a whole number from {low:,} to {high:,}']})
    return int(raw)


class CappedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_limit(self, request):
        return _whole(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request):
        return _whole(request, self.offset_query_param, 0, 0, MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {self.limit_query_param: {"minimum": 1, "maximum": self.max_limit, "default": self.default_limit},
                  self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET}}
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


def paginated(view, queryset, serializer_class):
    """A detail action's list (history, versions, revisions) as a page, like every list."""
    page = view.paginate_queryset(queryset)
    return view.get_paginated_response(serializer_class(page, many=True).data)
