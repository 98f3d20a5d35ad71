"""Which casinos a user works at, and the one way every page, API and report narrows to them.

A user sees the casinos they are a member of (casino.models.CasinoMembership); a superuser
sees every casino. Querysets are narrowed with :func:`scope` and the path from their model to
its casino (``"pk"`` for a casino itself, ``"casino"``, ``"pit__casino"``, ``"table__pit__casino"``, ...); DRF viewsets
use :class:`CasinoScopedMixin`, so another casino's object is a 404, never a 403 that would
say it exists.
"""

from __future__ import annotations

from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.http import Http404
from rest_framework.relations import PrimaryKeyRelatedField

from casino.models import Casino, CasinoMembership


def user_casino_ids(user) -> frozenset[int] | None:
    """The ids of the user's casinos, cached on the user; ``None`` means every casino."""
    if user is None or not user.is_authenticated:
        return frozenset()
    if user.is_superuser:
        return None
    cached = getattr(user, "_casino_ids", None)
    if cached is None:
        membership = CasinoMembership
        cached = frozenset(membership.objects.filter(user_id=user.pk).values_list("casino_id", flat=True))
        user._casino_ids = cached
    return cached


def narrow(queryset, casino_ids, path: str = "casino"):
    """``queryset`` narrowed to ``casino_ids`` (``None``: every casino) through ``path``."""
    return queryset if casino_ids is None else queryset.filter(**{f"{path}__in": casino_ids})


def scope(queryset, user, path: str = "casino"):
    """``queryset`` narrowed to the user's casinos (``path`` leads from its model to a casino)."""
    return narrow(queryset, user_casino_ids(user), path)


def may_see_casino(user, casino_id) -> bool:
    ids = user_casino_ids(user)
    return ids is None or casino_id in ids


def users_visible_to(viewer):
    """Users who share a casino with ``viewer`` (every user for a superuser)."""
    users = get_user_model().objects.all()
    ids = user_casino_ids(viewer)
    if ids is None:
        return users
    return users.filter(casino_memberships__casino_id__in=ids).distinct()


class CasinoScopedMixin:
    """For DRF views: ``get_queryset`` narrowed to the caller's casinos through ``casino_path``."""

    casino_path = "casino"

    def get_queryset(self):
        return scope(super().get_queryset(), self.request.user, self.casino_path)


class CasinoScopedRelatedField(PrimaryKeyRelatedField):
    """A related id in a request body, accepted only for an object of the caller's casinos
    (another casino's id is refused as if it did not exist)."""

    def __init__(self, *, casino_path: str = "casino", **kwargs):
        self.casino_path = casino_path
        super().__init__(**kwargs)

    def get_queryset(self):
        queryset = super().get_queryset()
        request = self.context.get("request")
        return scope(queryset, request.user, self.casino_path) if request is not None else queryset


class ScopedAdminMixin:
    """For the admin: a gaming manager sees and chooses only their casinos' records
    (superusers: all). Another casino's object is a 404 on its change and history pages,
    and is not offered in a form's choices (so a post naming it is a field error)."""

    casino_path = "casino"
    #: Foreign keys offered in forms -> the path from their model to its casino.
    scoped_choices = {"casino": "pk", "pit": "casino", "ruleset": "casino", "dealer": "casino"}

    def get_queryset(self, request):
        return scope(super().get_queryset(request), request.user, self.casino_path)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and db_field.name in self.scoped_choices:
            field.queryset = scope(field.queryset, request.user, self.scoped_choices[db_field.name])
        return field

    def _require_visible(self, request, object_id) -> None:
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404("No such object.")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        self._require_visible(request, object_id)
        return super().change_view(request, object_id, form_url, extra_context)

    def history_view(self, request, object_id, extra_context=None):
        # simple-history would fall back to the object's last historical record.
        self._require_visible(request, object_id)
        return super().history_view(request, object_id, extra_context)


def user_casino(user, raw: str | None = None, *, order: str = "pk"):
    """The casino a page or list shows: the user's casino whose id ``raw`` gives (a query
    parameter), or their first (by ``order``) when none is named. ``None`` when ``raw`` names no
    casino of theirs or they work at none: the caller answers as its interface does (a 404, so
    another casino's id reads as one that does not exist, or a field error)."""
    casinos = scope(Casino.objects.order_by(order), user, "pk")
    raw = (raw or "").strip()
    if not raw:
        return casinos.first()
    return casinos.filter(pk=int(raw)).first() if raw.isdigit() else None
