"""The admin for gaming managers: the casino's chips and accounting thresholds, with history.
Slips and the ledger are written by the services only, so they are not edited here."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import ScopedAdminMixin
from tables.accounting.models import AccountingSettings, ChipSet
from tables.accounting.services.chips import chip_set_save, denomination_values
from tables.admin import ReasonedHistoryAdmin
from tables.forms import ChangeReasonMixin


class ChipSetAdminForm(ChangeReasonMixin, forms.ModelForm):
    values = forms.CharField(label="Chip values", help_text="Comma-separated, e.g. 1, 2.50, 5, 25, 100, 500, 1000, "
                             "5000. A value left out is retired (kept on old slips), never deleted.")

    class Meta:
        model = ChipSet
        fields = ["casino", "name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["values"].initial = ", ".join(
                f"{d.value}" for d in self.instance.denominations.filter(active=True))

    def clean_values(self):
        try:
            return denomination_values([v.strip() for v in self.cleaned_data["values"].split(",") if v.strip()])
        except ValidationError as exc:
            raise ValidationError(" ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from None


@admin.register(ChipSet)
class ChipSetAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    form = ChipSetAdminForm
    list_display = ("name", "casino", "chips")
    readonly_fields = ("chips",)

    @admin.display(description="Chips (retired in brackets)")
    def chips(self, obj) -> str:
        if obj is None or obj.pk is None:
            return "-"
        return ", ".join(f"{d.value}" if d.active else f"({d.value})" for d in obj.denominations.all())

    def save_model(self, request, obj, form, change):
        saved = chip_set_save(casino=form.cleaned_data["casino"], name=form.cleaned_data["name"],
                              denominations=form.cleaned_data["values"], author=request.user,
                              reason=form.cleaned_data["change_reason"])
        obj.pk = saved.pk

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AccountingSettings)
class AccountingSettingsAdmin(ReasonedHistoryAdmin):
    list_display = ("casino", "report_above", "regulator_at", "finance_counts")
