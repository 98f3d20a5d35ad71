"""Floor pages. Pages parse, call selectors or services, and render; no rules here."""

from __future__ import annotations

from django.shortcuts import render

from casino.permissions import role_required
from casino.roles import ALL_ROLES
from casino.scoping import scope
from tables.models import Pit


@role_required(*ALL_ROLES)
def floor(request):
    pits = scope(Pit.objects.select_related("casino"), request.user).prefetch_related("tables__ruleset").order_by("casino__name", "name")
    return render(request, "tables/floor.html", {"pits": pits})
