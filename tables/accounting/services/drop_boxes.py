"""Drop boxes: one per table and gaming day, put on with the table's opener (services/inventory.py)
or, at a table that keeps no chip inventory, on first need; dropped once at the day's end.

Who drops and counts: the count team, or finance at a casino whose accounting settings say it
has no count team (:func:`counter_check`)."""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from casino.gaming_day import gaming_day_of
from casino.models import Casino
from casino.roles import COUNT, FINANCE, has_role
from casino.scoping import may_see_casino
from tables.accounting.models import AccountingSettings, BoxDrop, DropBox
from tables.closed_days import refuse_closed_day
from tables.models import Table


def finance_counts(casino: Casino) -> bool:
    return AccountingSettings.objects.filter(casino=casino, finance_counts=True).exists()


def may_count(user, casino: Casino) -> bool:
    if not may_see_casino(user, casino.pk):
        return False
    if user.is_superuser or has_role(user, COUNT):
        return True
    return has_role(user, FINANCE) and finance_counts(casino)


def counter_check(user, casino: Casino, *, field: str) -> None:
    if not may_count(user, casino):
        who = "the count team or finance" if finance_counts(casino) else "the count team"
        raise ValidationError({field: [f"{user} may not do this at {casino}: only {who} drops and counts boxes"]})


def drop_box_for(*, table: Table, gaming_day: date, author, at=None) -> DropBox:
    """The table's box for ``gaming_day``, made now if it has none yet. Boxes are
    append-only, so two first needs at once meet the unique constraint and read the winner's."""
    box, _ = DropBox.objects.get_or_create(
        table=table, gaming_day=gaming_day,
        defaults={"casino_id": table.pit.casino_id, "created_at": at or timezone.now(), "created_by": author})
    return box


@transaction.atomic
def drop_box_drop(*, table: Table, gaming_day: date, author, at=None) -> DropBox:
    """Record that the table's box for ``gaming_day`` was removed for the count. A day that
    has not started yet, or a box already dropped, is refused with the field named."""
    at = at or timezone.now()
    table = Table.objects.select_related("pit__casino").get(pk=table.pk)
    casino = table.pit.casino
    counter_check(author, casino, field="table")
    today = gaming_day_of(at, casino.time_zone, casino.gaming_day_start_hour)
    if gaming_day > today:
        raise ValidationError({"gaming_day": [f"{gaming_day} has not started yet (today is {today})"]})
    refuse_closed_day(casino.pk, gaming_day)
    box = drop_box_for(table=table, gaming_day=gaming_day, author=author, at=at)
    box = DropBox.objects.select_for_update().get(pk=box.pk)
    if BoxDrop.objects.filter(box=box).exists():
        raise ValidationError({"table": [f"the box of {table.label} for {gaming_day} is already dropped"]})
    BoxDrop.objects.create(box=box, dropped_at=at, dropped_by=author)
    return box
