"""Objects the permission matrix and the page tests need for the fluctuation URLs that take a pk."""

from __future__ import annotations

from datetime import date
from decimal import Decimal as D

from django.utils import timezone

from audit.fluctuations.models import FluctuationSettings, Investigation


def fluctuation_matrix_objects(table) -> dict:
    casino = table.pit.casino
    investigation = Investigation.objects.create(
        casino=casino, level="table", key=str(table.pk), label=f"{table.pit.name} / {table.label}", period="day",
        period_start=date(2026, 1, 5), period_end=date(2026, 1, 5), rule="band", drop_hold_pct=D("31.0000"),
        bound_low=D("10.0000"), bound_high=D("25.0000"),
        figures={"stat_win": "3100.00", "drop": "10000.00", "drop_hold_pct": "31.0000",
                 "why": "hold 31.00% is outside the band 10.00% to 25.00%"},
        explanation="The recorded play won 3,000.00: +150.00 is the house edge (theoretical win); +2,850.00 is "
                    "luck (z = +1.20, percentile 88.5, inside the 95% interval); no dealer error was found.",
        opened_at=timezone.now())
    settings = FluctuationSettings.objects.create(casino=casino, preset="ohio", band=True, band_min=D("10"),
                                                  band_max=D("25"))
    return {"investigation": investigation, "investigation-api": investigation, "fluctuationsettings": settings}
