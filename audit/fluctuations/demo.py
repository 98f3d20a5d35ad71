"""For the demo (the integrator calls it after load_demo; the loader is not edited here): one
investigation opened from the demo day's own figures.

The demo has a single gaming day and no prior year, so neither Maryland's interval nor
Kansas's swing has anything to compare with. The demo therefore gives the casino a house band
(the Ohio pattern) at Nevada's published blackjack hold, 14% to 20% of drop, with a reason in the
bounds' history, and runs the day's check: every table, pit, game or floor whose statistical hold
falls outside it is investigated, as after a real final report. Nothing is made up: a demo day
whose every hold sits inside the band opens none (the function then answers None).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from .models import CUSTOM, Investigation
from .services import check_day, settings_save

DEMO_BAND = (Decimal("14.00"), Decimal("20.00"))


def demo_investigation(casino, day: date, author) -> Investigation | None:
    """Set the demo band (``author``: a gaming manager), check ``day``; the first investigation
    the check opened for a table, else for any unit, else one already open for the day."""
    settings_save(casino=casino, author=author, reason="demo: Nevada's published blackjack hold, 14-20% of drop",
                  preset=CUSTOM, band=True, band_min=DEMO_BAND[0], band_max=DEMO_BAND[1],
                  prior_year_interval=True, monthly_swing=False)
    opened = check_day(casino=casino, day=day, author=author)
    tables = [i for i in opened if i.level == "table"]
    if tables or opened:
        return (tables or opened)[0]
    already = Investigation.objects.filter(casino=casino, period_start__lte=day, period_end__gte=day)
    return already.filter(level="table").order_by("pk").first() or already.order_by("pk").first()
