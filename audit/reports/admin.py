"""Admin: gaming managers set the theoretical assumptions; finance's reports are read there too."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import ScopedAdminMixin
from tables.admin import with_change_reason

from .models import DailyReport, TheoreticalAssumption
from .services.assumptions import assumption_check, assumption_save


class AssumptionForm(forms.ModelForm):
    def _post_clean(self):
        super()._post_clean()
        try:
            assumption_check(self.instance)  # a refusal is a field error, not a 500 at save
        except ValidationError as exc:
            self._update_errors(exc)


@admin.register(TheoreticalAssumption)
class TheoreticalAssumptionAdmin(SimpleHistoryAdmin):
    form = AssumptionForm
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
class DailyReportAdmin(ScopedAdminMixin, admin.ModelAdmin):
    list_display = ("casino", "gaming_day", "status", "runs", "finished_at")
    list_filter = ("status", ("casino", admin.RelatedOnlyFieldListFilter))
    readonly_fields = [f.name for f in DailyReport._meta.fields]

    def has_add_permission(self, request):
        return False  # started from the finance page, the API, the command or beat

    def has_delete_permission(self, request, obj=None):
        return False
