"""Objects the permission matrix needs for the Title 31 URLs that take a pk."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from django.utils import timezone

from audit.compliance.models import CashOut, ComplianceSettings, PatronIdentification
from tests.factories import player_for


def compliance_matrix_objects(table, author) -> dict:
    casino = table.pit.casino
    now = timezone.now()
    cash_out = CashOut.objects.create(casino=casino, gaming_day=date(2026, 1, 5), kind="chip_redemption",
                                      amount=D("500.00"), player_identifier="MATRIX-1", recorded_at=now,
                                      recorded_by=author)
    player = player_for(casino, "MATRIX-1", name="Matrix Patron")
    identification = PatronIdentification.objects.create(player=player, last_name="Patron", reason="matrix",
                                                         recorded_at=now, recorded_by=author)
    return {"cashout": cash_out, "identification": identification,
            "compliancesettings": ComplianceSettings.objects.create(casino=casino)}
