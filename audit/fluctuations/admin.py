"""The admin: a gaming manager edits the casino's fluctuation bounds (a reason is required and
kept with the author in the history). Investigations are worked on their pages and the API."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import ScopedAdminMixin
from tables.admin import with_change_reason

from .models import FluctuationSettings, Investigation
from .services import SETTINGS_FIELDS, settings_save


@admin.register(FluctuationSettings)
class FluctuationSettingsAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    list_display = ("casino", "preset", "prior_year_interval", "monthly_swing", "band", "band_min", "band_max")
    fields = ("casino", *SETTINGS_FIELDS)

    def get_form(self, request, obj=None, change=False, **kwargs):
        return super().get_form(request, obj, change=change, **{"form": with_change_reason(self.form), **kwargs})

    def save_model(self, request, obj, form, change):
        saved = settings_save(casino=form.cleaned_data["casino"], author=request.user,
                              reason=form.cleaned_data["change_reason"],
                              **{name: form.cleaned_data[name] for name in SETTINGS_FIELDS})
        obj.pk = saved.pk

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Investigation)
class InvestigationAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    list_display = ("label", "period", "period_start", "rule", "hold_pct", "status", "owner")
    list_filter = ("status", "period", "rule")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
