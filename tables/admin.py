"""The admin for gaming managers: the floor and rulesets, with their history visible."""

from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import scope
from tables.forms import ChangeReasonMixin, RulesetAdminForm, TableAdminForm
from tables.models import Casino, CasinoMembership, Dealer, Pit, Ruleset, RulesetVersion, Table
from tables.services.floor import floor_object_save, ruleset_create, ruleset_update


class ScopedAdminMixin:
    """A gaming manager sees and chooses only their casinos' records (superusers: all)."""

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


class ReasonedHistoryAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    """Every save goes through the floor service with the author and a required reason."""

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if "change_reason" not in form.base_fields:
            form = type(form.__name__, (ChangeReasonMixin, form), {})
        return form

    def save_model(self, request, obj, form, change):
        floor_object_save(obj=obj, author=request.user, reason=form.cleaned_data["change_reason"])

    def has_delete_permission(self, request, obj=None):
        return False  # the floor's past is audit evidence: deactivate, don't delete


@admin.register(Casino)
class CasinoAdmin(ReasonedHistoryAdmin):
    casino_path = "pk"
    list_display = ("name", "time_zone", "gaming_day_start_hour", "currency")


@admin.register(Pit)
class PitAdmin(ReasonedHistoryAdmin):
    list_display = ("name", "casino")
    list_filter = ("casino",)


@admin.register(Dealer)
class DealerAdmin(ReasonedHistoryAdmin):
    list_display = ("name", "employee_number", "casino", "active")
    list_filter = ("casino", "active")
    search_fields = ("name", "employee_number")


@admin.register(Table)
class TableAdmin(ReasonedHistoryAdmin):
    casino_path = "pit__casino"
    form = TableAdminForm
    list_display = ("label", "pit", "game", "ruleset", "is_open", "min_bet", "max_bet")
    list_filter = ("pit", "game", "is_open")


class RulesetVersionInline(admin.TabularInline):
    model = RulesetVersion
    fields = ("number", "created_at", "created_by", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-number",)

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Ruleset)
class RulesetAdmin(ReasonedHistoryAdmin):
    form = RulesetAdminForm
    list_display = ("name", "casino", "game", "version")
    list_filter = ("casino", "game")
    readonly_fields = ("version",)
    inlines = [RulesetVersionInline]

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
class RulesetVersionAdmin(ScopedAdminMixin, admin.ModelAdmin):
    casino_path = "ruleset__casino"
    list_display = ("ruleset", "number", "created_at", "created_by", "reason")
    readonly_fields = ("ruleset", "number", "game", "config", "created_at", "created_by", "reason")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False



@admin.register(CasinoMembership)
class CasinoMembershipAdmin(ScopedAdminMixin, SimpleHistoryAdmin):
    """Who works at which casino (what each user sees). A gaming manager manages their casinos'."""

    list_display = ("user", "casino")
    list_filter = ("casino",)
    search_fields = ("user__username", "user__last_name")
