"""The admin for gaming managers: the floor and rulesets, with their history visible."""

from __future__ import annotations

import json

from django.contrib import admin
from django.utils.html import conditional_escape
from simple_history.admin import SimpleHistoryAdmin
from simple_history.template_utils import HistoricalRecordContextHelper

from casino.models import Casino, CasinoMembership
from casino.scoping import ScopedAdminMixin, users_visible_to
from tables.forms import ChangeReasonMixin, RulesetAdminForm, TableAdminForm
from tables.models import Dealer, Pit, Ruleset, RulesetVersion, Table
from tables.services.floor import floor_object_save, ruleset_create, ruleset_update


def with_change_reason(form):
    """``form`` with the required ``change_reason`` field declared (as it is if it has it)."""
    if "change_reason" in form.declared_fields:
        return form
    return type(form.__name__, (ChangeReasonMixin, form), {})


class ReasonedHistoryAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    """Every save goes through the floor service with the author and a required reason."""

    def get_form(self, request, obj=None, change=False, **kwargs):
        # The reason is declared on the form handed to the factory: the admin's field list
        # (built from a first get_form) names it, and the factory refuses a field it cannot find.
        return super().get_form(request, obj, change=change, **{"form": with_change_reason(self.form), **kwargs})

    def save_model(self, request, obj, form, change):
        floor_object_save(obj=obj, author=request.user, reason=form.cleaned_data["change_reason"])

    def has_delete_permission(self, request, obj=None):
        return False  # the floor's past is audit evidence: deactivate, don't delete


class ViewOnlyMixin:
    """Records written by the services only (frozen versions, worked investigations): the admin
    shows them and their history, and changes nothing."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Casino)
class CasinoAdmin(ReasonedHistoryAdmin):
    casino_path = "pk"
    list_display = ("name", "time_zone", "gaming_day_start_hour", "currency")


@admin.register(Pit)
class PitAdmin(ReasonedHistoryAdmin):
    list_display = ("name", "casino")
    list_filter = (("casino", admin.RelatedOnlyFieldListFilter),)


@admin.register(Dealer)
class DealerAdmin(ReasonedHistoryAdmin):
    list_display = ("name", "employee_number", "casino", "active")
    list_filter = (("casino", admin.RelatedOnlyFieldListFilter), "active")
    search_fields = ("name", "employee_number")


@admin.register(Table)
class TableAdmin(ReasonedHistoryAdmin):
    casino_path = "pit__casino"
    form = TableAdminForm
    list_display = ("label", "pit", "game", "ruleset", "is_open", "min_bet", "max_bet")
    list_filter = (("pit", admin.RelatedOnlyFieldListFilter), "game", "is_open")


class RulesetVersionInline(admin.TabularInline):
    model = RulesetVersion
    fields = ("number", "created_at", "created_by", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-number",)

    def has_add_permission(self, request, obj=None):
        return False


def _setting_label(path: tuple[str, ...]) -> str:
    """``("tie_paytable", "LS")`` -> "Tie paytable LS" (the first part as the admin form labels it)."""
    first, *rest = path
    return " ".join([first.replace("_", " ").capitalize(), *rest])


def _setting_value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _changed_settings(old: dict, new: dict, path: tuple[str, ...] = ()):
    """(path, before, after) for every leaf setting that differs, nested pay tables included."""
    for key in [*old, *(k for k in new if k not in old)]:
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if isinstance(before, dict) and isinstance(after, dict):
            yield from _changed_settings(before, after, (*path, str(key)))
        else:
            yield (*path, str(key)), before, after


class RulesetHistoryHelper(HistoricalRecordContextHelper):
    """The history's "Changes": one line per changed setting, before and after, never shortened.

    simple-history would print the whole ``config`` dictionary as one value, cut to 100
    characters (``{'dec[330 chars]e': 'A'}``); a manager reads the settings by name instead.
    """

    def context_for_delta_changes(self, delta):
        lines = []
        for change in delta.changes:
            if change.field != "config":
                formatted = self.format_delta_change(change)
                lines.append({"field": formatted.field, "old": formatted.old, "new": formatted.new})
                continue
            for path, before, after in _changed_settings(change.old or {}, change.new or {}):
                lines.append({"field": _setting_label(path), "old": conditional_escape(_setting_value(before)),
                              "new": conditional_escape(_setting_value(after))})
        return lines


@admin.register(Ruleset)
class RulesetAdmin(ReasonedHistoryAdmin):
    form = RulesetAdminForm
    list_display = ("name", "casino", "game", "version")
    list_filter = (("casino", admin.RelatedOnlyFieldListFilter), "game")
    readonly_fields = ("version",)
    inlines = [RulesetVersionInline]

    def get_historical_record_context_helper(self, request, historical_record):
        return RulesetHistoryHelper(self.model, historical_record)

    def get_form(self, request, obj=None, change=False, **kwargs):
        # The setting fields are built per game in RulesetAdminForm.__init__, not by the factory.
        kwargs["fields"] = ["casino", "game", "name"]
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request, obj=None):
        fields = ["casino", "game", "name", "version"] if obj else ["casino", "game", "name"]
        settings = [name for name in RulesetAdminForm(instance=obj).fields if name.startswith("setting__")] if obj else []
        return [*fields, *settings, "change_reason"]

    def save_model(self, request, obj, form, change):
        reason = form.cleaned_data["change_reason"]
        if change:
            saved = ruleset_update(ruleset=obj, author=request.user, reason=reason,
                                   name=form.cleaned_data["name"], config=form.cleaned_config)
        else:
            saved = ruleset_create(casino=obj.casino, game=obj.game, name=obj.name, config=None,
                                   author=request.user, reason=reason)
        obj.pk, obj.version, obj.config = saved.pk, saved.version, saved.config


@admin.register(RulesetVersion)
class RulesetVersionAdmin(ViewOnlyMixin, ScopedAdminMixin, admin.ModelAdmin):
    casino_path = "ruleset__casino"
    # The ruleset by name: its __str__ carries its *current* version, wrong on older rows.
    list_display = ("ruleset_name", "number", "created_at", "created_by", "reason")
    list_display_links = ("ruleset_name", "number")
    readonly_fields = ("ruleset", "number", "game", "config", "created_at", "created_by", "reason")

    @admin.display(description="Ruleset", ordering="ruleset__name")
    def ruleset_name(self, version):
        return version.ruleset.name

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("ruleset", "created_by")



@admin.register(CasinoMembership)
class CasinoMembershipAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    """Who works at which casino (what each user sees). A gaming manager manages their casinos'."""

    list_display = ("user", "casino")
    list_filter = (("casino", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("user__username", "user__last_name")

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and db_field.name == "user":
            # Users of the manager's casinos (a superuser: every user): another casino's user
            # names are not shown, and a post naming one is a field error.
            field.queryset = users_visible_to(request.user).order_by("username")
        return field
