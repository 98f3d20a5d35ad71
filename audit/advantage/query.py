"""The page's and the API's one reading of ``?gaming_day=`` and ``?table=``."""

from __future__ import annotations

from datetime import date

from django.utils import timezone

from casino.gaming_day import current_gaming_day
from casino.scoping import scope, user_casino
from tables.models import Table


class UnknownTable(ValueError):
    pass


def chosen_table(user, raw: str | None) -> Table | None:
    """The reader's table named by ``raw`` (None: all tables). Another casino's table is unknown
    (as every related id of another casino is)."""
    if not raw:
        return None
    table = None
    if raw.isdigit():
        table = scope(Table.objects.select_related("pit__casino"), user, "pit__casino").filter(pk=int(raw)).first()
    if table is None:
        raise UnknownTable(f'"{raw}" is not one of your tables')
    return table


def default_day(user, table: Table | None) -> date:
    """The current gaming day of the table's casino (of the reader's first casino for all tables):
    surveillance watches the play of today."""
    casino = table.pit.casino if table is not None else user_casino(user)
    return current_gaming_day(casino) if casino is not None else timezone.now().date()
