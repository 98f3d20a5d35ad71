"""What the gaming-day close announces, so that tables imports nothing from audit.

``day_reopening``: a gaming manager is reopening a closed day. Sent *inside* the reopen's
transaction (not on commit): the daily report listens and requests the re-run of the day's final
report there, so a re-run it refuses (one already going) refuses the reopen with the field named,
and nothing is stored. Arguments: ``casino``, ``gaming_day``, ``reopen`` (the DayReopen, saved),
``author``.
"""

from django.dispatch import Signal

day_reopening = Signal()
