"""Admin for gaming managers: jackpot banks, their tables and line configurations, and the
W-2G thresholds (dated rows, each change in their history).

Every write goes through the jackpot services (role, reason, author, the checks and the
seed postings). The service runs while the form is validated, so a refusal is shown on
the form as a field error instead of failing the save; the admin's request is one
transaction, so nothing is kept unless the whole save succeeds. Nothing is ever changed
or deleted here: a new line configuration is a new version; money moves only through
the ledger.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import transaction
from simple_history.admin import SimpleHistoryAdmin

from audit.jackpots import services
from audit.jackpots.models import JackpotBank, JackpotBankTable, JackpotLineConfig, W2GThreshold
from casino.scoping import ScopedAdminMixin
from tables.forms import ChangeReasonMixin


class ServiceForm(ChangeReasonMixin, forms.ModelForm):
    """A model form whose save is a service call; ``author`` is set per request."""

    author = None

    def create(self, data: dict, reason: str):  # pragma: no cover - each form defines it
        raise NotImplementedError

    def clean(self):
        data = super().clean()
        if self.errors or self.instance.pk:
            return data
        try:
            with transaction.atomic():
                self.instance = self.create(data, data.get("change_reason", ""))
        except ValidationError as exc:
            for field, problems in (exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}).items():
                self.add_error(field if field in self.fields else None, problems)
        return data

    def _post_clean(self):
        pass  # the service has validated and saved the object


class BankForm(ServiceForm):
    class Meta:
        model = JackpotBank
        fields = ["casino", "name", "defer_changes_until_hit", "amount_max"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "amount_max" in self.fields:
            self.fields["amount_max"].required = False  # blank: the model's default

    def create(self, data, reason):
        return services.jackpot_bank_create(
            casino=data["casino"],
            name=data["name"],
            defer_changes_until_hit=data.get("defer_changes_until_hit", True),
            amount_max=data.get("amount_max"),
            author=self.author,
            reason=reason,
        )


class BankTableForm(ServiceForm):
    class Meta:
        model = JackpotBankTable
        fields = ["bank", "table"]

    def create(self, data, reason):
        return services.jackpot_bank_table_add(
            bank=data["bank"], table=data["table"], author=self.author, reason=reason
        )


class LineConfigForm(ServiceForm):
    class Meta:
        model = JackpotLineConfig
        fields = ["bank", "line", "progressive", "reset", "increment_rate", "hidden_rate", "cap"]

    def create(self, data, reason):
        return services.jackpot_line_configure(
            bank=data["bank"],
            line=data["line"],
            progressive=data.get("progressive", False),
            reset=data.get("reset"),
            increment_rate=data.get("increment_rate"),
            hidden_rate=data.get("hidden_rate"),
            cap=data.get("cap"),
            author=self.author,
            reason=reason,
        )


class ServiceAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    """Add through the service; existing rows are read-only (history is evidence). A gaming
    manager sees, and is offered, only their casinos' banks, tables and casinos."""

    casino_path = "bank__casino"
    scoped_choices = {"casino": "pk", "bank": "casino", "table": "pit__casino"}

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"author": request.user})

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return [f.name for f in self.model._meta.fields]

    def save_model(self, request, obj, form, change):
        pass  # saved by the service in the form's clean()

    def has_delete_permission(self, request, obj=None):
        return False


class BankTableInline(admin.TabularInline):
    model = JackpotBankTable
    fields = ("table", "added_at", "added_by")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # link a table with "Jackpot bank tables" (a reason is required)


@admin.register(JackpotBank)
class JackpotBankAdmin(ServiceAdmin):
    casino_path = "casino"
    form = BankForm
    list_display = ("name", "casino", "defer_changes_until_hit", "created_at")
    list_filter = (("casino", admin.RelatedOnlyFieldListFilter),)
    inlines = [BankTableInline]


@admin.register(JackpotBankTable)
class JackpotBankTableAdmin(ServiceAdmin):
    form = BankTableForm
    list_display = ("table", "bank", "added_at", "added_by")
    list_filter = (("bank", admin.RelatedOnlyFieldListFilter),)


@admin.register(JackpotLineConfig)
class JackpotLineConfigAdmin(ServiceAdmin):
    form = LineConfigForm
    list_display = ("bank", "line", "number", "progressive", "reset", "increment_rate", "hidden_rate", "cap",
                    "status")
    list_filter = (("bank", admin.RelatedOnlyFieldListFilter), "line", "status")


@admin.register(W2GThreshold)
class W2GThresholdAdmin(SimpleHistoryAdmin):
    list_display = ("effective_from", "min_amount", "min_multiple", "note")

    def has_delete_permission(self, request, obj=None):
        return False  # past awards were judged by it: add a newer row instead
