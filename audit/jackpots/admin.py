"""The W-2G thresholds, dated rows a gaming manager keeps (each change in their history)."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from audit.jackpots.models import W2GThreshold


@admin.register(W2GThreshold)
class W2GThresholdAdmin(SimpleHistoryAdmin):
    list_display = ("effective_from", "min_amount", "min_multiple", "note")

    def has_delete_permission(self, request, obj=None):
        return False  # past awards were judged by it: add a newer row instead
