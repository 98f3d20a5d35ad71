"""For the demo (load_demo calls it once a past demo day has its final report): one
investigation opened from the demo day's own figures.

The demo has a single gaming day and no prior year, so neither Maryland's interval nor
Kansas's swing has anything to compare with. The demo therefore gives the casino a house band
(the Ohio pattern: documented deviation criteria) for a day's hold of drop, -10% to 50%: a day
on which the players took more than a tenth of the drop, or the house kept more than half, is
looked into. One table's short demo day swings far more than a month's floor (Nevada's published
blackjack hold, 14-20%, is a month's floor figure), so a daily band is wide. The reason goes into the bounds' history, and
the day's check runs: every table, pit, game or floor whose statistical hold falls outside it is
investigated, as after a real final report. Nothing is made up: a demo day whose every hold
sits inside the band opens none (the function then answers None). In the demo's finished day
the overpay pattern's table, BT-01, loses beyond it (and so does its game, Blackjack Tie).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from audit.fluctuations.models import CUSTOM, Investigation
from audit.fluctuations.services import check_day, settings_save

DEMO_BAND = (Decimal("-10.00"), Decimal("50.00"))


def demo_investigation(casino, day: date, author, band: tuple[Decimal, Decimal] = DEMO_BAND) -> Investigation | None:
    """Set the demo band (``author``: a gaming manager), check ``day``; the first investigation
    the check opened for a table, else for any unit, else one already open for the day."""
    settings_save(casino=casino, author=author, reason=f"demo: a day's hold of drop outside {band[0]}% to {band[1]}% "
                  "is investigated", preset=CUSTOM, band=True, band_min=band[0], band_max=band[1],
                  prior_year_interval=True, monthly_swing=False)
    opened = check_day(casino=casino, day=day, author=author)
    tables = [i for i in opened if i.level == "table"]
    if tables or opened:
        return (tables or opened)[0]
    already = Investigation.objects.filter(casino=casino, period_start__lte=day, period_end__gte=day)
    return already.filter(level="table").order_by("pk").first() or already.order_by("pk").first()
