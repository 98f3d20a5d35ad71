"""The admin: a gaming manager edits the casino's fluctuation bounds (a reason is required and
kept with the author in the history). Investigations are worked on their pages and the API."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import ScopedAdminMixin
from tables.admin import ReasonedHistoryAdmin, ViewOnlyMixin

from .models import FluctuationSettings, Investigation
from .services import SETTINGS_FIELDS, settings_save


@admin.register(FluctuationSettings)
class FluctuationSettingsAdmin(ReasonedHistoryAdmin):
    list_display = ("casino", "preset", "prior_year_interval", "monthly_swing", "band", "band_min", "band_max")
    fields = ("casino", *SETTINGS_FIELDS)

    def save_model(self, request, obj, form, change):
        saved = settings_save(casino=form.cleaned_data["casino"], author=request.user,
                              reason=form.cleaned_data["change_reason"],
                              **{name: form.cleaned_data[name] for name in SETTINGS_FIELDS})
        obj.pk = saved.pk


@admin.register(Investigation)
class InvestigationAdmin(ViewOnlyMixin, ScopedAdminMixin, SimpleHistoryAdmin):
    list_display = ("label", "period", "period_start", "rule", "drop_hold_pct", "status", "owner")
    list_filter = ("status", "period", "rule")
