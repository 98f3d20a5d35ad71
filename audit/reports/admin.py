"""Admin: gaming managers set the theoretical assumptions; finance's reports are read there too."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from tables.admin import with_change_reason

from .models import DailyReport, TheoreticalAssumption
from .services.assumptions import assumption_save


@admin.register(TheoreticalAssumption)
class TheoreticalAssumptionAdmin(SimpleHistoryAdmin):
    list_display = ("game", "wager", "house_edge", "variance", "note")
    list_filter = ("game",)

    def get_form(self, request, obj=None, change=False, **kwargs):
        return super().get_form(request, obj, change=change, **{"form": with_change_reason(self.form), **kwargs})

    def save_model(self, request, obj, form, change):
        assumption_save(
            assumption=obj, author=request.user, reason=form.cleaned_data["change_reason"]
        )

    def has_delete_permission(self, request, obj=None):
        return False  # past reports were computed with it; change it, with a reason, instead


@admin.register(DailyReport)
class DailyReportAdmin(admin.ModelAdmin):
    list_display = ("casino", "gaming_day", "status", "runs", "finished_at")
    list_filter = ("status", "casino")
    readonly_fields = [f.name for f in DailyReport._meta.fields]

    def has_add_permission(self, request):
        return False  # started from the finance page, the API, the command or beat

    def has_delete_permission(self, request, obj=None):
        return False
