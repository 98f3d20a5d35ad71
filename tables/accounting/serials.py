"""The next number of a slip series (see models/serials.py for why a locked counter row)."""

from __future__ import annotations

from django.db import transaction

from casino.audit_guard import allow_audit_write
from casino.models import Casino
from tables.accounting.models import SerialCounter


def serial_next(*, casino: Casino, series: str) -> int:
    """Issue the next number of ``series`` at ``casino``. Call it inside the transaction that
    writes the slip: the counter stays locked until that transaction ends, so a rollback
    gives the number back and two requests never get the same one."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("serial_next must run inside the slip's transaction")
    SerialCounter.objects.get_or_create(casino=casino, series=series)
    counter = SerialCounter.objects.select_for_update().get(casino=casino, series=series)
    allow_audit_write()  # the counter only grows (audit_guard RULES)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last

