from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from casino.scoping import ScopedAdminMixin
from tables.admin import ViewOnlyMixin
from tables.players.models import Player


@admin.register(Player)
class PlayerAdmin(ViewOnlyMixin, ScopedAdminMixin, SimpleHistoryAdmin):
    """Registered and changed through the services (pages and API), each change with its reason."""

    list_display = ("identifier", "name", "loyalty_number", "casino", "registered_at")
    search_fields = ("identifier", "name", "loyalty_number")
